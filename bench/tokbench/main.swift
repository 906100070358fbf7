import Foundation
import TokenKit

// Times TokenKit in-process on files, for bench/run. Prints one JSON line per
// file and repetition: {"file", "encoding", "mode", "seconds", "cpuSeconds",
// "tokens", "bytes"}; cpuSeconds is the thread's CPU time, which a busy
// machine disturbs far less than the wall-clock seconds.
// Usage: tokbench ENCODING|TOKENIZER-FILE count|encode REPEATS FILE...
// (a tokenizer file — .gguf, tokenizer.json, … — times an open model's
// pipeline, normalizers included)

let arguments = CommandLine.arguments
guard arguments.count >= 5, let repeats = Int(arguments[3]), ["count", "encode"].contains(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: tokbench ENCODING|TOKENIZER-FILE count|encode REPEATS FILE...\n".utf8))
    exit(2)
}
let tokenizer = FileManager.default.fileExists(atPath: arguments[1])
    ? try Tokenizer.load(contentsOf: URL(fileURLWithPath: arguments[1]))
    : try Tokenizer.named(arguments[1])
let mode = arguments[2]

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func cpuNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

for path in arguments[4...] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let bytes = [UInt8](data)
    for _ in 0..<repeats {
        let start = now(), cpuStart = cpuNow()
        let tokens = bytes.withUnsafeBufferPointer { buffer in
            mode == "count" ? tokenizer.count(utf8: buffer) : tokenizer.encodeOrdinary(utf8: buffer).count
        }
        let seconds = now() - start, cpuSeconds = cpuNow() - cpuStart
        print("{\"file\":\"\(path)\",\"encoding\":\"\(arguments[1])\",\"mode\":\"\(mode)\",\"seconds\":\(seconds),\"cpuSeconds\":\(cpuSeconds),\"tokens\":\(tokens),\"bytes\":\(bytes.count)}")
    }
}
