/// How a tokenizer splits text into pieces before byte-pair merging.
public enum PreTokenizer: Sendable {
    /// cl100k_base's pattern, by a hand-written scanner.
    case cl100k
    /// o200k_base's pattern, by a hand-written scanner.
    case o200k
    /// r50k_base / p50k_base / GPT-2's pattern, by a hand-written scanner.
    case r50k
    /// Mistral's tekken pattern (Mistral NeMo and later): o200k's without the
    /// contraction suffixes and with one digit a piece, by a hand-written scanner.
    case tekken
    /// Any pattern, through ICU: the reference, and the path for patterns without a scanner.
    case regex(RegexPreTokenizer)

    /// The pattern each scanner implements, exactly as tiktoken 0.14 writes it.
    public var pattern: String {
        switch self {
        case .cl100k: return #"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"#
        case .o200k:
            return [
                #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"#,
                #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"#,
                #"\p{N}{1,3}"#,
                #" ?[^\s\p{L}\p{N}]+[\r\n/]*"#,
                #"\s*[\r\n]+"#,
                #"\s+(?!\S)"#,
                #"\s+"#
            ].joined(separator: "|")
        case .r50k: return #"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"#
        case .tekken:
            // As mistral-common's tekken_240718.json and tekken_240911.json write it.
            return [
                #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"#,
                #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"#,
                #"\p{N}"#,
                #" ?[^\s\p{L}\p{N}]+[\r\n/]*"#,
                #"\s*[\r\n]+"#,
                #"\s+(?!\S)"#,
                #"\s+"#
            ].joined(separator: "|")
        case .regex(let r): return r.pattern
        }
    }

    /// The same split run through ICU, for checking a scanner against its pattern.
    package func reference() throws -> PreTokenizer {
        if case .regex = self { return self }
        return .regex(try RegexPreTokenizer(pattern: pattern))
    }

    /// Byte ranges (offsets into `text.utf8`) of the pieces of `text`, in
    /// order, tiling it.
    public func pieces(of text: String) -> [Range<Int>] {
        var text = text
        return text.withUTF8 { pieces(of: $0) }
    }

    /// Byte ranges of the pieces of a UTF-8 buffer, in order, tiling it.
    public func pieces(of bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        forEachPiece(in: bytes, from: 0, to: bytes.count) { result.append($0..<$1) }
        return result
    }

    /// Calls `body(start, end)` for each piece of `bytes[from..<to]`.
    @inlinable
    func forEachPiece(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, _ body: (Int, Int) -> Void) {
        guard from < to, let base = bytes.baseAddress else { return }
        let cursor = UTF8Cursor(base: base, end: to, table: .shared)
        switch self {
        case .cl100k: Self.scan(Cl100kScanner.self, cursor, from, body)
        case .o200k: Self.scan(O200kScanner.self, cursor, from, body)
        case .r50k: Self.scan(R50kScanner.self, cursor, from, body)
        case .tekken: Self.scan(TekkenScanner.self, cursor, from, body)
        case .regex(let regex):
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
            for r in regex.matches(in: text) { body(from + r.lowerBound, from + r.upperBound) }
        }
    }

    @inlinable @inline(__always)
    static func scan<S: PieceScanner>(_ scanner: S.Type, _ cursor: UTF8Cursor, _ from: Int, _ body: (Int, Int) -> Void) {
        var i = from
        while i < cursor.end {
            let e = S.pieceEnd(cursor, from: i)
            body(i, e)
            i = e
        }
    }
}
