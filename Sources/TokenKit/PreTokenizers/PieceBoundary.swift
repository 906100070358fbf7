/// Places where a text can be cut so that tokenizing the two parts separately
/// gives exactly the tokens of the whole: `pieces(left) + pieces(right) ==
/// pieces(whole)`. BPE never merges across pre-tokenizer pieces, so counts
/// then add up, and big inputs can be counted in parallel and streamed.
///
/// ## Which cuts are safe, and why
///
/// A position `p` is *safe* when (a) a piece of the whole text starts at `p`,
/// (b) every match attempt the pattern makes from a piece start `i < p` turns
/// out the same whether the text continues past `p` or ends there, and
/// (c) match attempts from `p` on do not depend on the text before `p`.
///
/// (c) holds for every position in the three OpenAI patterns: none has a
/// lookbehind or `^`, so a match attempt reads only forward from where it
/// starts. With (a) and (b), the left part yields the whole text's pieces up
/// to `p` (by induction over pieces: same start, same end) and the right part
/// yields the rest.
///
/// Decoding is the same on both sides whenever the byte at `p` (or at `p - 1`
/// in rule B) is ASCII: an ASCII byte is never a UTF-8 continuation byte, so a
/// multi-byte sequence that would reach it is invalid both in the whole text
/// and in the left part (where it runs out of bytes instead); every character
/// before `p` decodes identically. Below, "whitespace" is `\s` (Unicode
/// `White_Space`, TokenKit's `.whitespace`), `L` is `\p{L}`, `N` is `\p{N}`.
///
/// **Rule A** (cl100k, o200k, r50k): the byte at `p` is a space (U+0020) and
/// the byte at `p - 1` is ASCII and not whitespace (`!`...`~`).
/// - (a): no alternative of any of the three patterns matches a non-whitespace
///   character followed by a space. Runs (`\p{L}++`, `\p{N}{1,3}`,
///   `[^\s\p{L}\p{N}]++`, o200k's `[\p{Lu}…]*[\p{Ll}…]+`) exclude whitespace;
///   the optional prefixes (`[^\r\n\p{L}\p{N}]?`, ` ?`) come *before* a run;
///   the suffixes are `[\r\n]*` (cl100k), `[\r\n/]*` (o200k) and the
///   contractions `'s|'t|'re|'ve|'m|'ll|'d`, none of which contains a space;
///   whitespace alternatives cannot contain the non-whitespace byte at `p - 1`.
///   So the piece holding `p - 1` ends at `p`.
/// - (b): a match attempt from `i < p` reads the text up to the first
///   character that stops it. Whitespace runs stop at or before `p - 1`
///   (not whitespace), so `\s++$` and `(?!\S)` are evaluated before `p - 1`
///   where both texts agree. Every other construct that reaches `p` asks one
///   of: is it a letter, a number, a `[^\s\p{L}\p{N}]` character, `\r`, `\n`,
///   `/`, or the next letter of a contraction? A space and the end of text both
///   answer no to each, so the attempt ends the same way.
///
/// **Rule B** (cl100k, o200k): the byte at `p - 1` is `\n` and the character
/// at `p` is not whitespace; for o200k it is not `/` either.
/// - (a), (b): `\n` is excluded from the letter prefix `[^\r\n\p{L}\p{N}]`, so
///   the piece holding `p - 1` is either punctuation with its `[\r\n]*` /
///   `[\r\n/]*` suffix, which stops at `p` (the character there is not `\r`,
///   `\n` or `/`) or at the end of the left part, or a whitespace run `[r, p)`
///   ending in `\n`. For the run, the whole text takes `\s*[\r\n]` (cl100k) or
///   `\s*[\r\n]+` (o200k): `\s*` backs off one character from `p` and the
///   newline at `p - 1` completes the match, giving `[r, p)`; the left part
///   takes `\s++$` (cl100k) or the same `\s*[\r\n]+` (o200k), also `[r, p)`.
///   Attempts from earlier starts end before `p - 1` or at it for the same
///   reasons as in rule A.
///
/// **Rule B for r50k**: as rule B, and the character before the `\n` is not
/// whitespace. r50k has no newline alternative: a whitespace run `[r, p)`
/// longer than one character is cut by `\s+(?!\S)` into `[r, p-1)` and
/// `[p-1, p)` when text follows, but kept whole by `\s++$` at the end of the
/// left part. With a one-character run, both give `[p-1, p)`.
///
/// **Tekken** has o200k's rules: its pattern is o200k's without the
/// contraction suffixes and with `\p{N}` for `\p{N}{1,3}`, and every argument
/// above holds for it as written (it only removes alternatives' tails and
/// shortens a run that excludes whitespace).
///
/// Cuts never fall inside a special token's text for the built-in encodings
/// (none contains a space or a line feed), and a tokenizer whose special
/// tokens do is not cut at all when special tokens are parsed
/// (`Tokenizer.pieceBoundary(allowedSpecial:)`). Patterns run through ICU
/// (`.regex`) have no proof here and are never cut, nor are tokenizers read
/// from model files (`Tokenizer.pieceBoundary` is nil for them): such inputs
/// are counted whole, on one thread.
///
/// The tests check `sum(count(parts)) == count(whole)` on random and real
/// texts, at every safe cut and with many threads.
public struct PieceBoundary: Sendable {
    enum Rules: Sendable { case cl100k, o200k, r50k }
    let rules: Rules

    /// The boundary rules for a pre-tokenizer, or nil when none are proven for it.
    public init?(_ preTokenizer: PreTokenizer) {
        if case .cl100k = preTokenizer {
            rules = .cl100k
        } else if case .o200k = preTokenizer {
            rules = .o200k
        } else if case .tekken = preTokenizer {
            rules = .o200k
        } else if case .r50k = preTokenizer {
            rules = .r50k
        } else {
            return nil
        }
    }

    /// Whether cutting `text` before byte `p` keeps every piece intact (false
    /// at 0 and at the end, where there is nothing to cut).
    @inline(__always)
    public func isSafe(_ text: UnsafeBufferPointer<UInt8>, at p: Int) -> Bool {
        guard p > 0, p < text.count, let t = text.baseAddress else { return false }
        let before = t[p - 1]
        if t[p] == 0x20 { return before > 0x20 && before < 0x7F }  // rule A
        guard before == 0x0A else { return false }  // rule B
        if Self.startsWithWhitespace(t, p, text.count) { return false }
        switch rules {
        case .cl100k: return true
        case .o200k: return t[p] != UInt8(ascii: "/")
        case .r50k: return p >= 2 && !Self.endsWithWhitespace(t, p - 1)
        }
    }

    /// The first safe cut at or after byte `from`, or nil when there is none.
    public func firstSafe(in text: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var p = max(from, 1)
        while p < text.count {
            if isSafe(text, at: p) { return p }
            p += 1
        }
        return nil
    }

    /// The last safe cut before byte `before` (exclusive) and not before
    /// `notBefore`, or nil when there is none.
    public func lastSafe(in text: UnsafeBufferPointer<UInt8>, before: Int, notBefore: Int = 1) -> Int? {
        var p = min(before, text.count) - 1
        while p >= max(notBefore, 1) {
            if isSafe(text, at: p) { return p }
            p -= 1
        }
        return nil
    }

    /// The character at `p` is Unicode whitespace (ASCII, or U+0085, U+00A0,
    /// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000).
    @inline(__always)
    static func startsWithWhitespace(_ t: UnsafePointer<UInt8>, _ p: Int, _ n: Int) -> Bool {
        let b = t[p]
        if b < 0x80 { return b == 0x20 || (0x09...0x0D).contains(b) }
        let b1: UInt8 = p + 1 < n ? t[p + 1] : 0
        let b2: UInt8 = p + 2 < n ? t[p + 2] : 0
        return isMultiByteWhitespace(b, b1, b2)
    }

    /// The character that ends just before `end` is Unicode whitespace. A
    /// valid sequence is always read from its lead byte (a lead byte is never
    /// part of an earlier character), so matching its bytes is enough.
    @inline(__always)
    static func endsWithWhitespace(_ t: UnsafePointer<UInt8>, _ end: Int) -> Bool {
        let b = t[end - 1]
        if b < 0x80 { return b == 0x20 || (0x09...0x0D).contains(b) }
        if end >= 2, t[end - 2] == 0xC2, b == 0x85 || b == 0xA0 { return true }
        return end >= 3 && isMultiByteWhitespace(t[end - 3], t[end - 2], b)
    }

    @inline(__always)
    static func isMultiByteWhitespace(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> Bool {
        switch (b0, b1) {
        case (0xC2, _): return b1 == 0x85 || b1 == 0xA0
        case (0xE1, 0x9A): return b2 == 0x80
        case (0xE2, 0x80): return (0x80...0x8A).contains(b2) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF
        case (0xE2, 0x81): return b2 == 0x9F
        case (0xE3, 0x80): return b2 == 0x80
        default: return false
        }
    }
}
