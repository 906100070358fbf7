/// o200k_base's pre-tokenizer, as in tiktoken 0.14, with U = `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`,
/// W = `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`, P = `[^\r\n\p{L}\p{N}]`, C = `(?i:'s|'t|'re|'ve|'m|'ll|'d)`:
///
///     P?U*W+C?|P?U+W*C?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
///
/// Unlike cl100k's, these quantifiers are not possessive, so the letter
/// alternatives are resolved the way a backtracking engine would try them:
/// first alternative with the prefix, then without it, then the second.
@usableFromInline
enum O200kScanner: PieceScanner {
    @inlinable
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        let first = t.character(at: i)
        let c = first.classes
        let next = i &+ first.length
        let isNewline = first.value == 0x0A || first.value == 0x0D
        let mayBePrefix = c.isDisjoint(with: [.letter, .number]) && !isNewline
        if mayBePrefix {
            if let e = casedWordEnd(t, from: next, mustEndLower: true) ?? casedWordEnd(t, from: i, mustEndLower: true)
                ?? casedWordEnd(t, from: next, mustEndLower: false) ?? casedWordEnd(t, from: i, mustEndLower: false) {
                return e &+ t.contractionLength(at: e, ignoringCase: true)
            }
        } else if let e = casedWordEnd(t, from: i, mustEndLower: true) ?? casedWordEnd(t, from: i, mustEndLower: false) {
            return e &+ t.contractionLength(at: e, ignoringCase: true)
        }
        if c.contains(.number) {
            var j = next
            for _ in 0..<2 {
                guard j < t.end else { break }
                let d = t.character(at: j)
                guard d.classes.contains(.number) else { break }
                j &+= d.length
            }
            return j
        }
        let punctuationStart = first.value == 0x20 ? next : i
        if punctuationStart < t.end {
            let p = t.character(at: punctuationStart)
            if p.classes.isDisjoint(with: [.whitespace, .letter, .number]) {
                var j = t.endOfRun(punctuationFrom: punctuationStart &+ p.length)
                while j < t.end && (t.base[j] == 0x0A || t.base[j] == 0x0D || t.base[j] == UInt8(ascii: "/")) {
                    j &+= 1
                }
                return j
            }
        }
        return t.whitespacePieceEnd(from: i, trailingRunIsOnePiece: false, newlinesEndPieces: true)
    }

    /// `U*W+` (`mustEndLower`) or `U+W*` matched at `s`, as a backtracking engine resolves it.
    @inlinable @inline(__always)
    static func casedWordEnd(_ t: UTF8Cursor, from s: Int, mustEndLower: Bool) -> Int? {
        var j = s
        var lastLowerInRunEnd = -1
        while j < t.end {
            let c = t.character(at: j)
            guard c.classes.contains(.upperish) else { break }
            j &+= c.length
            if c.classes.contains(.lowerish) { lastLowerInRunEnd = j }
        }
        if mustEndLower {
            if let n = t.classes(at: j), n.contains(.lowerish) {
                return t.endOfRun(from: j, of: .lowerish)
            }
            // U* gives characters back until W+ can take one: the last W inside the run.
            return lastLowerInRunEnd > 0 ? lastLowerInRunEnd : nil
        }
        return j > s ? t.endOfRun(from: j, of: .lowerish) : nil
    }
}
