/// A hand-written pre-tokenizer: finds where the piece that starts at a byte
/// offset ends, with exactly the semantics of one regex pattern.
///
/// Scanners replace a regex engine on the hot path. Each one documents the
/// pattern it implements, and the tests fuzz it against `RegexPreTokenizer`
/// running that pattern, and against tiktoken's own output.
@usableFromInline
protocol PieceScanner {
    /// The end (exclusive) of the piece starting at `i`; always `> i` when `i < cursor.end`.
    static func pieceEnd(_ cursor: UTF8Cursor, from i: Int) -> Int
}

extension UTF8Cursor {
    /// Bytes of the contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`) at `i`, or 0.
    ///
    /// With `ignoringCase`, letters match as Unicode simple case folding does,
    /// so `'S` and `'ſ` (U+017F, which folds to `s`) count too.
    @inlinable @inline(__always)
    func contractionLength(at i: Int, ignoringCase: Bool) -> Int {
        guard i &+ 1 < end, base[i] == UInt8(ascii: "'") else { return 0 }
        @inline(__always) func letter(_ k: Int, _ lower: UInt8) -> Bool {
            guard k < end else { return false }
            let b = base[k]
            return b == lower || (ignoringCase && b == lower &- 32)
        }
        let k = i &+ 1
        if letter(k, UInt8(ascii: "s")) || letter(k, UInt8(ascii: "t"))
            || letter(k, UInt8(ascii: "d")) || letter(k, UInt8(ascii: "m")) {
            return 2
        }
        if ignoringCase, k &+ 1 < end, base[k] == 0xC5, base[k &+ 1] == 0xBF { return 3 }  // ſ
        if (letter(k, UInt8(ascii: "l")) && letter(k &+ 1, UInt8(ascii: "l")))
            || (letter(k, UInt8(ascii: "v")) && letter(k &+ 1, UInt8(ascii: "e")))
            || (letter(k, UInt8(ascii: "r")) && letter(k &+ 1, UInt8(ascii: "e"))) {
            return 3
        }
        return 0
    }

    /// The whitespace alternatives shared by the OpenAI patterns, for a piece
    /// that starts with whitespace at `i`:
    /// `\s++$` (if `trailingRunIsOnePiece`), then `\s*[\r\n]` (if `newlinesEndPieces`),
    /// then `\s+(?!\S)`, then `\s` (which is what `\s+` matches there too).
    @inlinable @inline(__always)
    func whitespacePieceEnd(from i: Int, trailingRunIsOnePiece: Bool, newlinesEndPieces: Bool) -> Int {
        var j = i
        var lastNewlineEnd = -1
        var lastCharacterStart = i
        var characters = 0
        while j < end {
            let c = character(at: j)
            guard c.classes.contains(.whitespace) else { break }
            if c.value == 0x0A || c.value == 0x0D { lastNewlineEnd = j &+ 1 }
            lastCharacterStart = j
            characters &+= 1
            j &+= c.length
        }
        if j == end && trailingRunIsOnePiece { return j }
        if newlinesEndPieces && lastNewlineEnd > 0 { return lastNewlineEnd }
        if j == end { return j }                            // \s+(?!\S) at the end of text
        if characters >= 2 { return lastCharacterStart }    // leave one space for the next word
        return j
    }
}
