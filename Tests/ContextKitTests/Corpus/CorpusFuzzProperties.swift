import ContextKitJSON
import Foundation
@testable import ContextKit

/// What the JSON Lines reader must do with any bytes, checked by the `jsonl`
/// libFuzzer target in `scripts/fuzz` (which compiles this file) and replayed
/// by `FuzzRegressionTests`. No `Testing` import: the fuzzer builds it
/// outside the test runner.
enum CorpusFuzzProperties {
    static let counter: RecordCounter = {
        let tokenizer = try! Tokenizer.named("cl100k_base")
        return RecordCounter(
            tokenizer: tokenizer, special: .plainText, estimate: nil, budget: TokenBudget(window: 64),
            text: .field(RecordFieldPath("text")!), id: RecordFieldPath("id"))
    }()

    /// Serves bytes in reads of a fixed small size, so lines straddle blocks.
    final class SteppedSource: ByteSource {
        let bytes: [UInt8]
        let step: Int
        var offset = 0
        init(_ bytes: [UInt8], step: Int) { self.bytes = bytes; self.step = step }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let n = min(buffer.count, bytes.count - offset, step)
            buffer.copyBytes(from: bytes[offset..<(offset + n)])
            offset += n
            return n
        }
    }

    /// The first two bytes choose the line limit and the read size; the rest
    /// is the input. The reader must hand out exactly the lines a plain
    /// split at line feeds gives (numbers, offsets, bytes, too-long ones
    /// refused alone), and every line must get a result whose output line is
    /// JSON with a count or an error.
    static func jsonl(_ data: [UInt8]) -> String? {
        guard data.count >= 2 else { return nil }
        let maxLine = Int(data[0] % 48) + 1, step = Int(data[1] % 40) + 1
        let input = Array(data[2...])
        var expected: [(number: Int, offset: Int, bytes: ArraySlice<UInt8>?, length: Int)] = []
        var start = 0, number = 1
        while start <= input.count {
            let feed = input[start...].firstIndex(of: 0x0A)
            if feed == nil && start == input.count { break }
            var end = feed ?? input.count
            if end > start && input[end - 1] == 0x0D { end -= 1 }
            let line = input[start..<end]
            if line.count > maxLine {
                expected.append((number, start, nil, line.count))
            } else if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                expected.append((number, start, line, line.count))
            }
            guard let feed else { break }
            start = feed + 1
            number += 1
        }
        var reader = JSONLBatchReader(source: SteppedSource(input, step: step), maxLineBytes: maxLine, blockSize: step)
        var got: [(JSONLLine, [UInt8])] = []
        do {
            while let batch = try reader.next() {
                if batch.lines.isEmpty { return "an empty batch" }
                for line in batch.lines {
                    got.append((line, Array(batch.bytes[line.range])))
                    let result = batch.bytes.withUnsafeBufferPointer { counter.count(line, in: $0, maxLineBytes: maxLine) }
                    let out: OrderedJSON
                    do { out = try JSONParser.parse(result.jsonLine()) } catch { return "output line is not JSON: \(result.jsonLine())" }
                    switch result.outcome {
                    case .success(let c):
                        if out["tokens"]?.intValue != c.tokens { return "tokens missing from \(result.jsonLine())" }
                    case .failure:
                        if out["line"]?.intValue != line.number || out["error"]?.stringValue == nil { return "bad error line \(result.jsonLine())" }
                    }
                }
            }
        } catch {
            return "reading memory failed: \(error)"
        }
        if got.count != expected.count { return "\(got.count) lines read, \(expected.count) expected" }
        for ((line, bytes), e) in zip(got, expected) {
            if line.number != e.number || line.byteOffset != e.offset { return "line \(line.number) at \(line.byteOffset), expected \(e.number) at \(e.offset)" }
            if let want = e.bytes {
                if line.skippedBytes != nil || bytes != Array(want) { return "line \(e.number): other bytes" }
            } else if line.skippedBytes != e.length {
                return "line \(e.number): skipped \(line.skippedBytes.map(String.init) ?? "nothing"), expected \(e.length) bytes"
            }
        }
        return nil
    }
}
