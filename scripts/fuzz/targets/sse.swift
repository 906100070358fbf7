// libFuzzer entry: every input goes through SummariserFuzzProperties.serverSentEvents.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = SummariserFuzzProperties.serverSentEvents(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError("fuzz property failed: \(failure)")
    }
    return 0
}
