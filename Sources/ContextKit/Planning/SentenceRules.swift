import TokenKit

/// Where one sentence ends and the next begins: a small, documented rule set
/// in the spirit of Unicode's sentence boundaries (UAX #29), tuned for cutting
/// text into chunks rather than for linguistics.
///
/// A sentence boundary is the end of a *terminator* followed by any number of
/// *closers*:
///
/// - Terminators that need a space after them (`.` `!` `?` `…` `‼` `⁇` `⁈` `⁉`,
///   Arabic `؟`, Urdu `۔`, Devanagari `।` `॥`, Armenian `։`, Ethiopic `።`):
///   the boundary holds only when a space or tab follows, and the first
///   character after those spaces is neither a line break (the line boundary
///   there is better) nor a lowercase letter. UAX #29 applies the lowercase
///   test to `.` only (`e.g. the`); here it applies to every terminator, so
///   that dialogue such as `“Late?” she asked` stays one sentence.
/// - Full-width terminators (`。` `！` `？` `．` `｡`), used without spaces in
///   Chinese and Japanese: the boundary is right after the terminator and its
///   closers, unless a line break or a space follows.
/// - Closers: quotation marks `" ' ” ’ » ›`, brackets `) ] }`, and the CJK
///   closing brackets `」 』 ） 》 〉 】 〕`.
///
/// Unlike UAX #29, which gives the spaces after a sentence to that sentence,
/// the boundary is placed *before* the spaces: a cut before a space that
/// follows an ASCII character is a `PieceBoundary` safe cut for every built-in
/// tokenizer, so the two parts cost exactly their share of the whole, and the
/// space merges into the next sentence's first token instead of costing a
/// token of its own at the end of a chunk. Abbreviations (`Mr. Smith`) are
/// not recognised; they cost at worst a sentence cut where a word cut would
/// have done.
public enum SentenceRules {
    /// Whether the character ending just before `p` (after stepping back over
    /// closers) is a terminator, and if so whether it needs a following space.
    /// Returns nil when there is no terminator there.
    static func terminator(endingAt p: Int, in t: UnsafePointer<UInt8>, from lowest: Int) -> (needsSpace: Bool, start: Int)? {
        var end = p
        // Step back over closers (each at most 3 bytes).
        while end > lowest {
            guard let (scalar, start) = scalarBefore(end, t, lowest), isCloser(scalar) else { break }
            end = start
        }
        guard let (scalar, start) = scalarBefore(end, t, lowest) else { return nil }
        if isSpacedTerminator(scalar) { return (true, start) }
        if isFullWidthTerminator(scalar) { return (false, start) }
        return nil
    }

    static func isSpacedTerminator(_ c: UInt32) -> Bool {
        switch c {
        case 0x2E, 0x21, 0x3F, 0x2026, 0x203C, 0x2047, 0x2048, 0x2049,
            0x061F, 0x06D4, 0x0964, 0x0965, 0x0589, 0x1362:
            return true
        default:
            return false
        }
    }

    static func isFullWidthTerminator(_ c: UInt32) -> Bool {
        c == 0x3002 || c == 0xFF01 || c == 0xFF1F || c == 0xFF0E || c == 0xFF61
    }

    static func isCloser(_ c: UInt32) -> Bool {
        switch c {
        case 0x22, 0x27, 0x29, 0x5D, 0x7D, 0x201D, 0x2019, 0xBB, 0x203A,
            0x300D, 0x300F, 0xFF09, 0x300B, 0x3009, 0x3011, 0x3015:
            return true
        default:
            return false
        }
    }

    /// A letter that continues a sentence when it starts the next word.
    static func isLowercase(_ c: UInt32) -> Bool {
        if c < 0x80 { return c >= 0x61 && c <= 0x7A }
        return UnicodeData.isLowercaseLetter(c)
    }

    /// The valid scalar that ends just before `end` and its first byte, not
    /// reaching below `lowest`.
    @inline(__always)
    static func scalarBefore(_ end: Int, _ t: UnsafePointer<UInt8>, _ lowest: Int) -> (UInt32, Int)? {
        guard end > lowest else { return nil }
        var start = end - 1
        while start > lowest && end - start < 4 && t[start] & 0xC0 == 0x80 { start -= 1 }
        let (scalar, length) = UTF8Decoder.scalar(t, at: start, end: end)
        guard length == end - start else { return nil }
        return (scalar, start)
    }
}
