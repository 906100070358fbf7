import Foundation
import TestSupport
import Testing
@testable import TokenKit

extension OpenModels {
    /// Texts of 64 KB or more go through `PieceCache`; these compare such
    /// texts, encoded whole, with the reference library of each kind of open
    /// model (`Tests/Fixtures/sentencepiece/reference.py`). The OpenAI
    /// encodings' long texts are compared with tiktoken in
    /// `LiveTiktokenDifferentialTests.longTexts`.
    @Suite struct PieceCacheTests {
        /// Every UDHR text joined (6 MB, many scripts: most pieces are new and
        /// evict one another), and the first 20 joined five times over (the
        /// same pieces again: most are hits).
        static func writeLongFiles(into folder: TempDir) throws -> [String] {
            let texts = OpenModelFixtures.udhrTexts.map(\.text)
            try #require(texts.count >= 20, "the UDHR texts in Tests/Fixtures/udhr are missing")
            let repeated = Array(repeating: texts.prefix(20).joined(separator: "\n"), count: 5).joined(separator: "\n\n")
            return [
                try folder.write("udhr-all.txt", texts.joined(separator: "\n")),
                try folder.write("udhr-20-five-times.txt", repeated)
            ]
        }

        static let models: [(kind: String, path: String)] = [
            ("sentencepiece", TestRepository.fixtures.appendingPathComponent("sentencepiece/botchan_en_bpe_1000.model").path),
            ("sentencepiece", TestRepository.fixtures.appendingPathComponent("sentencepiece/kyoto_ja_unigram_8000.model").path),
            ("tokenizers", TestRepository.fixtures.appendingPathComponent("sentencepiece/botchan_en_unigram_1000.tokenizer.json").path),
            ("tokenizers", TestRepository.fixtures.appendingPathComponent("wordpiece/all-minilm-l6-v2/tokenizer.json").path),
            ("tokenizers", OpenModelFixtures.hfFolder.appendingPathComponent("qwen3.tokenizer.json").path),
            ("tokenizers", OpenModelFixtures.hfFolder.appendingPathComponent("claude-legacy.tokenizer.json").path)
        ]

        @Test(
            "long texts, encoded through the piece memo, give the reference library's ids",
            .enabled(if: PythonPeer.python != nil || TestRepository.isCI, "Python peers not installed: run scripts/python-env"),
            arguments: models.map(\.path))
        func longTextsMatchTheReference(_ path: String) throws {
            let folder = try TempDir()
            let files = try Self.writeLongFiles(into: folder)
            for file in files {
                let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
                #expect(size >= PieceCache.minimumText, "\(file) is too short to reach the piece memo")
            }
            let kind = try #require(Self.models.first { $0.path == path }).kind
            let output = try PythonPeer.run(script: "Tests/Fixtures/sentencepiece/reference.py", arguments: [kind, path] + files)
            let decoder = JSONDecoder()
            let cases = try output.split(separator: UInt8(ascii: "\n"))
                .map { try decoder.decode(SentencePieceModelTests.Case.self, from: Data($0)) }
                .filter { $0.path != nil }
            try #require(cases.count == files.count)
            let tokenizer = try Tokenizer.load(contentsOf: URL(fileURLWithPath: path))
            let (summary, failures) = try SentencePieceModelTests.compare(tokenizer, cases, name: "long texts, \(URL(fileURLWithPath: path).lastPathComponent)")
            print(summary)
            #expect(failures.isEmpty, "\(failures)")
        }
    }
}

/// When a tokenizer's pool lends a memo, and when it makes one.
@Suite struct PieceCachePoolTests {
    @Test("a short text alone gets no memo; short texts that add up to minimumText get one, which later texts share")
    func shortTextsGetAMemoOnceTheyAddUp() throws {
        let pool = PieceCache.Pool()
        let quarter = PieceCache.minimumText / 4
        for _ in 0..<3 { #expect(pool.take(textBytes: quarter) == nil) }
        let lease = try #require(pool.take(textBytes: quarter), "four quarters of minimumText made no memo")
        pool.giveBack(lease)
        #expect(pool.take(textBytes: 1) != nil, "the memo made for the short texts was not kept")
    }

    @Test("a thread gets back the memo it gave back, though another thread gave one back since")
    func aThreadGetsItsOwnMemoBack() throws {
        let pool = PieceCache.Pool()
        let mine = try #require(pool.take(textBytes: PieceCache.minimumText))
        let holding = DispatchSemaphore(value: 0), mineIsBack = DispatchSemaphore(value: 0), theirsIsBack = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var theirs: PieceCache.Storage?
        let other = Thread {
            // A second memo, taken while this thread holds the first and given back after it.
            let lease = pool.take(textBytes: PieceCache.minimumText)
            theirs = lease?.storage
            holding.signal()
            mineIsBack.wait()
            if let lease { pool.giveBack(lease) }
            theirsIsBack.signal()
        }
        other.start()
        holding.wait()
        pool.giveBack(mine)
        mineIsBack.signal()
        theirsIsBack.wait()
        let taken = try #require(pool.take(textBytes: 1))
        #expect(theirs != nil && theirs !== mine.storage)
        #expect(taken.storage === mine.storage, "lent the memo the other thread gave back last")
    }

    @Test("a long text gets a memo at once")
    func aLongTextGetsAMemo() {
        #expect(PieceCache.Pool().take(textBytes: PieceCache.minimumText) != nil)
        #expect(PieceCache.Pool().take(textBytes: PieceCache.minimumText - 1) == nil)
    }
}

/// The memo's long table, driven directly: its ids against the encoder's own
/// for every piece, across calls and across a full arena.
@Suite struct PieceCacheLongTableTests {
    /// Runs of 6 to 60 CJK ideographs (18 to 180 bytes: long pieces to
    /// cl100k), nearly all distinct, between commas and newlines.
    static func ideographRuns(bytes: Int, seed: UInt64) -> [UInt8] {
        var numbers = TextFuzz(seed: seed)
        var text = ""
        text.reserveCapacity(bytes)
        while text.utf8.count < bytes {
            for _ in 0..<(6 + numbers.next() % 55) { text.unicodeScalars.append(ideograph(&numbers)) }
            text += numbers.next() % 4 == 0 ? "\n" : "，"
        }
        return Array(text.utf8)
    }

    /// A CJK ideograph, U+4E00 to U+9DFF, from the tests' seeded numbers.
    static func ideograph(_ numbers: inout TextFuzz) -> Unicode.Scalar {
        Unicode.Scalar(0x4E00 + UInt32(numbers.next() % 0x5000))!
    }

    struct Token: Equatable { var id: UInt32, start: Int, end: Int }
    struct Collector: TokenSink {
        var tokens: [Token] = []
        mutating func token(_ id: UInt32, start: Int, end: Int) { tokens.append(Token(id: id, start: start, end: end)) }
    }

    /// Every piece through the encoder alone, and through `cache`.
    static func encode(_ text: [UInt8], _ tokenizer: Tokenizer, _ cache: inout PieceCache) -> (direct: [Token], memo: [Token]) {
        text.withUnsafeBufferPointer { bytes in
            var direct = Collector(), memo = Collector()
            tokenizer.preTokenizer.forEachPiece(in: bytes, from: 0, to: bytes.count) { a, b in
                tokenizer.encoder.encode(bytes.baseAddress!, a, b, into: &direct)
                cache.encode(tokenizer.encoder, bytes.baseAddress!, a, b, readableTo: bytes.count, into: &memo)
            }
            return (direct.tokens, memo.tokens)
        }
    }

    /// Runs `body` with cl100k and a new memo, kept alive until it returns.
    static func withNewMemo(_ body: (Tokenizer, inout PieceCache) throws -> Void) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let storage = try #require(PieceCache.Storage())
        var cache = storage.emptyCache
        try withExtendedLifetime(storage) { try body(tokenizer, &cache) }
    }

    @Test("a text seen in an earlier call replays its long pieces: the same ids, and next to nothing stored again")
    func longPiecesOutliveTheCall() throws {
        try Self.withNewMemo { tokenizer, cache in
            let text = Self.ideographRuns(bytes: 1 << 20, seed: 1)
            let first = Self.encode(text, tokenizer, &cache)
            #expect(first.memo == first.direct)
            let stored = (cache.bytesUsed, cache.tokensUsed)
            #expect(stored.0 > 900_000, "the text's long pieces were not stored: \(stored.0) bytes")
            let again = Self.encode(text, tokenizer, &cache)
            #expect(again.memo == again.direct)
            // A set holds four pieces, so the few that met four others in their
            // set were evicted and are stored again; entries that lived for one
            // call would all be.
            #expect(cache.generation == 1, "the arenas filled: this text is meant to fit them")
            let storedAgain = cache.bytesUsed - stored.0
            #expect(storedAgain * 50 < stored.0, "the second pass stored \(storedAgain) of \(stored.0) bytes again")
        }
    }

    @Test("a long set that two more pieces share than it has ways keeps all but its last way's from pass to pass")
    func aFullLongSetKeepsAllButItsLastWay() throws {
        try Self.withNewMemo { tokenizer, cache in
            // Runs of eight ideographs (24 bytes, one long piece each), until
            // two more than a set's ways share a set of the long table.
            let crowd = PieceCache.longWays + 2
            var numbers = TextFuzz(seed: 7)
            var bySet: [Int: [[UInt8]]] = [:]
            var shared: [[UInt8]] = []
            while shared.isEmpty {
                var run = ""
                for _ in 0..<8 { run.unicodeScalars.append(Self.ideograph(&numbers)) }
                let bytes = Array(run.utf8)
                let set = bytes.withUnsafeBufferPointer { PieceCache.longSet(Vocabulary.hash($0.baseAddress!, $0.count)) }
                bySet[set, default: []].append(bytes)
                if bySet[set]!.count == crowd { shared = bySet[set]! }
            }
            let text = shared.flatMap { $0 + Array("\n".utf8) }
            let first = Self.encode(text, tokenizer, &cache)
            #expect(first.memo == first.direct)
            #expect(cache.misses == crowd, "each run is one long piece, missed once")
            let again = Self.encode(text, tokenizer, &cache)
            #expect(again.memo == again.direct)
            // Pushed down in turn, each would be gone before it came again:
            // every one missed on every pass. The set keeps all but its last
            // way's, and the three pieces that share that way miss.
            #expect(cache.misses - crowd == 3, "the second pass missed \(cache.misses - crowd) of \(crowd)")
        }
    }

    @Test("when the arenas fill, a new generation starts and no id changes, before or after")
    func fullArenasStartANewGeneration() throws {
        try Self.withNewMemo { tokenizer, cache in
            // Half again the byte arena: the first pass fills it and starts over,
            // the second meets entries of both generations' texts.
            let text = Self.ideographRuns(bytes: PieceCache.longByteCapacity * 3 / 2, seed: 2)
            for pass in 1...2 {
                let (direct, memo) = Self.encode(text, tokenizer, &cache)
                #expect(memo == direct, "pass \(pass): the memo changed an id")
            }
            #expect(cache.generation >= 3, "the arenas never filled: generation \(cache.generation)")
        }
    }
}

@Suite struct PieceCacheThrashingTests {
    /// Random base64 (`bench/corpora.py`'s adversarial kind): nearly every
    /// piece of three or more bytes is new, so past the first megabyte the
    /// memo thrashes and the scan loop sends stretches of pieces straight to
    /// the encoder (`PieceCache.isThrashing`).
    static func base64(bytes: Int, seed: UInt64) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var numbers = TextFuzz(seed: seed)
        return (0..<bytes).map { _ in alphabet[Int(numbers.next() >> 58)] }
    }

    @Test("a text that thrashes the memo gives the encoder's ids, in every call, memo or not", arguments: ["cl100k_base", "o200k_base"])
    func thrashingTextKeepsItsIDs(_ name: String) throws {
        let tokenizer = try Tokenizer.named(name)
        let text = Self.base64(bytes: 3 << 20, seed: 7)
        let direct: [Int] = text.withUnsafeBufferPointer { bytes in
            var ids = PieceCacheLongTableTests.Collector()
            tokenizer.preTokenizer.forEachPiece(in: bytes, from: 0, to: bytes.count) { a, b in
                tokenizer.encoder.encode(bytes.baseAddress!, a, b, into: &ids)
            }
            return ids.tokens.map { Int($0.id) }
        }
        for call in 1...3 {
            let ids = text.withUnsafeBufferPointer { tokenizer.encodeOrdinary(utf8: $0) }
            #expect(ids == direct, "call \(call): \(ids.count) ids against \(direct.count)")
            #expect(text.withUnsafeBufferPointer { tokenizer.count(utf8: $0) } == direct.count, "call \(call)")
        }
    }
}
