/// The character classes of Hugging Face `tokenizers`' BERT normalizer and
/// pre-tokenizer, as that library has them (see `BertCharacterTables.swift`
/// and `scripts/generate-bert-tables.py` for why they are tables and not the
/// build's Unicode source).
enum BertCharacters {
    /// Inclusive code point ranges, sorted, searched by bisection.
    struct RangeSet: Sendable {
        private let lows: [UInt32]
        private let highs: [UInt32]

        init(_ data: String) {
            var lows: [UInt32] = [], highs: [UInt32] = []
            for line in data.split(separator: "\n") {
                let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
                lows.append(fields[0])
                highs.append(fields.count > 1 ? fields[1] : fields[0])
            }
            self.lows = lows
            self.highs = highs
        }

        @inline(__always)
        func contains(_ c: UInt32) -> Bool {
            var lo = 0, hi = lows.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if lows[mid] <= c { lo = mid + 1 } else { hi = mid }
            }
            return lo > 0 && c <= highs[lo - 1]
        }
    }

    static let removed = RangeSet(removedData)
    static let nonspacingMarks = RangeSet(nonspacingMarkData)
    static let keptWhole = RangeSet(keptWholeData)
    static let punctuation = RangeSet(punctuationData)
    /// Character → its lowercase scalars, for every character lowercasing changes.
    static let lowercase: [UInt32: [UInt32]] = {
        var map: [UInt32: [UInt32]] = [:]
        for line in lowercaseData.split(separator: "\n") {
            let fields = line.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            map[fields[0]] = Array(fields.dropFirst())
        }
        return map
    }()

    /// BERT's CJK ideograph blocks (`is_chinese_char` in `tokenizers`' normalizer).
    @inline(__always)
    static func isChinese(_ c: UInt32) -> Bool {
        switch c {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
            0x2B920...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }

    /// What `BertPreTokenizer` isolates: Rust's `is_ascii_punctuation` or the crate's Unicode punctuation.
    @inline(__always)
    static func isPunctuation(_ c: UInt32) -> Bool {
        if c < 0x80 { return (0x21...0x2F).contains(c) || (0x3A...0x40).contains(c) || (0x5B...0x60).contains(c) || (0x7B...0x7E).contains(c) }
        return punctuation.contains(c)
    }
}
