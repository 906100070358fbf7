import Foundation
import TokenKit

// Times TokenKit in-process on files, for bench/run. Prints one JSON line per
// file and repetition: {"file", "encoding", "mode", "repetition", "first",
// "seconds", "cpuSeconds", "tokens", "bytes", "loadSeconds"}; cpuSeconds is
// the thread's CPU time, which a busy machine disturbs far less than the
// wall-clock seconds. "first" is true for the process's first call only, so
// the bench can state the cache state: `tokbench E count 1 FILE` times a
// first pass in a fresh process, later repetitions the warm one.
// loadSeconds is the wall time the tokenizer took to load.
// Usage: tokbench ENCODING|TOKENIZER-FILE count|encode REPEATS FILE...
// (a tokenizer file — .gguf, tokenizer.json, … — times an open model's
// pipeline, normalizers included)

let arguments = CommandLine.arguments
guard arguments.count >= 5, let repeats = Int(arguments[3]), ["count", "encode"].contains(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: tokbench ENCODING|TOKENIZER-FILE count|encode REPEATS FILE...\n".utf8))
    exit(2)
}
let loadStart = DispatchTime.now().uptimeNanoseconds
let tokenizer = FileManager.default.fileExists(atPath: arguments[1])
    ? try Tokenizer.load(contentsOf: URL(fileURLWithPath: arguments[1]))
    : try Tokenizer.named(arguments[1])
let mode = arguments[2]
let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e9

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func cpuNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

var first = true
for path in arguments[4...] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let bytes = [UInt8](data)
    for repetition in 0..<repeats {
        let start = now(), cpuStart = cpuNow()
        let tokens = bytes.withUnsafeBufferPointer { buffer in
            mode == "count" ? tokenizer.count(utf8: buffer) : tokenizer.encodeOrdinary(utf8: buffer).count
        }
        let seconds = now() - start, cpuSeconds = cpuNow() - cpuStart
        print("{\"file\":\"\(path)\",\"encoding\":\"\(arguments[1])\",\"mode\":\"\(mode)\",\"repetition\":\(repetition),\"first\":\(first),\"seconds\":\(seconds),\"cpuSeconds\":\(cpuSeconds),\"tokens\":\(tokens),\"bytes\":\(bytes.count),\"loadSeconds\":\(loadSeconds)}")
        first = false
    }
}
