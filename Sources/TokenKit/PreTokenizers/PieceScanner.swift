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
    /// The piece kernel's form of this pattern (`PieceKernel`); nil
    /// for a pattern it does not take (r50k's).
    static var piecePattern: PiecePattern? { get }
}

extension PieceScanner {
    @usableFromInline @inline(__always)
    static var piecePattern: PiecePattern? { nil }
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
            || letter(k, UInt8(ascii: "d")) || letter(k, UInt8(ascii: "m"))
        {
            return 2
        }
        if ignoringCase, k &+ 1 < end, base[k] == 0xC5, base[k &+ 1] == 0xBF { return 3 }  // ſ
        if (letter(k, UInt8(ascii: "l")) && letter(k &+ 1, UInt8(ascii: "l")))
            || (letter(k, UInt8(ascii: "v")) && letter(k &+ 1, UInt8(ascii: "e")))
            || (letter(k, UInt8(ascii: "r")) && letter(k &+ 1, UInt8(ascii: "e")))
        {
            return 3
        }
        return 0
    }

    /// Whether `b` is `[A-Za-z]`.
    @inlinable @inline(__always)
    func isASCIILetter(_ b: UInt8) -> Bool {
        ((b | 0x20) &- UInt8(ascii: "a")) < 26
    }

    /// Where the letters start of a piece that begins with the ASCII byte at
    /// `i`, under the `[^\r\n\p{L}\p{N}]?` prefix that cl100k's and o200k's
    /// letter alternatives share; read from ASCII bytes alone.
    @inlinable @inline(__always)
    func asciiLetterStart(at i: Int) -> ASCIILetterStart {
        let b = base[i]
        if isASCIILetter(b) { return .at(i) }
        // Any ASCII character but a letter, digit or newline is a prefix, and
        // is no letter itself: only a letter after it starts the letters.
        guard (b &- 0x30) >= 10 && b != 0x0A && b != 0x0D && i &+ 1 < end else { return .noLetters }
        let n = base[i &+ 1]
        guard n < 0x80 else { return .undecided }
        return isASCIILetter(n) ? .at(i &+ 1) : .noLetters
    }

    /// The end of the run, starting at `i`, of the 26 ASCII letters from
    /// `first` ("a" or "A"); with `foldingCase` (and "a"), of letters of
    /// either case. Eight bytes at a time: a word is one step.
    @inlinable @inline(__always)
    func endOfASCIIRun(from i: Int, foldingCase: Bool, first: UInt8) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        let fold: UInt8 = foldingCase ? 0x20 : 0
        var j = i
        while j &+ 8 <= end {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self)) | ones &* UInt64(fold)
            // Per byte, with bit 7 cleared so that no sum carries into the next
            // byte: bit 7 of b + (0x80 - x) is set exactly when b >= x.
            let low7 = w & ~high
            let fromFirst = low7 &+ ones &* UInt64(0x80 &- first)
            let pastLast = low7 &+ ones &* UInt64(0x80 &- (first &+ 26))
            let outside = (fromFirst & ~pastLast & ~w & high) ^ high
            if outside != 0 { return j &+ outside.trailingZeroBitCount >> 3 }
            j &+= 8
        }
        while j < end && ((base[j] | fold) &- first) < 26 { j &+= 1 }
        return j
    }

    /// `\p{N}{1,maxDigits}`, else ` ?[^\s\p{L}\p{N}]+` and the run of `trailing` after it,
    /// for the piece that starts at `i` with the character `first`; `nil` when
    /// neither matches there (the piece is whitespace). cl100k and o200k share
    /// these alternatives and differ only in what may trail the punctuation;
    /// tekken's is o200k's with one digit a piece.
    @inlinable @inline(__always)
    func numberOrPunctuationPieceEnd(
        from i: Int, first: (value: UInt32, classes: CharacterClass, length: Int), trailing: PunctuationTrail, maxDigits: Int = 3
    ) -> Int? {
        let next = i &+ first.length
        if first.classes.contains(.number) {
            var j = next
            for _ in 1..<maxDigits {
                guard j < end else { break }
                let d = character(at: j)
                guard d.classes.contains(.number) else { break }
                j &+= d.length
            }
            return j
        }
        let punctuationStart = first.value == 0x20 ? next : i
        guard punctuationStart < end else { return nil }
        let p = character(at: punctuationStart)
        guard p.classes.isDisjoint(with: .letterNumberOrSpace) else { return nil }
        var j = endOfRun(punctuationFrom: punctuationStart &+ p.length)
        while j < end {
            let b = base[j]
            guard b == 0x0A || b == 0x0D || (trailing == .newlinesOrSlashes && b == UInt8(ascii: "/")) else { break }
            j &+= 1
        }
        return j
    }

    /// The end of a run of `[^\s\p{L}\p{N}]` starting at `i`.
    @inlinable @inline(__always)
    func endOfRun(punctuationFrom i: Int) -> Int {
        var j = i
        while j < end {
            let c = character(at: j)
            if !c.classes.isDisjoint(with: .letterNumberOrSpace) { break }
            j &+= c.length
        }
        return j
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
        if j == end { return j }  // \s+(?!\S) at the end of text
        if characters >= 2 { return lastCharacterStart }  // leave one space for the next word
        return j
    }
}

/// `UTF8Cursor.asciiLetterStart(at:)`'s answer.
@usableFromInline
enum ASCIILetterStart {
    /// The letters start here.
    case at(Int)
    /// No letter alternative matches: the piece is a number, punctuation or whitespace.
    case noLetters
    /// A non-ASCII character follows the prefix: the scanner must decode it.
    case undecided
}

/// What a pattern lets trail a run of punctuation: cl100k's `[\r\n]*`, o200k's `[\r\n/]*`.
@usableFromInline
enum PunctuationTrail {
    case newlines
    case newlinesOrSlashes
}
