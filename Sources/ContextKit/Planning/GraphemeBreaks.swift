import TokenKit

/// Grapheme cluster boundaries (UAX #29, from TokenKit's `UnicodeData`) over
/// UTF-8 bytes, found by scanning forward from a place known to be a boundary.
///
/// A byte that starts no valid UTF-8 sequence is a unit of its own with a
/// boundary on each side, the way a byte-level tokenizer sees it; a valid
/// sequence is never split.
enum GraphemeBreaks {
    /// The grapheme boundaries in `lo...hi`, in order, scanning from `from`
    /// (which must be a boundary, e.g. the start of the text or of a chunk).
    /// The scan starts later when a later place is provably a boundary with
    /// no state carried across it.
    static func forEach(in t: UnsafePointer<UInt8>, count n: Int, from: Int, lo: Int, hi: Int, _ body: (Int) -> Void) {
        guard lo <= hi, hi <= n else { return }
        let i = anchor(in: t, count: n, before: lo, notBefore: from)
        if i >= lo && i <= hi { body(i) }
        UnicodeData.forEachGraphemeBoundary(in: t, count: n, after: i, through: hi) { b in
            if b >= lo { body(b) }
            return true
        }
    }

    /// A place at or before `before`, and not before `notBefore`, where a
    /// boundary is certain and no earlier character can change the rules
    /// after it: just after a line feed (a break after LF is unconditional), or
    /// between two ASCII characters other than CR LF (no ASCII character is a
    /// prepend, extend, spacing mark, ZWJ, regional indicator or pictograph).
    static func anchor(in t: UnsafePointer<UInt8>, count n: Int, before: Int, notBefore: Int) -> Int {
        var p = min(before, n)
        while p > notBefore {
            let a = t[p - 1]
            if a == 0x0A || p == n { return p }
            if a < 0x80 && t[p] < 0x80 && !(a == 0x0D && t[p] == 0x0A) { return p }
            p -= 1
        }
        return notBefore
    }

    /// Whether the valid scalar just before `p` is a Prepend character, which
    /// joins the next character into its cluster (GB9b): a cut before a space
    /// is not a grapheme boundary after one.
    static func followsPrepend(_ p: Int, in t: UnsafePointer<UInt8>, lowest: Int) -> Bool {
        guard p > lowest, t[p - 1] >= 0x80, let (scalar, _) = SentenceRules.scalarBefore(p, t, lowest) else { return false }
        return UnicodeData.isPrepend(scalar)
    }

    /// Whether there is a grapheme boundary between the scalars around `p`,
    /// judged from those two alone (used after full-width terminators, where
    /// no multi-character sequence is in play).
    static func isBreak(at p: Int, in t: UnsafePointer<UInt8>, count n: Int, lowest: Int) -> Bool {
        guard p > lowest, p < n, let (before, _) = SentenceRules.scalarBefore(p, t, lowest) else { return true }
        let (after, length) = UTF8Decoder.scalar(t, at: p, end: n)
        guard length > 0 else { return true }
        return UnicodeData.isGraphemeBreak(between: before, and: after)
    }
}

extension GraphemeBreaks {
    /// The first grapheme boundary after `p` (which must be a boundary), or `n`.
    static func next(after p: Int, in t: UnsafePointer<UInt8>, count n: Int) -> Int {
        var found = n
        UnicodeData.forEachGraphemeBoundary(in: t, count: n, after: p, through: n) { b in
            found = b
            return false
        }
        return found
    }
}
