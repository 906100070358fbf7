/// Random texts that exercise every pre-tokenizer branch near a cut: spaces,
/// line breaks (LF, CRLF, lone CR), Unicode whitespace, contractions, digits,
/// punctuation, `/` (o200k's suffix), CJK, combining marks, emoji, special
/// tokens and invalid UTF-8.
public struct TextFuzz {
    public static let fragments: [[UInt8]] =
        [
            "hello", " world", "  ", "   ", "\n", "\n\n", "\r\n", "\r", "\t", " \n", "\n ", "'s", "'LL", "'ſ", "don't", "I'M",
            "123456", " 42", "3.14", "!!", "?!\n", ".\n", "/", "//", " /", "\u{00A0}", "\u{3000}", "\u{2028}", "\u{0085}", "\u{1680}",
            "日本語", "、", "。", "한국어", "Ελληνικά", "e\u{0301}", "\u{0301}", "😀", "<|endoftext|>", "x", " ", "A", "ABC", "aBc",
            "CamelCase", "ÀÉÎ", "ǅ", "_", "-", "(", ")", "$", "\u{FF10}"
        ].map { Array($0.utf8) } + [[0xFF], [0xE3, 0x81], [0xC0, 0x80], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]]

    public var state: UInt64

    public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

    public mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    public mutating func text(fragments count: Int) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<count { out += Self.fragments[Int(next() % UInt64(Self.fragments.count))] }
        return out
    }
}
