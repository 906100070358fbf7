import CUTF8Proc

/// Grapheme cluster boundaries (UAX #29, from utf8proc's tables) over UTF-8
/// bytes, found by scanning forward from a place known to be a boundary.
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
        var i = anchor(in: t, count: n, before: lo, notBefore: from)
        if i >= lo && i <= hi { body(i) }
        guard i < n else { return }
        var state: Int32 = 0
        var (previous, length) = TextStats.decode(t, i, n)
        var previousValid = length > 0
        i += max(length, 1)
        while i <= hi && i < n {
            let (scalar, length) = TextStats.decode(t, i, n)
            let valid = length > 0
            let isBreak: Bool
            if previousValid && valid {
                isBreak = utf8proc_grapheme_break_stateful(Int32(bitPattern: previous), Int32(bitPattern: scalar), &state)
            } else {
                isBreak = true
                state = 0
            }
            if isBreak && i >= lo { body(i) }
            previous = scalar
            previousValid = valid
            i += max(length, 1)
        }
        if i == n && n >= lo && n <= hi { body(n) }
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
        return utf8proc_get_property(Int32(bitPattern: scalar)).pointee.boundclass == UTF8PROC_BOUNDCLASS_PREPEND.rawValue
    }

    /// Whether there is a grapheme boundary between the scalars around `p`,
    /// judged from those two alone (used after full-width terminators, where
    /// no multi-character sequence is in play).
    static func isBreak(at p: Int, in t: UnsafePointer<UInt8>, count n: Int, lowest: Int) -> Bool {
        guard p > lowest, p < n, let (before, _) = SentenceRules.scalarBefore(p, t, lowest) else { return true }
        let (after, length) = TextStats.decode(t, p, n)
        guard length > 0 else { return true }
        return utf8proc_grapheme_break(Int32(bitPattern: before), Int32(bitPattern: after))
    }
}

extension GraphemeBreaks {
    /// The first grapheme boundary after `p` (which must be a boundary), or `n`.
    static func next(after p: Int, in t: UnsafePointer<UInt8>, count n: Int) -> Int {
        guard p < n else { return n }
        var state: Int32 = 0
        var (previous, length) = TextStats.decode(t, p, n)
        var previousValid = length > 0
        var i = p + max(length, 1)
        while i < n {
            let (scalar, length) = TextStats.decode(t, i, n)
            let valid = length > 0
            if !(previousValid && valid) || utf8proc_grapheme_break_stateful(Int32(bitPattern: previous), Int32(bitPattern: scalar), &state) {
                return i
            }
            previous = scalar
            previousValid = valid
            i += max(length, 1)
        }
        return n
    }
}
