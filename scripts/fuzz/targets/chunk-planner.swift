// libFuzzer entry: every input goes through PlannerFuzzProperties.plan.

/// Loads what every input needs before fuzzing, so that the per-input
/// time-out measures the code under test, not the first load.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    _ = PlannerFuzzProperties.planners
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    if let failure = PlannerFuzzProperties.plan(Array(UnsafeBufferPointer(start: data, count: size))) {
        fatalError("fuzz property failed: \(failure)")
    }
    return 0
}
