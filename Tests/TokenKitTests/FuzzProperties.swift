import CPieceKernel
import Foundation
@testable import TokenKit

/// What must hold for every input, checked by the libFuzzer targets in
/// `scripts/fuzz` (which compile this file) and replayed by
/// `FuzzRegressionTests` on the inputs the fuzzer once broke. No `Testing`
/// import: the fuzzer builds it outside the test runner.
///
/// Each property returns nil when it holds, else what went wrong; a crash or a
/// hang inside is a finding too.
enum TokenKitFuzzProperties {
    // MARK: .tiktoken loader

    /// Any bytes given as a `.tiktoken` file: refused with the line named, or
    /// loaded into a vocabulary whose two indexes agree. When the bytes make a
    /// byte-level vocabulary for which `MergeTables.build` accepts the
    /// backtracking encoder, that encoder must merge exactly as the plain scan.
    static func tiktokenFile(_ bytes: [UInt8]) -> String? {
        let vocabulary: Vocabulary
        do {
            vocabulary = try bytes.withUnsafeBytes { try TiktokenFile.parse($0, path: "fuzz.tiktoken") }
        } catch let error as TokenKitError {
            guard case let .malformedVocabulary(_, line, reason) = error else { return "unexpected error \(error)" }
            let lines = bytes.count { $0 == 0x0A } + 1
            if line < 1 || line > lines { return "error names line \(line) of a \(lines)-line file: \(reason)" }
            return nil
        } catch {
            return "error of an unexpected type: \(error)"
        }
        var tokens = 0
        for id in 0..<vocabulary.idCount {
            guard let b = vocabulary.bytes(of: id) else { continue }
            tokens += 1
            if vocabulary.id(of: b.baseAddress!, count: b.count) != UInt32(id) { return "id \(id): bytes → id lookup gives another id" }
        }
        if tokens != vocabulary.tokenCount { return "\(tokens) ids have bytes, tokenCount says \(vocabulary.tokenCount)" }

        guard let plain = try? Tokenizer(name: "fuzz", vocabulary: vocabulary, preTokenizer: .r50k, specialTokens: [:]) else { return nil }
        let samples = [Array("hello world, hello worlds!".utf8), Array(bytes.prefix(64)), Array(bytes.suffix(200))]
        for sample in samples {
            let ids = sample.withUnsafeBufferPointer { plain.encodeOrdinary(utf8: $0) }
            guard let back = try? plain.decodeBytes(ids), back == sample else { return "custom vocabulary: decode(encode(b)) != b" }
        }
        guard let tables = MergeTables.build(for: vocabulary) else { return nil }
        let plainEncoder = BytePairEncoder(vocabulary: vocabulary)
        let backtracking = tables.encoder(for: vocabulary)
        for sample in samples where sample.count > 1 {
            let (scan, fast) = sample.withUnsafeBufferPointer { p in
                (
                    IDCollector.collect(expectedBytes: p.count) { plainEncoder.mergeByScan(p.baseAddress!, p.count, offset: 0, into: &$0) },
                    IDCollector.collect(expectedBytes: p.count) { backtracking.encode(p.baseAddress!, p.count, offset: 0, into: &$0) }
                )
            }
            if scan != fast { return "custom vocabulary accepted by MergeTables: backtracking \(fast) != merge scan \(scan)" }
        }
        return nil
    }

    // MARK: Pre-tokenizer scanners

    static let scanners: [(name: String, scanner: PreTokenizer, reference: PreTokenizer)] =
        [("cl100k", PreTokenizer.cl100k), ("o200k", .o200k), ("r50k", .r50k), ("tekken", .tekken)].map { ($0.0, $0.1, try! $0.1.reference()) }

    /// The hand-written scanners tile any bytes into pieces at character
    /// boundaries, and split valid text exactly as ICU runs their pattern
    /// (except around characters newer than Unicode 16.0, the version the
    /// scanners' classes and tiktoken follow; ICU is the platform's and may be newer).
    static func scannersMatchReference(_ bytes: [UInt8]) -> String? {
        let text = String(validating: bytes, as: UTF8.self)
        for (name, scanner, reference) in scanners {
            let pieces = bytes.withUnsafeBufferPointer { scanner.pieces(of: $0) }
            if let broken = tilingProblem(pieces, count: bytes.count) { return "\(name): \(broken)" }
            guard let text else { continue }
            if let cut = pieces.first(where: { $0.lowerBound < bytes.count && bytes[$0.lowerBound] & 0xC0 == 0x80 }) {
                return "\(name): piece \(cut) starts inside a character"
            }
            if hasCharacterNewerThanUnicode16(text) { continue }
            let expected = reference.pieces(of: text)
            if pieces != expected {
                let at = zip(pieces, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(pieces.count, expected.count)
                return "\(name): piece \(at) is \(at < pieces.count ? "\(pieces[at])" : "missing"), ICU says \(at < expected.count ? "\(expected[at])" : "nothing")"
            }
        }
        return nil
    }

    static func tilingProblem(_ pieces: [Range<Int>], count: Int) -> String? {
        var at = 0
        for p in pieces {
            if p.lowerBound != at || p.isEmpty { return "pieces do not tile: \(p) after \(at)" }
            at = p.upperBound
        }
        return at == count ? nil : "pieces end at \(at) of \(count) bytes"
    }

    /// Whether the text holds a character Unicode 16.0 did not have (as the
    /// Swift runtime's Unicode, which is newer, tells).
    static func hasCharacterNewerThanUnicode16(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            guard let age = scalar.properties.age else { return false }
            return age.major > 16 || (age.major == 16 && age.minor > 0)
        }
    }

    // MARK: Piece kernel

    /// The piece kernel's patterns with the scanner each must cut as.
    static let pieceKernelPatterns: [(name: String, pattern: PiecePattern, pieceEnd: @Sendable (UTF8Cursor, Int) -> Int)] = [
        ("cl100k", .cl100k, { Cl100kScanner.pieceEnd($0, from: $1) }),
        ("llama3", .llama3, { Llama3Scanner.pieceEnd($0, from: $1) }),
        ("qwen2", .qwen2, { Qwen2Scanner.pieceEnd($0, from: $1) }),
        ("o200k", .o200k, { O200kScanner.pieceEnd($0, from: $1) }),
        ("tekken", .tekken, { TekkenScanner.pieceEnd($0, from: $1) })
    ]

    /// Every tier of the piece kernel, for every pattern it takes, on any
    /// bytes (random, adversarial, invalid UTF-8): with a table that holds
    /// nothing, the count entry lists as missed exactly the pieces the
    /// scanner cuts, counts no token, and hands a piece back undecided only
    /// when a byte from 0x80 is where the pattern looks; with a pause, it
    /// stops at the first piece start at or past it. The encode entry stops
    /// at each of those pieces as missed, or undecided where the count entry
    /// is, and writes no id.
    static func pieceKernelCuts(_ bytes: [UInt8]) -> String? {
        for tier in PieceKernel.Tier.allCases where tier != .vector {
            guard let entries = tier.entries else { continue }
            for (name, pattern, pieceEnd) in pieceKernelPatterns {
                for pauseEvery in [Int.max, 1, 13] {
                    if let problem = countKernelCuts(bytes, entries.count, pattern, pieceEnd, pauseEvery: pauseEvery) {
                        return "\(tier) tier, \(name), count, pause every \(pauseEvery): \(problem)"
                    }
                }
                if let problem = encodeKernelCuts(bytes, entries, pattern, pieceEnd) {
                    return "\(tier) tier, \(name), encode: \(problem)"
                }
            }
        }
        return nil
    }

    /// A table of one set that is never written, for `body`: every probe misses.
    static func withEmptyTable<R>(_ body: (inout ck_piece_table) -> R) -> R {
        var emptySet = [ck_piece_set()]
        return emptySet.withUnsafeMutableBufferPointer { set in
            var table = ck_piece_table(sets: set.baseAddress, set_bits: 0)
            return body(&table)
        }
    }

    /// The encode entry on an empty table stops at each piece the count
    /// entry lists, missed, in turn, and where it hands one back undecided.
    static func encodeKernelCuts(
        _ bytes: [UInt8], _ entries: PieceKernel.Entries, _ pattern: PiecePattern, _ pieceEnd: (UTF8Cursor, Int) -> Int
    ) -> String? {
        withEmptyTable { table -> String? in
            var ids = [Int64](repeating: -1, count: 8)
            var misses = [Int](repeating: -1, count: 2)
            return bytes.withUnsafeBufferPointer { text -> String? in
                guard let base = text.baseAddress, !text.isEmpty else { return nil }
                let n = text.count
                let cursor = UTF8Cursor(base: base, end: n, table: .shared)
                var i = 0
                while i < n {
                    let r = ids.withUnsafeMutableBufferPointer { entries.encode(&table, pattern.pattern, base, i, n, .max, $0.baseAddress, $0.count) }
                    let counted = misses.withUnsafeMutableBufferPointer { entries.count(&table, pattern.pattern, base, i, n, .max, $0.baseAddress, 1) }
                    if r.written != 0 || ids.contains(where: { $0 != -1 }) { return "an empty table wrote \(r.written) ids from \(i)" }
                    if r.position != i { return "stopped at \(r.position), not at the piece at \(i)" }
                    switch Int(r.stop) {
                    case Int(CK_ENCODE_MISS):
                        let e = pieceEnd(cursor, i)
                        if r.miss_end != e { return "missed \(i)..<\(r.miss_end), the scanner cuts \(i)..<\(e)" }
                        if Int(counted.stop) == Int(CK_COUNT_UNDECIDED) && counted.position == i { return "the count entry hands \(i) back undecided" }
                        i = e
                    case Int(CK_ENCODE_UNDECIDED):
                        if Int(counted.stop) != Int(CK_COUNT_UNDECIDED) || counted.position != i {
                            return "handed \(i) back undecided; the count entry did not"
                        }
                        i = pieceEnd(cursor, i)
                    default:
                        return "stopped for \(r.stop) at \(i) with a piece left"
                    }
                }
                return nil
            }
        }
    }

    static func countKernelCuts(
        _ bytes: [UInt8], _ entry: PieceKernel.CountEntry, _ pattern: PiecePattern, _ pieceEnd: (UTF8Cursor, Int) -> Int,
        pauseEvery: Int
    ) -> String? {
        withEmptyTable { table -> String? in
            var misses = [Int](repeating: -1, count: 2 * bytes.count + 2)
            return bytes.withUnsafeBufferPointer { text -> String? in
                guard let base = text.baseAddress, !text.isEmpty else { return nil }
                let n = text.count
                let cursor = UTF8Cursor(base: base, end: n, table: .shared)
                var i = 0
                while i < n {
                    let pause = pauseEvery == .max ? Int.max : i + pauseEvery
                    let r = misses.withUnsafeMutableBufferPointer { entry(&table, pattern.pattern, base, i, n, pause, $0.baseAddress, bytes.count + 1) }
                    if r.tokens != 0 { return "an empty table counted \(r.tokens) tokens from \(i)" }
                    var at = i
                    for k in 0..<r.misses {
                        let (a, b) = (misses[2 * k], misses[2 * k + 1])
                        let e = pieceEnd(cursor, at)
                        if a != at || b != e { return "the kernel cut \(a)..<\(b), the scanner \(at)..<\(e)" }
                        at = e
                    }
                    if r.position != at { return "the kernel stopped at \(r.position) after listing pieces to \(at)" }
                    switch Int(r.stop) {
                    case Int(CK_COUNT_END):
                        if at != n { return "the kernel says the text ends at \(at) of \(n)" }
                    case Int(CK_COUNT_PAUSED):
                        // `pause` is past `i`, so the first piece was cut.
                        if at < pause || at == i { return "paused at \(at), for a pause at \(pause)" }
                        if r.misses > 0 && misses[2 * (r.misses - 1)] >= pause { return "cut a piece from \(misses[2 * (r.misses - 1)]), past the pause at \(pause)" }
                    case Int(CK_COUNT_UNDECIDED):
                        // The pattern looks at most at the piece, the byte after
                        // it (two after a word, for o200k's `'ſ`), and the rest
                        // of a whitespace run.
                        let e = pieceEnd(cursor, at)
                        var look = Swift.min(n, e + (e < n && bytes[e] == UInt8(ascii: "'") ? 2 : 1))
                        while look < n && [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20].contains(bytes[look - 1]) { look += 1 }
                        if !bytes[at..<look].contains(where: { $0 >= 0x80 }) {
                            return "handed back \(at)..<\(e) undecided, but \(at)..<\(look) is ASCII"
                        }
                        at = e
                    default:
                        return "stopped for \(r.stop) with room for every piece"
                    }
                    i = at
                }
                return nil
            }
        }
    }

    // MARK: Encoding

    /// Each built-in encoding twice: as shipped (long pieces through the
    /// backtracking encoder) and parsed from its file without merge tables
    /// (tiktoken's scan, and the heap for long pieces).
    static let tokenizers: [(shipped: Tokenizer, plain: Tokenizer)] = OpenAIEncoding.withOwnRanks.map { encoding in
        let shipped = try! encoding.tokenizer()
        let vocabulary = try! TiktokenFile.load(contentsOf: encoding.resourceURL!)
        let plain = try! Tokenizer(
            name: encoding.rawValue, vocabulary: vocabulary, preTokenizer: encoding.preTokenizer,
            specialTokens: encoding.specialTokens)
        return (shipped, plain)
    }

    /// For every encoding and any bytes: decode(encode(b)) == b, and the
    /// backtracking encoder gives the ids of tiktoken's merge. For one encoding
    /// (chosen by the first byte, to keep the fuzzer fast): the count, the
    /// token list and a slice agree with the ids, the heap merge matches the
    /// scan, and for valid UTF-8 the String API round-trips with and without
    /// special tokens.
    static func roundTrip(_ bytes: [UInt8]) -> String? {
        let chosen = Int(bytes.first ?? 0) % tokenizers.count
        for (index, (shipped, plain)) in tokenizers.enumerated() {
            let name = shipped.name
            let (ids, plainIDs) = bytes.withUnsafeBufferPointer { (shipped.encodeOrdinary(utf8: $0), plain.encodeOrdinary(utf8: $0)) }
            guard let decoded = try? shipped.decodeBytes(ids) else { return "\(name): encode gave an id decode does not know" }
            if decoded != bytes { return "\(name): decode(encode(b)) != b" }
            if plainIDs != ids { return "\(name): backtracking encoder \(ids) != merge scan/heap \(plainIDs)" }
            guard index == chosen else { continue }
            let (count, tokens) = bytes.withUnsafeBufferPointer { (shipped.count(utf8: $0), try? shipped.tokens(utf8: $0, allowedSpecial: .plainText)) }
            if count != ids.count { return "\(name): count \(count) but encode gives \(ids.count) ids" }
            guard let tokens else { return "\(name): tokens(.plainText) threw" }
            if tokens.map(\.id) != ids { return "\(name): tokens() ids differ from encode()" }
            if let broken = tilingProblem(tokens.map(\.bytes), count: bytes.count) { return "\(name): token ranges: \(broken)" }
            if let problem = heapMatchesScan(plain, bytes) { return "\(name): \(problem)" }
            if let problem = sliceMatchesCopy(shipped, bytes) { return "\(name): \(problem)" }
            if let text = String(validating: bytes, as: UTF8.self), let problem = stringRoundTrip(shipped, text) {
                return "\(name): \(problem)"
            }
        }
        return nil
    }

    /// tiktoken's quadratic scan and the heap merge give the same parts for
    /// every piece (up to a length where the scan stays fast enough to fuzz).
    static func heapMatchesScan(_ tokenizer: Tokenizer, _ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { p -> String? in
            for piece in tokenizer.preTokenizer.pieces(of: p) where (2...256).contains(piece.count) {
                let scan = IDCollector.collect(expectedBytes: piece.count) {
                    tokenizer.encoder.mergeByScan(p.baseAddress! + piece.lowerBound, piece.count, offset: 0, into: &$0)
                }
                let heap = IDCollector.collect(expectedBytes: piece.count) {
                    tokenizer.encoder.mergeByHeap(p.baseAddress! + piece.lowerBound, piece.count, offset: 0, into: &$0)
                }
                if scan != heap { return "piece \(piece): merge heap \(heap) != merge scan \(scan)" }
            }
            return nil
        }
    }

    /// `forEachToken(from:to:)` tokenizes the middle third as a text of its own.
    static func sliceMatchesCopy(_ tokenizer: Tokenizer, _ bytes: [UInt8]) -> String? {
        let from = bytes.count / 3, to = bytes.count * 2 / 3
        var sliceTokens: [Token] = []
        bytes.withUnsafeBufferPointer { p in tokenizer.forEachToken(utf8: p, from: from, to: to) { sliceTokens.append($0) } }
        let copyIDs = Array(bytes[from..<to]).withUnsafeBufferPointer { tokenizer.encodeOrdinary(utf8: $0) }
        if sliceTokens.map(\.id) != copyIDs { return "forEachToken(from: \(from), to: \(to)) differs from encoding the copied slice" }
        if let broken = tilingProblem(sliceTokens.map { ($0.bytes.lowerBound - from)..<($0.bytes.upperBound - from) }, count: to - from) {
            return "forEachToken ranges: \(broken)"
        }
        return nil
    }

    static func stringRoundTrip(_ tokenizer: Tokenizer, _ text: String) -> String? {
        let ids = tokenizer.encodeOrdinary(text)
        guard let decoded = try? tokenizer.decode(ids), decoded == text else { return "decode(encodeOrdinary(s)) != s" }
        if tokenizer.count(text) != ids.count { return "count(s) != encodeOrdinary(s).count" }
        guard let withSpecials = try? tokenizer.encode(text, allowedSpecial: .all) else { return "encode(.all) threw" }
        guard let back = try? tokenizer.decode(withSpecials), back == text else { return "decode(encode(s, .all)) != s" }
        let hasSpecial = tokenizer.specialTokens.keys.contains { text.utf8.count >= $0.utf8.count && text.contains($0) }
        let refused = (try? tokenizer.encode(text, allowedSpecial: .none)) == nil
        if refused != hasSpecial { return hasSpecial ? "special token text was not refused" : "text without a special token was refused" }
        return nil
    }
}
