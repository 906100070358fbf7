/// cl100k_base's pre-tokenizer, as in tiktoken 0.14:
///
///     '(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+
///     | ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s
@usableFromInline
enum Cl100kScanner: PieceScanner {
    @usableFromInline static var piecePattern: PiecePattern? { .cl100k }

    @inlinable @inline(__always)
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        let b = t.base[i]
        guard b < 0x80 else { return generalPieceEnd(t, from: i) }
        // ASCII first, as in `O200kScanner`: most English pieces settle here.
        if b == UInt8(ascii: "'") {
            let contraction = t.contractionLength(at: i, ignoringCase: true)
            if contraction > 0 { return i &+ contraction }
        }
        switch t.asciiLetterStart(at: i) {
        case .noLetters: return otherPieceEnd(t, from: i)
        case .undecided: return generalPieceEnd(t, from: i)
        case .at(let letterStart):
            // `\p{L}++` ends at the first non-letter; a non-ASCII byte may be a letter.
            let e = t.endOfASCIIRun(from: letterStart, foldingCase: true, first: UInt8(ascii: "a"))
            return e < t.end && t.base[e] >= 0x80 ? generalPieceEnd(t, from: i) : e
        }
    }

    /// Any piece, by decoding characters and asking the class table.
    @inlinable @inline(never)
    static func generalPieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
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
        return otherPieceEnd(t, from: i)
    }

    /// A piece that no letter alternative (nor a contraction) matches at `i`.
    @inlinable @inline(never)
    static func otherPieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        t.numberOrPunctuationPieceEnd(from: i, first: t.character(at: i), trailing: .newlines)
            ?? t.whitespacePieceEnd(from: i, trailingRunIsOnePiece: true, newlinesEndPieces: true)
    }
}
