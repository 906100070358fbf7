import Foundation
import TokenKit

// Times TokenKit in-process on files, for bench/run. Prints one JSON line per
// file and repetition: {"file", "encoding", "mode", "repetition", "first",
// "seconds", "cpuSeconds", "tokens", "bytes", "loadSeconds", "warmupSeconds"};
// cpuSeconds is the thread's CPU time, which a busy machine disturbs far less
// than the wall-clock seconds.
//
// What "first" means, the same for every implementation bench/bench.py times
// (bench/peers.py does the same for the Python peers): the tokenizer is
// loaded (loadSeconds, outside the clock), called once on a short text
// (`warmUpText`, the same text as peers.WARMUP; warmupSeconds, outside the
// clock: whatever the library sets up on its first call), then the files are
// read, and the tokenizer's first call on a file's bytes is timed with
// "first": true. Later repetitions, the same tokenizer on the same bytes
// again, are the warm ones. Process start-up is never inside the clock.
// Usage: tokbench ENCODING|TOKENIZER-FILE count|encode REPEATS FILE...
// (a tokenizer file — .gguf, tokenizer.json, … — times an open model's
// pipeline, normalizers included)

/// The short text every implementation is called on once before its clock
/// starts: ASCII prose, Latin, Chinese, Japanese and Korean letters, digits and
/// code, so that lazily built tables for any script exist. Keep it equal to
/// `WARMUP` in bench/peers.py.
let warmUpText = "Hello, world! It's 2026: café, naïve. 你好，世界。こんにちは、世界。안녕하세요.\n    def f(x): return x + 1\n"

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4, let repeats = Int(arguments[2]), ["count", "encode"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: tokbench ENCODING|TOKENIZER-FILE count|encode REPEATS FILE...\n".utf8))
    exit(2)
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func cpuNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

let spec = arguments[0], mode = arguments[1]
let loadStart = now()
let tokenizer =
    FileManager.default.fileExists(atPath: spec)
    ? try Tokenizer.load(contentsOf: URL(fileURLWithPath: spec))
    : try Tokenizer.named(spec)
let loadSeconds = now() - loadStart

let run: (UnsafeBufferPointer<UInt8>) -> Int = { buffer in
    mode == "count" ? tokenizer.count(utf8: buffer) : tokenizer.encodeOrdinary(utf8: buffer).count
}

let warmupStart = now()
var warmUpBytes = warmUpText
_ = warmUpBytes.withUTF8 { run($0) }
let warmupSeconds = now() - warmupStart

var first = true
for path in arguments[3...] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let bytes = [UInt8](data)
    for repetition in 0..<repeats {
        let start = now(), cpuStart = cpuNow()
        let tokens = bytes.withUnsafeBufferPointer { run($0) }
        let seconds = now() - start, cpuSeconds = cpuNow() - cpuStart
        print(
            "{\"file\":\"\(path)\",\"encoding\":\"\(spec)\",\"mode\":\"\(mode)\",\"repetition\":\(repetition),\"first\":\(first),\"seconds\":\(seconds),\"cpuSeconds\":\(cpuSeconds),\"tokens\":\(tokens),\"bytes\":\(bytes.count),\"loadSeconds\":\(loadSeconds),\"warmupSeconds\":\(warmupSeconds)}"
        )
        first = false
    }
}
