import CPieceKernel
import Foundation
import TestSupport
import Testing
@testable import TokenKit

/// The piece kernel (`PieceKernel`, `CPieceKernel`): its cuts against the
/// scanners, its table, and its counts and ids against the encoder's, on
/// every tier.
/// The parity suites run on each tier too (`scripts/test` sets
/// `CONTEXTKIT_KERNEL`).
@Suite struct PieceKernelTests {
    /// Every tier this CPU runs (`vector` is one of them).
    static let tiers = PieceKernel.Tier.allCases.filter { $0 != .vector && $0.entries != nil }

    /// Texts aimed at the pattern's corners: `RandomText`'s (every script,
    /// contractions, whitespace of every kind), the same cut to ASCII, and
    /// invalid UTF-8.
    static func hostileTexts(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = RandomText(seed: seed)
        return (0..<count).map { k in
            let text = Array(random.text(maxPieces: 60).utf8)
            switch k % 3 {
            case 0: return text
            case 1: return text.filter { $0 < 0x80 }
            default: return text.map { random.int(40) == 0 ? UInt8(0x80 + random.int(128)) : $0 }
            }
        }
    }

    @Test("every tier cuts as the scanner does, for each pattern, and hands back only what a byte from 0x80 decides")
    func cutsAsTheScanner() {
        for text in Self.hostileTexts(count: 900, seed: 41) {
            if let problem = TokenKitFuzzProperties.pieceKernelCuts(text) {
                Issue.record("\(problem), text \(text)")
                return
            }
        }
    }

    @Test("ASCII text is counted to its end, with nothing handed back", arguments: tiers)
    func asciiIsNeverUndecided(_ tier: PieceKernel.Tier) throws {
        let text = Array(try String(contentsOf: TestRepository.root.appendingPathComponent("corpora/prose/en.txt"), encoding: .utf8).utf8.filter { $0 < 0x80 })
        var misses = [Int](repeating: 0, count: 2 * text.count)
        let r = TokenKitFuzzProperties.withEmptyTable { table in
            text.withUnsafeBufferPointer { t in
                misses.withUnsafeMutableBufferPointer { tier.entries!.count(&table, PiecePattern.cl100k.pattern, t.baseAddress, 0, t.count, .max, $0.baseAddress, text.count) }
            }
        }
        #expect(Int(r.stop) == Int(CK_COUNT_END))
        #expect(r.position == text.count)
        #expect(r.misses == text.withUnsafeBufferPointer { PreTokenizer.cl100k.pieces(of: $0).count })
    }

    @Test("the table keeps a piece once, four a set, its last way turned over once full, their ids, and nothing out of range", arguments: tiers)
    func tableKeepsFourASet(_ tier: PieceKernel.Tier) {
        let entries = tier.entries!
        // One set: every piece shares it.
        var sets = [ck_piece_set()]
        sets.withUnsafeMutableBufferPointer { sets in
            var table = ck_piece_table(sets: sets.baseAddress, set_bits: 0)
            let words = ["alpha", "beta", "gamma", "delta", "epsilon"].map { Array($0.utf8) }
            /// The tokens counted and the pieces missed, for `text` on its own.
            func count(_ text: [UInt8]) -> (tokens: Int, missed: Int) {
                var misses = [Int](repeating: 0, count: 2 * text.count + 2)
                let r = text.withUnsafeBufferPointer { t in
                    misses.withUnsafeMutableBufferPointer {
                        entries.count(&table, PiecePattern.cl100k.pattern, t.baseAddress, 0, t.count, .max, $0.baseAddress, text.count + 1)
                    }
                }
                return (r.tokens, r.misses)
            }
            /// The ids the encode entry writes for `text` on its own, or
            /// nil when it stops at its piece as missed.
            func encode(_ text: [UInt8]) -> [Int64]? {
                var ids = [Int64](repeating: -1, count: 8)
                let r = text.withUnsafeBufferPointer { t in
                    ids.withUnsafeMutableBufferPointer { entries.encode(&table, PiecePattern.cl100k.pattern, t.baseAddress, 0, t.count, .max, $0.baseAddress, $0.count) }
                }
                if Int(r.stop) == Int(CK_ENCODE_MISS) { return r.written == 0 && r.position == 0 && r.miss_end == text.count ? nil : [] }
                return Int(r.stop) == Int(CK_ENCODE_END) && r.position == text.count ? Array(ids.prefix(r.written)) : []
            }
            func keep(_ piece: [UInt8], _ tokens: UInt8, _ ids: [UInt32] = []) -> Int32 {
                ck_piece_table_keep(&table, piece, piece.count, tokens, ids + Array(repeating: 0, count: Int(CK_PIECE_TABLE_IDS)))
            }
            #expect(count(words[0]) == (0, 1))
            #expect(encode(words[0]) == nil)
            #expect(keep(words[0], 3, [7, 8, 9]) == 0)
            #expect(count(words[0]) == (3, 0))
            #expect(encode(words[0]) == [7, 8, 9])
            // Kept again: not a second copy (which would push a piece out).
            #expect(keep(words[0], 3, [1, 2, 3]) == 0)
            #expect(encode(words[0]) == [7, 8, 9])
            for (k, word) in words[1...3].enumerated() { #expect(keep(word, UInt8(k + 1), Array(100...UInt32(100 + k))) == 0) }
            #expect(count(words[3]) == (3, 0))
            #expect(encode(words[3]) == [100, 101, 102])
            #expect(encode(words[1]) == [100])
            // A fifth piece takes the last way, the oldest's: alpha. Seven
            // tokens: counted, but more than the table has ids for, so
            // encode misses it.
            #expect(keep(words[4], 7) == 1)
            #expect(count(words[0]) == (0, 1))
            #expect(count(words[4]) == (7, 0))
            #expect(encode(words[4]) == nil)
            #expect(count(words[1]) == (1, 0))
            #expect(encode(words[2]) == [100, 101])
            // The set is full: a sixth takes the last way again, and the
            // three before stay.
            let theta = Array("theta".utf8), aaab = Array("aaab".utf8)
            #expect(keep(theta, 1, [200]) == 1)
            #expect(count(words[4]) == (0, 1))
            #expect(encode(theta) == [200])
            #expect(encode(words[1]) == [100] && encode(words[2]) == [100, 101] && encode(words[3]) == [100, 101, 102])
            // One piece in 32, by its hash, takes the first way instead (so
            // that a new text's pieces still move in): "aaab" is one. The last
            // way's piece, theta, goes.
            #expect(keep(aaab, 2, [300, 301]) == 1)
            #expect(count(theta) == (0, 1))
            #expect(encode(aaab) == [300, 301])
            #expect(encode(words[1]) == [100] && encode(words[2]) == [100, 101] && encode(words[3]) == [100, 101, 102])
            // Out of range: no piece of 0 or 16 bytes, no count of 0 or 16.
            #expect(keep([], 1, [1]) == 0)
            #expect(keep(Array(repeating: UInt8(ascii: "a"), count: 16), 1, [1]) == 0)
            #expect(keep(Array("zeta".utf8), 0) == 0)
            #expect(keep(Array("zeta".utf8), 16) == 0)
            #expect(count(Array("zeta".utf8)) == (0, 1))
            #expect(count(aaab) == (2, 0))
            // A piece of 16 bytes or more is always handed back.
            let long = Array(repeating: UInt8(ascii: "b"), count: 40)
            #expect(count(long) == (0, 1))
            #expect(encode(long) == nil)
        }
    }

    @Test("the encode entry stops for room before it writes past it", arguments: tiers)
    func encodeStopsForRoom(_ tier: PieceKernel.Tier) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let text = Array("the cat sat on the mat and the dog sat on the log".utf8)
        let storage = try #require(PieceCache.Storage())
        var cache = storage.emptyCache
        let expected = text.withUnsafeBufferPointer { tokenizer.encodeOrdinary(utf8: $0) }
        // Learn every piece, then encode into room for 4 to 7 ids at a time.
        _ = text.withUnsafeBufferPointer { bytes in
            IDCollector.collect(expectedBytes: text.count) {
                cache.encode(
                    Cl100kScanner.self, kernel: tier.entries!.encode, pattern: .cl100k, UTF8Cursor(base: bytes.baseAddress!, end: bytes.count, table: .shared), from: 0,
                    with: tokenizer.encoder, into: &$0)
            }
        }
        var table = cache.kernelTable
        for capacity in 4...7 {
            var written: [Int] = []
            var i = 0
            var ids = [Int64](repeating: -1, count: capacity + 4)
            while i < text.count {
                let r = text.withUnsafeBufferPointer { t in
                    ids.withUnsafeMutableBufferPointer { tier.entries!.encode(&table, PiecePattern.cl100k.pattern, t.baseAddress, i, t.count, .max, $0.baseAddress, capacity) }
                }
                #expect(ids[capacity...].allSatisfy { $0 == -1 }, "wrote past room for \(capacity)")
                #expect(Int(r.stop) == Int(CK_ENCODE_END) || Int(r.stop) == Int(CK_ENCODE_FULL), "stopped for \(r.stop)")
                written += ids.prefix(r.written).map(Int.init)
                if r.position == i && Int(r.stop) != Int(CK_ENCODE_END) {
                    Issue.record("no progress at \(i)")
                    break
                }
                i = r.position
            }
            #expect(written == expected, "room for \(capacity)")
        }
    }

    /// Texts of 64 KB and more (the memo's least), each counted twice on one
    /// memo: English prose, code, every UDHR language joined (most pieces
    /// undecided), random hostile text, and random base64 (the table thrashes).
    static func longTexts() throws -> [(name: String, bytes: [UInt8])] {
        let root = TestRepository.root
        func file(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: root.appendingPathComponent(path))) }
        let prose = try ["en", "de", "fr", "es"].flatMap { try file("corpora/prose/\($0).txt") }
        let code = try ["py", "swift", "html", "json", "md"].flatMap { try file("corpora/code/sample.\($0)") }
        let udhr = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tests/Fixtures/udhr").path).sorted()
            .filter { $0.hasSuffix(".txt") }.prefix(60).flatMap { try file("Tests/Fixtures/udhr/\($0)") }
        let hostile = hostileTexts(count: 3_000, seed: 7).joined()
        return [
            ("prose", Array(repeating: prose, count: max(1, 70_000 / max(1, prose.count) + 1)).flatMap { $0 }),
            ("code", Array(repeating: code, count: max(1, 70_000 / max(1, code.count) + 1)).flatMap { $0 }),
            ("udhr", udhr), ("hostile", Array(hostile)), ("base64", PieceCacheThrashingTests.base64(bytes: 3 << 20, seed: 11))
        ]
    }

    @Test("every tier counts and encodes what the scanner's pieces encode to, call after call, for each pattern", arguments: tiers)
    func countsAsTheEncoder(_ tier: PieceKernel.Tier) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let patterns: [(PiecePattern, any PieceScanner.Type)] = [
            (.cl100k, Cl100kScanner.self), (.llama3, Llama3Scanner.self), (.qwen2, Qwen2Scanner.self), (.o200k, O200kScanner.self), (.tekken, TekkenScanner.self)
        ]
        for (name, text) in try Self.longTexts() {
            for (pattern, scanner) in patterns {
                #expect(try Self.check(tier, pattern, scanner, tokenizer, text) == nil, "\(tier), \(name)")
            }
        }
    }

    /// Counts and encodes `text` twice on one new memo through the kernel,
    /// and compares each count and the ids with the scanner's pieces encoded
    /// one by one.
    static func check<S: PieceScanner>(
        _ tier: PieceKernel.Tier, _ pattern: PiecePattern, _ scanner: S.Type, _ tokenizer: Tokenizer, _ text: [UInt8]
    ) throws -> String? {
        let storage = try #require(PieceCache.Storage())
        var cache = storage.emptyCache
        return text.withUnsafeBufferPointer { bytes -> String? in
            let cursor = UTF8Cursor(base: bytes.baseAddress!, end: bytes.count, table: .shared)
            var expected = (count: 0, ids: [Int]())
            var i = 0
            while i < bytes.count {
                let e = S.pieceEnd(cursor, from: i)
                expected.ids += IDCollector.collect(expectedBytes: e - i) { tokenizer.encoder.encode(bytes.baseAddress!, i, e, into: &$0) }
                i = e
            }
            expected.count = expected.ids.count
            for call in 1...2 {
                var counter = TokenCounter()
                cache.count(S.self, kernel: tier.entries!.count, pattern: pattern, cursor, from: 0, with: tokenizer.encoder, into: &counter)
                if counter.count != expected.count { return "call \(call): \(counter.count) tokens, the encoder \(expected.count)" }
                let ids = IDCollector.collect(expectedBytes: bytes.count) {
                    cache.encode(S.self, kernel: tier.entries!.encode, pattern: pattern, cursor, from: 0, with: tokenizer.encoder, into: &$0)
                }
                if ids != expected.ids {
                    let at = zip(ids, expected.ids).enumerated().first { $1.0 != $1.1 }?.offset ?? Swift.min(ids.count, expected.ids.count)
                    return "call \(call): encode's ids differ from the encoder's at token \(at) of \(expected.ids.count) (\(ids.count) ids)"
                }
            }
            return nil
        }
    }

    @Test("the tokenizer's count is its encode's length on long texts (the process's tier)")
    func tokenizerCountsWithTheKernel() throws {
        for name in ["cl100k_base", "o200k_base"] {
            let tokenizer = try Tokenizer.named(name)
            for (text, bytes) in try Self.longTexts() {
                let ids = bytes.withUnsafeBufferPointer { tokenizer.encodeOrdinary(utf8: $0) }
                for call in 1...2 {
                    #expect(bytes.withUnsafeBufferPointer { tokenizer.count(utf8: $0) } == ids.count, "\(name), \(text), call \(call)")
                }
            }
        }
    }
}
