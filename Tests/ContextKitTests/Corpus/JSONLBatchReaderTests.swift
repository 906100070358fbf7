@testable import ContextKit
import Foundation
import Testing

@Suite struct JSONLBatchReaderTests {
    func lines(_ text: String, maxLine: Int = 1 << 20, block: Int = 64, step: Int = 7) throws -> [(number: Int, offset: Int, text: String?, skipped: Int?)] {
        var reader = JSONLBatchReader(source: CorpusFuzzProperties.SteppedSource(Array(text.utf8), step: step), maxLineBytes: maxLine, blockSize: block)
        var out: [(Int, Int, String?, Int?)] = []
        while let batch = try reader.next() {
            #expect(!batch.lines.isEmpty)
            for line in batch.lines {
                out.append((line.number, line.byteOffset, line.skippedBytes == nil ? String(decoding: batch.bytes[line.range], as: UTF8.self) : nil, line.skippedBytes))
            }
        }
        return out
    }

    @Test func crlfLineEndsAndBlankLinesAndNoFinalFeed() throws {
        let got = try lines("{\"a\":1}\r\n\r\n  \n{\"b\":2}\r\n{\"c\":3}")
        #expect(got.map(\.number) == [1, 4, 5])
        #expect(got.map(\.offset) == [0, 14, 23])
        #expect(got.map(\.text) == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
    }

    @Test func anEmptyInputHasNoBatch() throws {
        #expect(try lines("").isEmpty)
        #expect(try lines("\n\r\n \n").isEmpty)
    }

    /// A line over the limit is skipped alone, however the reads fall, and the next line is read whole.
    @Test(arguments: [1, 3, 16, 1000])
    func aLineOverTheLimitIsRefusedAlone(step: Int) throws {
        let long = String(repeating: "x", count: 500)
        let got = try lines("{\"n\":1}\n\(long)\r\n{\"n\":3}\n\(long)", maxLine: 100, block: 32, step: step)
        #expect(got.map(\.number) == [1, 2, 3, 4])
        #expect(got.map(\.skipped) == [nil, 500, nil, 500])
        #expect(got.map(\.text) == ["{\"n\":1}", nil, "{\"n\":3}", nil])
        #expect(got[2].offset == 8 + 502)
    }

    @Test func aLineAtTheLimitIsKept() throws {
        let got = try lines("abcde\r\nabcdef\n", maxLine: 5, block: 4, step: 2)
        #expect(got.map(\.text) == ["abcde", nil])
        #expect(got.map(\.skipped) == [nil, 6])
    }

    /// Memory stays at a block plus the longest line kept: batches never hold more.
    @Test func batchesStaySmall() throws {
        let record = "{\"text\":\"" + String(repeating: "a b ", count: 250) + "\"}\n"
        let text = String(repeating: record, count: 2000)
        var reader = JSONLBatchReader(source: CorpusFuzzProperties.SteppedSource(Array(text.utf8), step: 4096), maxLineBytes: 2000, blockSize: 8192)
        var total = 0
        while let batch = try reader.next() {
            #expect(batch.bytes.count <= 8192 + 4096 + 2000)
            total += batch.lines.count
        }
        #expect(total == 2000)
    }
}
