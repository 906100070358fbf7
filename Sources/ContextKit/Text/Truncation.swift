/// Where `truncate(_:to:at:)` may cut a text.
public enum TruncationBoundary: String, CaseIterable, Sendable {
    /// Between any two characters (never inside a UTF-8 sequence).
    case character
    /// Between grapheme clusters (never inside an emoji or a letter with its accents).
    case grapheme
    /// Before the spaces in front of a word.
    case word
    /// At the start of a line.
    case line

    var level: BoundaryLevel? {
        switch self {
        case .character: return nil
        case .grapheme: return .grapheme
        case .word: return .word
        case .line: return .line
        }
    }
}

/// The result of cutting a text to a number of tokens.
public struct Truncation: Equatable, Sendable {
    /// The prefix kept.
    public var text: String
    /// Its length in UTF-8 bytes.
    public var bytes: Int
    /// Its own token count (the prefix tokenized as a text of its own).
    public var tokens: Int
    /// Whether anything was cut.
    public var wasCut: Bool

    /// A truncation from its parts.
    public init(text: String, bytes: Int, tokens: Int, wasCut: Bool) {
        self.text = text
        self.bytes = bytes
        self.tokens = tokens
        self.wasCut = wasCut
    }
}

extension Tokenizer {
    /// The longest prefix of `text` whose own token count is at most `limit`,
    /// cut at a `boundary`: the first token past the limit says where to look;
    /// the cut moves back to a boundary that fits, then forward to the last
    /// boundary before that token's end that still fits. Every candidate is
    /// re-counted as a text of its own, never assumed.
    /// A `limit` of 0 or less keeps nothing.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does.
    public func truncate(
        _ text: String, to limit: Int, at boundary: TruncationBoundary = .character,
        allowedSpecial: SpecialTokenPolicy = .plainText
    ) throws -> Truncation {
        var text = text
        return try text.withUTF8 { bytes in
            func fits(_ end: Int) throws -> Int? {
                try count(utf8: UnsafeBufferPointer(rebasing: bytes[0..<end]), limit: max(limit, 0), allowedSpecial: allowedSpecial)
            }
            func result(_ end: Int, _ tokens: Int) -> Truncation {
                Truncation(text: String(decoding: bytes[0..<end], as: UTF8.self), bytes: end, tokens: tokens, wasCut: end < bytes.count)
            }
            if let all = try fits(bytes.count) { return result(bytes.count, all) }
            guard limit > 0 else { return result(0, 0) }
            let finder = BoundaryFinder(utf8: bytes, markdown: false)
            func isCharacterStart(_ p: Int) -> Bool { p == 0 || p == bytes.count || bytes[p] & 0xC0 != 0x80 }
            // The last boundary at or before p (0 when there is none).
            func back(_ p: Int) -> Int {
                guard let level = boundary.level else {
                    var p = p
                    while !isCharacterStart(p) { p -= 1 }
                    return p
                }
                return p < 1 ? 0 : finder.last(atLeast: level, in: 1...p, knownBoundary: 0)?.offset ?? 0
            }
            // The first boundary after p, or nil at the end of the text.
            func forward(_ p: Int) -> Int? {
                guard p + 1 < bytes.count else { return nil }
                switch boundary.level {
                case nil:
                    var q = p + 1
                    while !isCharacterStart(q) { q += 1 }
                    return q
                case .grapheme?:
                    let q = GraphemeBreaks.next(after: p, in: bytes.baseAddress!, count: bytes.count)
                    return q < bytes.count ? q : nil
                case let level?:
                    return finder.first(atLeast: level, in: (p + 1)...(bytes.count - 1))?.offset
                }
            }
            let past = try firstToken(utf8: bytes, allowedSpecial: allowedSpecial) { n, _ in n > limit }
            var end = back(past?.token.bytes.lowerBound ?? bytes.count)
            var tokens = try fits(end)
            while tokens == nil && end > 0 {
                end = back(end - 1)
                tokens = try fits(end)
            }
            // Counts are not monotonic inside a piece ("The lig" 2 tokens, "The ligh" 3,
            // "The light" 2), so every boundary up to the end of the token past the
            // limit is tried, and the last that fits wins.
            let horizon = past?.token.bytes.upperBound ?? bytes.count
            var probe = end
            while let next = forward(probe), next <= horizon {
                if let more = try fits(next) {
                    end = next
                    tokens = more
                }
                probe = next
            }
            return result(end, tokens ?? 0)
        }
    }
}
