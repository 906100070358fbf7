// libFuzzer entry: every input goes through OpenModelFuzzProperties.tokenizerJSON.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = OpenModelFuzzProperties.tokenizerJSON(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError("fuzz property failed: \(failure)")
    }
    return 0
}
