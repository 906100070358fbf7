/// o200k_base's pre-tokenizer, as in tiktoken 0.14, with U = `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`,
/// W = `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`, P = `[^\r\n\p{L}\p{N}]`, C = `(?i:'s|'t|'re|'ve|'m|'ll|'d)`:
///
///     P?U*W+C?|P?U+W*C?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
///
/// Unlike cl100k's, these quantifiers are not possessive, so the letter
/// alternatives are resolved the way a backtracking engine would try them:
/// first alternative with the prefix, then without it, then the second.
///
/// The same code, without `C?` and with `\p{N}` for `\p{N}{1,3}`, is
/// Mistral's tekken pattern (`TekkenScanner`).
@usableFromInline
enum O200kScanner: PieceScanner {
    @usableFromInline static var piecePattern: PiecePattern? { .o200k }

    @inlinable @inline(__always)
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        pieceEnd(t, from: i, contractions: true, maxDigits: 3)
    }

    /// The piece at `i` of o200k's pattern, or of tekken's when `contractions`
    /// is false (no `C?`) and `maxDigits` is 1.
    @inlinable @inline(__always)
    static func pieceEnd(_ t: UTF8Cursor, from i: Int, contractions: Bool, maxDigits: Int) -> Int {
        guard t.base[i] < 0x80 else { return generalPieceEnd(t, from: i, contractions: contractions, maxDigits: maxDigits) }
        // ASCII first: English is almost all pieces like "word", " word", "Word"
        // and ". ", which this path settles without decoding or table lookups.
        switch t.asciiLetterStart(at: i) {
        case .noLetters: return otherPieceEnd(t, from: i, maxDigits: maxDigits)
        case .undecided: return generalPieceEnd(t, from: i, contractions: contractions, maxDigits: maxDigits)
        case .at(let wordStart):
            guard let e = asciiWordEnd(t, from: wordStart) else { return generalPieceEnd(t, from: i, contractions: contractions, maxDigits: maxDigits) }
            return contractions ? e &+ t.contractionLength(at: e, ignoringCase: true) : e
        }
    }

    /// The letter alternatives at `s` (an ASCII letter) for a run that ends in
    /// ASCII, or `nil` when a non-ASCII byte follows it and could extend it.
    ///
    /// In ASCII, U is `[A-Z]` and W is `[a-z]`, and no character is both, so
    /// `U*W+` can give nothing back: it is `[A-Z]*[a-z]+`, and `U+W*`, tried
    /// only when that failed, is `[A-Z]+`. Either way the piece ends where
    /// `[A-Z]*[a-z]*` does.
    @inlinable @inline(__always)
    static func asciiWordEnd(_ t: UTF8Cursor, from s: Int) -> Int? {
        let upper = (t.base[s] &- UInt8(ascii: "A")) < 26
        let u = upper ? t.endOfASCIIRun(from: s &+ 1, foldingCase: false, first: UInt8(ascii: "A")) : s
        let e = t.endOfASCIIRun(from: u, foldingCase: false, first: UInt8(ascii: "a"))
        return e < t.end && t.base[e] >= 0x80 ? nil : e
    }

    /// Any piece, by decoding characters and asking the class table.
    @inlinable @inline(never)
    static func generalPieceEnd(_ t: UTF8Cursor, from i: Int, contractions: Bool, maxDigits: Int) -> Int {
        let first = t.character(at: i)
        let c = first.classes
        let next = i &+ first.length
        let isNewline = first.value == 0x0A || first.value == 0x0D
        let mayBePrefix = c.isDisjoint(with: .letterOrNumber) && !isNewline
        let word: Int?
        if mayBePrefix {
            word =
                casedWordEnd(t, from: next, mustEndLower: true) ?? casedWordEnd(t, from: i, mustEndLower: true)
                ?? casedWordEnd(t, from: next, mustEndLower: false) ?? casedWordEnd(t, from: i, mustEndLower: false)
        } else {
            word = casedWordEnd(t, from: i, mustEndLower: true) ?? casedWordEnd(t, from: i, mustEndLower: false)
        }
        if let e = word {
            return contractions ? e &+ t.contractionLength(at: e, ignoringCase: true) : e
        }
        return otherPieceEnd(t, from: i, maxDigits: maxDigits)
    }

    /// A piece that no letter alternative matches at `i`.
    @inlinable @inline(never)
    static func otherPieceEnd(_ t: UTF8Cursor, from i: Int, maxDigits: Int) -> Int {
        t.numberOrPunctuationPieceEnd(from: i, first: t.character(at: i), trailing: .newlinesOrSlashes, maxDigits: maxDigits)
            ?? t.whitespacePieceEnd(from: i, trailingRunIsOnePiece: false, newlinesEndPieces: true)
    }

    /// `U*W+` (`mustEndLower`) or `U+W*` matched at `s`, as a backtracking engine resolves it.
    @inlinable @inline(__always)
    static func casedWordEnd(_ t: UTF8Cursor, from s: Int, mustEndLower: Bool) -> Int? {
        var j = s
        var lastLowerInRunEnd = -1
        while j < t.end {
            let c = t.classesAndLength(at: j)
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

/// Mistral's tekken pre-tokenizer (`PreTokenizer.tekken`), as mistral-common's
/// tekken files write it:
///
///     P?U*W+|P?U+W*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
///
/// o200k's pattern (`O200kScanner`, same U, W and P) without the contraction
/// suffixes `C?`, and with every digit a piece of its own.
@usableFromInline
enum TekkenScanner: PieceScanner {
    @usableFromInline static var piecePattern: PiecePattern? { .tekken }

    @inlinable @inline(__always)
    static func pieceEnd(_ t: UTF8Cursor, from i: Int) -> Int {
        O200kScanner.pieceEnd(t, from: i, contractions: false, maxDigits: 1)
    }
}
