import ContextKit

/// Tells a summary from a copy of its input.
///
/// The field notes found prose summaries copying the input almost verbatim in
/// 7 of 16 runs (typed output: about 2%). The check they used: take a
/// distinctive phrase from the middle of the source and look for it, word for
/// word, in the output. A real summary may repeat a name or a term, and may
/// reuse the opening sentence, but it does not reproduce a run of ordinary
/// words from the middle of the text.
///
/// Comparison is on words (letters and digits, case folded; each CJK
/// character is a word), so a copy with different punctuation, spacing or
/// JSON escaping is still a copy.
public struct CopyDetector: Sendable {
    /// Words per phrase.
    public var phraseLength: Int
    /// Phrases taken from the middle of the source; finding any of them is a copy.
    public var phraseCount: Int

    /// A detector looking for `phraseCount` phrases (at least 1) of
    /// `phraseLength` words (at least 2).
    public init(phraseLength: Int = 8, phraseCount: Int = 3) {
        self.phraseLength = max(phraseLength, 2)
        self.phraseCount = max(phraseCount, 1)
    }

    /// The phrase of `source` found in `output`, or nil when the output is not a copy.
    public func copiedPhrase(source: String, output: String) -> String? {
        let phrases = self.phrases(in: source)
        guard !phrases.isEmpty else { return nil }
        let haystack = " " + Self.words(in: output).joined(separator: " ") + " "
        return phrases.first { haystack.contains(" " + $0 + " ") }
    }

    /// Distinctive phrases from the middle third of `source`: runs of
    /// `phraseLength` words that occur once in the source and are mostly
    /// words of four letters or more, nearest the middle first and not
    /// overlapping. Empty when the source is too short to tell a copy from a
    /// summary (fewer than four phrases' worth of words).
    public func phrases(in source: String) -> [String] {
        let words = Self.words(in: source)
        let n = phraseLength
        guard words.count >= 4 * n else { return [] }
        let middle = words.count / 2
        let low = words.count / 3, high = 2 * words.count / 3 - n
        guard low <= high else { return [] }
        var counts: [String: Int] = [:]
        for start in 0...(words.count - n) {
            counts[words[start..<(start + n)].joined(separator: " "), default: 0] += 1
        }
        var taken: [Range<Int>] = []
        var phrases: [String] = []
        // Starts ordered by distance from the middle: middle, middle+1, middle-1, …
        let starts = (low...high).sorted { abs($0 - middle) < abs($1 - middle) || (abs($0 - middle) == abs($1 - middle) && $0 < $1) }
        for start in starts {
            let range = start..<(start + n)
            if taken.contains(where: { $0.overlaps(range) }) { continue }
            let slice = words[range]
            let phrase = slice.joined(separator: " ")
            guard counts[phrase] == 1 else { continue }
            let long = slice.filter { $0.unicodeScalars.count >= 4 || $0.unicodeScalars.allSatisfy(Self.isCJK) }.count
            guard long * 2 >= n else { continue }
            taken.append(range)
            phrases.append(phrase)
            if phrases.count == phraseCount { break }
        }
        return phrases
    }

    /// Words of `text`, case folded: runs of letters, marks and digits; each
    /// CJK character on its own.
    static func words(in text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { words.append(String(current)); current.removeAll() }
        }
        for scalar in text.lowercased().unicodeScalars {
            if isCJK(scalar) {
                flush()
                words.append(String(scalar))
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                || scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .spacingMark
            {
                current.append(scalar)
            } else if scalar == "'" || scalar == "\u{2019}" {
                continue  // don't, dont, don’t are one word
            } else {
                flush()
            }
        }
        flush()
        return words
    }

    /// Kana, a CJK ideograph or a hangul syllable: ContextKit's one
    /// definition (`TextStats.isCJK`), which the density figures count by.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool { TextStats.isCJK(scalar.value) }
}
