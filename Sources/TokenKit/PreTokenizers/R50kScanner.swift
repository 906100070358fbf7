/// r50k_base's (GPT-2's) pre-tokenizer, shared by p50k_base, as in tiktoken 0.14:
///
///     '(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s
@usableFromInline
enum R50kScanner: PieceScanner {
    @inlinable
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        let contraction = t.contractionLength(at: i, ignoringCase: false)
        if contraction > 0 { return i &+ contraction }
        let first = t.character(at: i)
        var start = i
        var c = first
        if first.value == 0x20, i &+ 1 < t.end {
            let n = t.character(at: i &+ 1)
            if !n.classes.contains(.whitespace) {
                start = i &+ 1
                c = n
            }
        }
        let bodyStart = start &+ c.length
        if c.classes.contains(.letter) { return t.endOfRun(from: bodyStart, of: .letter) }
        if c.classes.contains(.number) { return t.endOfRun(from: bodyStart, of: .number) }
        if !c.classes.contains(.whitespace) { return t.endOfRun(punctuationFrom: bodyStart) }
        return t.whitespacePieceEnd(from: i, trailingRunIsOnePiece: true, newlinesEndPieces: false)
    }
}
