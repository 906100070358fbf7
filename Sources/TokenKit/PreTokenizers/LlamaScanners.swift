/// Llama 3's pre-tokenizer (llama.cpp pre type `llama-bpe` and its aliases), as
/// its tokenizer.json writes it:
///
///     (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
///     | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
///
/// It is cl100k's pattern except at the end of the text: whitespace that ends
/// the text is cut after its last line break instead of staying one piece.
enum Llama3Scanner: PieceScanner {
    @usableFromInline static var piecePattern: PiecePattern? { .llama3 }

    @inline(__always)
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        t.llamaPieceEnd(from: i, maxDigits: 3)
    }
}

/// Qwen2's pre-tokenizer (pre types `qwen2`, `stablelm2`, ..., and Qwen3's
/// tokenizer.json): Llama 3's pattern with `\p{N}` instead of `\p{N}{1,3}`,
/// so every digit is a piece of its own.
enum Qwen2Scanner: PieceScanner {
    @usableFromInline static var piecePattern: PiecePattern? { .qwen2 }

    @inline(__always)
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        t.llamaPieceEnd(from: i, maxDigits: 1)
    }
}

extension UTF8Cursor {
    @inline(__always)
    func llamaPieceEnd(from i: Int, maxDigits: Int) -> Int {
        let contraction = contractionLength(at: i, ignoringCase: true)
        if contraction > 0 { return i &+ contraction }
        let first = character(at: i)
        let c = first.classes
        let next = i &+ first.length
        if c.contains(.letter) { return endOfRun(from: next, of: .letter) }
        let isNewline = first.value == 0x0A || first.value == 0x0D
        if !c.contains(.number) && !isNewline, let n = classes(at: next), n.contains(.letter) {
            return endOfRun(from: next, of: .letter)
        }
        if c.contains(.number) {
            var j = next
            var digits = 1
            while digits < maxDigits && j < end {
                let d = character(at: j)
                guard d.classes.contains(.number) else { break }
                j &+= d.length
                digits &+= 1
            }
            return j
        }
        let punctuationStart = first.value == 0x20 ? next : i
        if punctuationStart < end {
            let p = character(at: punctuationStart)
            if p.classes.isDisjoint(with: .letterNumberOrSpace) {
                var j = endOfRun(punctuationFrom: punctuationStart &+ p.length)
                while j < end && (base[j] == 0x0A || base[j] == 0x0D) { j &+= 1 }
                return j
            }
        }
        return whitespacePieceEnd(from: i, trailingRunIsOnePiece: false, newlinesEndPieces: true)
    }
}
