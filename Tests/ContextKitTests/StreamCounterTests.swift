import ContextKit
import Foundation
import Testing

/// Bytes served in small, uneven reads, like a pipe.
final class MemorySource: ByteSource {
    let bytes: [UInt8]
    var offset = 0
    var step = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        step = step % 997 + 13
        let n = min(buffer.count, bytes.count - offset, step)
        buffer.copyBytes(from: bytes[offset..<(offset + n)])
        offset += n
        return n
    }
}

@Suite struct StreamCounterTests {
    /// Many inputs in many small chunks, on several threads: the same counts,
    /// statistics and overflow points as counting each whole text at once.
    @Test(arguments: PieceBoundaryTests.encodings)
    func streamedEqualsWhole(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        var fuzz = TextFuzz(seed: 5)
        let texts = (0..<12).map { fuzz.text(fragments: $0 == 3 ? 0 : 300 + $0 * 500) }
        let limit = 700
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: 3, blockSize: 256)
        var outcomes: [Int: StreamCount] = [:]
        var order: [Int] = []
        counter.run(texts.map { text in StreamCounter.Input(limit: limit, refuseBinary: false) { MemorySource(text) } }) { i, outcome in
            order.append(i)
            if case .counted(let c) = outcome { outcomes[i] = c }
        }
        #expect(order == Array(0..<texts.count))
        for (i, text) in texts.enumerated() {
            let c = try #require(outcomes[i])
            try text.withUnsafeBufferPointer { whole throws in
                #expect(c.proxyTokens == tokenizer.count(utf8: whole))
                #expect(c.stats == TextStats(scanning: whole))
                let fit = try FitReport.measure(utf8: whole, tokenizer: tokenizer, budget: TokenBudget(window: limit))
                #expect(c.firstTokenPast == fit.firstTokenPast)
            }
        }
    }

    @Test func binaryInputStopsAtTheFirstNUL() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: 2, blockSize: 64)
        var bytes = Array(String(repeating: "text ", count: 100).utf8)
        bytes[321] = 0
        var result: StreamOutcome?
        counter.run([.init(limit: nil, refuseBinary: true) { MemorySource(bytes) }]) { _, outcome in result = outcome }
        guard case .binary(let offset) = result else { Issue.record("expected binary, got \(String(describing: result))"); return }
        #expect(offset == 321)
    }

    @Test func anInputThatCannotBeOpenedFailsAloneInItsPlace() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: 2)
        var results: [String] = []
        counter.run([
            .init(limit: nil, refuseBinary: true) { MemorySource(Array("one two".utf8)) },
            .init(limit: nil, refuseBinary: true) { try FileByteSource(path: "/nonexistent/file") },
            .init(limit: nil, refuseBinary: true) { MemorySource(Array("three".utf8)) },
        ]) { _, outcome in
            switch outcome {
            case .counted(let c): results.append("\(c.proxyTokens)")
            case .failed(let e): results.append("\(e)")
            case .binary: results.append("binary")
            }
        }
        #expect(results == ["2", "/nonexistent/file: No such file or directory", "1"])
    }

    /// A 16 MB text streamed in 64 KB blocks through four threads.
    @Test func bigInputStreamedInParallel() throws {
        let tokenizer = try Tokenizer.named("o200k_base")
        var fuzz = TextFuzz(seed: 99)
        var text: [UInt8] = []
        while text.count < 16 << 20 { text += fuzz.text(fragments: 10_000) }
        let serial = text.withUnsafeBufferPointer { tokenizer.count(utf8: $0) }
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: 4, blockSize: 1 << 16)
        var count: StreamCount?
        counter.run([.init(limit: nil, refuseBinary: false) { MemorySource(text) }]) { _, o in if case .counted(let c) = o { count = c } }
        #expect(count?.proxyTokens == serial)
        #expect(count?.stats.bytes == text.count)
    }
}

@Suite struct ChunkReaderTests {
    /// Memory stays bounded: every chunk is at most a block plus the stretch
    /// carried over from the previous block's last safe cut.
    @Test func chunksStayNearTheBlockSize() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        var fuzz = TextFuzz(seed: 21)
        var text: [UInt8] = []
        while text.count < 4 << 20 { text += fuzz.text(fragments: 5_000) }
        var reader = ChunkReader(source: MemorySource(text), boundary: PieceBoundary(tokenizer.preTokenizer), blockSize: 1 << 14)
        var total = 0, chunks = 0, largest = 0
        while let chunk = try reader.next() {
            defer { chunk.release() }
            total += chunk.count
            chunks += 1
            largest = max(largest, chunk.bytes.count)
        }
        #expect(total == text.count && chunks > 200)
        #expect(largest < 2 << 14)
    }

    /// Without a proven cut (a pattern run through ICU), the input is one chunk.
    @Test func noProvenCutMeansOneChunk() throws {
        let text = Array(String(repeating: "word ", count: 10_000).utf8)
        var reader = ChunkReader(source: MemorySource(text), boundary: nil, blockSize: 1 << 10)
        let chunk = try #require(try reader.next())
        #expect(chunk.count == text.count && chunk.isLast)
        chunk.release()
        #expect(try reader.next() == nil)
    }
}
