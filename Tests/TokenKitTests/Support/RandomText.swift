/// Seeded random texts aimed at the corners of pre-tokenizer patterns and
/// normalizers: contractions, mixed scripts, marks, digits of many kinds,
/// every sort of whitespace, runs of each.
struct RandomText {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }

    static let pools: [[String]] = [
        "abcdefghijklmnopqrstuvwxyz".map(String.init),
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init),
        "0123456789".map(String.init),
        [" ", " ", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{3000}", "\u{2028}"],
        ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'LL", "'ſ", "'", "\u{2019}s"],
        "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~".map(String.init),
        ["¡", "¿", "«", "»", "–", "—", "…", "•", "·", "、", "。", "「", "」", "！", "？", "§", "©", "€", "£", "→", "≤", "∞", "‘", "“"],
        ["é", "ü", "ñ", "ß", "ø", "Å", "æ", "œ", "ş", "ğ", "ı", "ł", "Ω", "λ", "Σ", "д", "Ж", "ǅ", "ᾈ", "ʰ", "ª"],
        ["中", "文", "字", "日", "本", "語", "の", "テ", "キ", "ス", "ト", "한", "국", "어", "ภ", "า", "ษ", "ا", "ل", "ع", "ह", "ि", "न", "्", "द"],
        ["\u{301}", "\u{308}", "\u{323}", "\u{93C}", "\u{94D}", "\u{64B}", "\u{5B0}", "\u{E31}", "\u{20DD}", "\u{1161}", "\u{11A8}", "\u{1100}"],
        ["١", "٢", "३", "๔", "５", "²", "½", "Ⅻ", "①", "〇", "𝟏"],
        ["ﬁ", "Ａ", "ｶ", "㎏", "™", "…", "Ǆ", "ﾟ", "ℌ", "Å", "Ω", "K", "ǈ", "㈱", "⑴"],
        ["😀", "👍🏽", "❤️", "👨‍👩‍👧", "🇫🇷", "1️⃣", "🫠", "\u{FEFF}", "\u{200B}", "\u{200D}"],
        ["<|endoftext|>", "<think>", "[PAD151646]", "<s>", "▁", "<0x0A>"]
    ]

    /// A text of up to `maxPieces` random pieces, some repeated into runs.
    mutating func text(maxPieces: Int = 24) -> String {
        var out = ""
        for _ in 0..<(1 + int(maxPieces)) {
            let piece = pick(pick(Self.pools))
            out += int(6) == 0 ? String(repeating: piece, count: 2 + int(5)) : piece
        }
        return out
    }
}
