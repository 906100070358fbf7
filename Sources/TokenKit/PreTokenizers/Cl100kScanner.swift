/// cl100k_base's pre-tokenizer, as in tiktoken 0.14:
///
///     '(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+
///     | ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s
@usableFromInline
enum Cl100kScanner: PieceScanner {
    @inlinable
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        let contraction = t.contractionLength(at: i, ignoringCase: true)
        if contraction > 0 { return i &+ contraction }
        let first = t.character(at: i)
        let c = first.classes
        let next = i &+ first.length
        if c.contains(.letter) { return t.endOfRun(from: next, of: .letter) }
        let isNewline = first.value == 0x0A || first.value == 0x0D
        if !c.contains(.number) && !isNewline, let n = t.classes(at: next), n.contains(.letter) {
            return t.endOfRun(from: next, of: .letter)
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
                while j < t.end && (t.base[j] == 0x0A || t.base[j] == 0x0D) { j &+= 1 }
                return j
            }
        }
        return t.whitespacePieceEnd(from: i, trailingRunIsOnePiece: true, newlinesEndPieces: true)
    }
}

extension UTF8Cursor {
    /// The end of a run of `[^\s\p{L}\p{N}]` starting at `i`.
    @inlinable @inline(__always)
    func endOfRun(punctuationFrom i: Int) -> Int {
        var j = i
        while j < end {
            let c = character(at: j)
            if !c.classes.isDisjoint(with: [.whitespace, .letter, .number]) { break }
            j &+= c.length
        }
        return j
    }
}
