@testable import ContextKit
import Foundation
import Testing
import TestSupport

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
    @Test(arguments: PieceBoundaryEncodings.all)
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

    /// A regular file read from disk counts as the same bytes read in small
    /// chunks: the counts, statistics and overflow points, including a file
    /// that ends inside a UTF-8 character, an empty file and a file with no
    /// safe cut at all.
    @Test(arguments: ["fuzz", "cut character", "empty", "one piece", "one byte"])
    func aFileCountsAsTheSameBytesInChunks(kind: String) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        var fuzz = TextFuzz(seed: 11)
        var bytes: [UInt8]
        switch kind {
        case "fuzz": bytes = fuzz.text(fragments: 3000)
        case "cut character": bytes = fuzz.text(fragments: 800) + Array("日本".utf8).dropLast(1)
        case "empty": bytes = []
        case "one piece": bytes = Array(repeating: UInt8(ascii: "x"), count: 5000)
        default: bytes = [0x41]
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("read-\(UUID().uuidString).txt")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        func count(_ open: @escaping () throws -> ByteSource) throws -> StreamCount {
            let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: 2, blockSize: 256)
            var result: StreamCount?
            counter.run([.init(limit: 500, refuseBinary: true, sizeHint: bytes.count, open: open)]) { _, outcome in
                if case .counted(let c) = outcome { result = c }
            }
            return try #require(result)
        }
        let file = try count { try FileByteSource(path: url.path) }
        let chunked = try count { MemorySource(bytes) }
        #expect(file.proxyTokens == chunked.proxyTokens)
        #expect(file.stats == chunked.stats)
        #expect(file.firstTokenPast == chunked.firstTokenPast)
        bytes.withUnsafeBufferPointer { #expect(file.proxyTokens == tokenizer.count(utf8: $0)) }
    }

    /// A file that ends before the size it had when opened (another process
    /// truncated it) is an error naming both sizes, not a smaller count.
    @Test func aFileThatShrinksWhileReadIsAnError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shrinks-\(UUID().uuidString).txt")
        try Data(repeating: UInt8(ascii: "a"), count: 10_000).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try FileByteSource(path: url.path)
        var buffer = [UInt8](repeating: 0, count: 4_000)
        #expect(try buffer.withUnsafeMutableBytes { try source.read(into: $0) } == 4_000)
        #expect(truncate(url.path, 6_000) == 0)
        #expect(try buffer.withUnsafeMutableBytes { try source.read(into: $0) } == 2_000)
        #expect(
            throws: InputError(
                path: url.path,
                reason: "the file shrank to 6,000 bytes while it was being counted (it had 10,000 bytes when opened); "
                    + "count it again once nothing is writing to it")
        ) {
            try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        }
    }

    /// `tokcount a.txt f b.txt` with `f` cut from 300 to 150 MB mid-run ended
    /// with SIGBUS when large files were first mapped, and a.txt and b.txt
    /// were lost. Here `f` (2 MiB) is cut in half once it is open and again
    /// after its first block, or, mapped (`FileMapping`'s guard), cut to
    /// 100,000 bytes as soon as it is mapped: its outcome is the error, and
    /// the inputs around it are counted.
    @Test(arguments: [false, true])
    func aFileTruncatedWhileCountedFailsAloneAndTheOthersAreCounted(mapped: Bool) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("truncated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let line = Array("a line of text that is counted while the file is cut short\n".utf8)
        let big = Array((0..<(2 << 20) / line.count + 1).lazy.flatMap { _ in line })
        let paths = ["a.txt", "f.txt", "b.txt"].map { dir.appendingPathComponent($0).path }
        try Data("before\n".utf8).write(to: URL(fileURLWithPath: paths[0]))
        try Data(big).write(to: URL(fileURLWithPath: paths[1]))
        try Data("after\n".utf8).write(to: URL(fileURLWithPath: paths[2]))

        /// Cuts the file to `sizes[k]` before its `k`th read.
        final class Truncating: ByteSource {
            let inner: FileByteSource
            let path: String
            var sizes: [Int: Int]
            var reads = 0
            let mapped: Bool
            init(path: String, sizes: [Int: Int], mapped: Bool) throws {
                inner = try FileByteSource(path: path)
                self.path = path
                self.sizes = sizes
                self.mapped = mapped
            }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                if let size = sizes[reads] { truncate(path, off_t(size)) }
                reads += 1
                return try inner.read(into: buffer)
            }
            func mapping(atLeast minimum: Int) -> FileMapping? {
                guard mapped else { return nil }
                let mapping = inner.mapping(atLeast: minimum)
                truncate(path, 100_000)
                return mapping
            }
        }
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: 2, blockSize: 64 << 10)
        var outcomes: [Int: StreamOutcome] = [:]
        counter.run(
            paths.enumerated().map { i, path in
                StreamCounter.Input(limit: nil, refuseBinary: true, sizeHint: i == 1 ? big.count : nil) {
                    i == 1
                        ? try Truncating(path: path, sizes: [0: 1 << 20, 1: 100_000], mapped: mapped) as ByteSource
                        : try FileByteSource(path: path)
                }
            }
        ) { i, outcome in outcomes[i] = outcome }
        guard case .counted(let before) = outcomes[0], case .counted(let after) = outcomes[2] else {
            Issue.record("a.txt and b.txt not both counted: \(outcomes)")
            return
        }
        #expect(before.proxyTokens == 2)
        #expect(after.proxyTokens == 2)
        guard case .failed(let error) = outcomes[1] else { Issue.record("f.txt: \(String(describing: outcomes[1]))"); return }
        #expect("\(error)".contains("f.txt: the file shrank to 100,000 bytes while it was being counted (it had 2,"), "\(error)")
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

    /// The NUL is found by whoever counts the chunk; the reader then stops
    /// within the few chunks in flight instead of reading the input to its end.
    @Test(arguments: [1, 2])
    func aBinaryInputIsNotReadToItsEnd(threads: Int) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: threads, blockSize: 256)
        var bytes = Array(String(repeating: "text ", count: 100_000).utf8)
        bytes[1_000] = 0
        let binary = MemorySource(bytes)
        var results: [String] = []
        counter.run([
            .init(limit: nil, refuseBinary: true) { binary },
            .init(limit: nil, refuseBinary: true) { MemorySource(Array("one two".utf8)) }
        ]) { _, outcome in
            switch outcome {
            case .counted(let c): results.append("\(c.proxyTokens)")
            case .failed(let e): results.append("\(e)")
            case .binary(let offset): results.append("binary at \(offset)")
            }
        }
        #expect(results == ["binary at 1000", "2"])
        #expect(binary.offset < 64 * 256, "read \(binary.offset) of \(bytes.count) bytes")
    }

    @Test func anInputThatCannotBeOpenedFailsAloneInItsPlace() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: 2)
        var results: [String] = []
        counter.run([
            .init(limit: nil, refuseBinary: true) { MemorySource(Array("one two".utf8)) },
            .init(limit: nil, refuseBinary: true) { try FileByteSource(path: "/nonexistent/file") },
            .init(limit: nil, refuseBinary: true) { MemorySource(Array("three".utf8)) }
        ]) { _, outcome in
            switch outcome {
            case .counted(let c): results.append("\(c.proxyTokens)")
            case .failed(let e): results.append("\(e)")
            case .binary: results.append("binary")
            }
        }
        #expect(results == ["2", "/nonexistent/file: No such file or directory", "1"])
    }

    /// Small inputs are read and counted by the workers, many to a job: in
    /// input order, each with its own count and overflow point, and one that
    /// cannot be opened, is binary or is larger than its size said ends alone
    /// in its place; on one thread and on several.
    @Test(arguments: [1, 3])
    func smallInputsCountedInBatchesKeepTheirOrderAndOutcomes(threads: Int) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        var fuzz = TextFuzz(seed: 31)
        // More inputs than a batch holds, so that batches follow batches.
        var texts = (0..<(StreamCounter.batchInputs * 2 + 7)).map { fuzz.text(fragments: $0 % 40) }
        texts[5] = []
        texts[9][texts[9].count / 2] = 0
        texts[70] = fuzz.text(fragments: 2_000)  // larger than its size hint says, read in several blocks
        let limit = 60
        let counter = StreamCounter(tokenizer: tokenizer, special: .plainText, estimate: nil, threads: threads, blockSize: 256)
        var outcomes: [(Int, StreamOutcome)] = []
        counter.run(
            texts.enumerated().map { i, text in
                StreamCounter.Input(limit: limit, refuseBinary: true, sizeHint: i == 70 ? 100 : text.count) { () throws -> ByteSource in
                    if i == 12 { return try FileByteSource(path: "/nonexistent/file") }
                    return MemorySource(text)
                }
            }
        ) { i, outcome in outcomes.append((i, outcome)) }
        #expect(outcomes.map(\.0) == Array(0..<texts.count))
        for (i, outcome) in outcomes {
            switch (i, outcome) {
            case (9, .binary(let offset)): #expect(offset == texts[9].count / 2)
            case (12, .failed(let error)): #expect("\(error)" == "/nonexistent/file: No such file or directory")
            case (_, .counted(let c)) where i != 9 && i != 12:
                try texts[i].withUnsafeBufferPointer { whole throws in
                    #expect(c.proxyTokens == tokenizer.count(utf8: whole), "input \(i)")
                    #expect(c.stats == TextStats(scanning: whole), "input \(i)")
                    let fit = try FitReport.measure(utf8: whole, tokenizer: tokenizer, budget: TokenBudget(window: limit))
                    #expect(c.firstTokenPast == fit.firstTokenPast, "input \(i)")
                }
            default: Issue.record("input \(i): unexpected \(outcome)")
            }
        }
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

    /// One pre-tokenizer piece as long as the input (8 MB of one letter, in
    /// 4 KB blocks): one chunk, with each byte tested as a cut once and moved
    /// into a bigger buffer twice at most (the doublings add up to less than
    /// twice the input). Growing the buffer by one block and rescanning it
    /// from the start would move and test about 8 GB each, a thousand times
    /// the input.
    @Test func oneGiantPieceIsReadInLinearWork() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20)
        var reader = ChunkReader(source: MemorySource(text), boundary: PieceBoundary(tokenizer.preTokenizer), blockSize: 1 << 12)
        let chunk = try #require(try reader.next())
        defer { chunk.release() }
        #expect(chunk.count == text.count && chunk.isLast)
        #expect(chunk.text.allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(reader.work.bytesMoved <= 2 * text.count, "moved \(reader.work.bytesMoved) bytes")
        #expect(reader.work.positionsTested <= text.count, "tested \(reader.work.positionsTested) positions")
        #expect(try reader.next() == nil)
    }

    /// A long stretch without a cut followed by text with cuts: the chunks
    /// after it go back to block size, and the counts add up.
    @Test func chunksShrinkAgainAfterALongPiece() throws {
        let tokenizer = try Tokenizer.named("o200k_base")
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20) + Array(String(repeating: "word ", count: 100_000).utf8)
        var reader = ChunkReader(source: MemorySource(text), boundary: PieceBoundary(tokenizer.preTokenizer), blockSize: 1 << 12)
        var sizes: [Int] = [], tokens = 0
        while let chunk = try reader.next() {
            defer { chunk.release() }
            sizes.append(chunk.bytes.count)
            tokens += tokenizer.count(utf8: chunk.text)
        }
        #expect(sizes[0] >= 1 << 20 && sizes.dropFirst().allSatisfy { $0 <= 2 << 12 })
        #expect(tokens == text.withUnsafeBufferPointer { tokenizer.count(utf8: $0) })
    }

    /// A line feed, then a multi-byte space whose first bytes end a block: the
    /// cut after the line feed is not safe (rule B needs the next character
    /// not to be whitespace), and must not be taken on the bytes read so far.
    /// Cutting there changed r50k's count of "x…x\n\u{A0}\nb" from 11 to 12.
    @Test(arguments: PieceBoundaryEncodings.all)
    func noCutBeforeASpaceSplitByTheBlockEnd(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        for space in ["\u{A0}", "\u{85}", "\u{3000}", "\u{2028}", "\u{1680}"] {
            for lead in 60...63 {
                let text = Array((String(repeating: "x", count: lead) + "\n" + space + "\nb").utf8)
                var reader = ChunkReader(source: MemorySource(text), boundary: PieceBoundary(tokenizer.preTokenizer), blockSize: 64)
                var tokens = 0
                while let chunk = try reader.next() {
                    defer { chunk.release() }
                    tokens += tokenizer.count(utf8: chunk.text)
                }
                let whole = text.withUnsafeBufferPointer { tokenizer.count(utf8: $0) }
                #expect(tokens == whole, "\(encoding), \(lead) x, U+\(String(space.unicodeScalars.first!.value, radix: 16))")
            }
        }
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
