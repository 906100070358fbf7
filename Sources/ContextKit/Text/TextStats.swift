import CByteScan

/// What a text is made of, gathered in one pass over its bytes: sizes, lines,
/// CJK share, and the first byte that is not valid UTF-8 or is a NUL.
///
/// Characters are counted the way TokenKit's scanners read text: a valid UTF-8
/// sequence is one character (a Unicode scalar), and each byte of an invalid
/// sequence is one character of its own, which is also how a byte-level
/// tokenizer sees it.
public struct TextStats: Equatable, Sendable {
    /// Bytes of the text.
    public var bytes = 0
    /// Characters of the text: Unicode scalars, each invalid byte counted as one.
    public var characters = 0
    /// Line feeds (a CRLF file counts each line once).
    public var newlines = 0
    /// Characters after the last line feed: the column where the text ends.
    public var charactersAfterLastNewline = 0
    /// Kana, hangul syllables and CJK ideographs.
    public var cjkCharacters = 0
    /// Byte offset of the first byte that starts no valid UTF-8 sequence; nil when the text is valid UTF-8.
    public var firstInvalidUTF8: Int?
    /// Byte offset of the first NUL byte (a sign of a binary file); nil when there is none.
    public var firstNUL: Int?

    /// The statistics of an empty text.
    public init() {}

    /// Gathers the statistics of a buffer of UTF-8 bytes, in one pass.
    ///
    /// ## Performance notes
    ///
    /// `tokcount` runs this over every chunk beside the tokenizer, so it is
    /// part of the whole-process speed (`reports/bench.md`, "`tokcount -j 1`
    /// on 40 MB within 10% of the in-process count"). Eight bytes a step,
    /// with a branch on whether the word held a line feed, took 9% of
    /// `tokcount -j 1` on the 40 MB English corpus (`perf record`, about
    /// 11 ms). Then 32 bytes a step in Swift, the line-feed marks summed
    /// lane-wise and added up by one multiply (the baseline x86-64 target
    /// has no `popcnt`, so a population count of a packed mask compiled to
    /// a dozen instructions): 3.9% (issue 41, 256 KB blocks). Swift's SIMD
    /// types do not get further here: `pointwiseMin` stays a call and `any`
    /// a loop over the lanes. So ASCII runs now go to C (`ck_ascii_blocks`,
    /// SSE2 on x86-64 and NEON on arm64, 64 bytes a step), which stops at
    /// the exact byte that is not ASCII or is NUL; that character is
    /// decoded here and the run resumes right after it. English has a
    /// character outside ASCII in 5% of its 64-byte blocks (curly quotes,
    /// dashes): a first version stopped at the block and left the whole
    /// block to the Swift steps, which then took as long as the C run
    /// (1.5% each). Now, `perf record` over 6 runs of `tokcount -e
    /// cl100k_base -j 1` on the 40 MB English corpus: 3.99% → 2.12% of the
    /// samples (1.70% in C), about 2.3 ms of 122. Not done: an AVX2 tier
    /// (run-time dispatch for at most 1 ms more).
    public init(scanning text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        bytes = text.count
        let n = text.count
        var i = 0
        var chars = 0
        var charsAtLastNewline = -1
        var lines = 0
        var cjk = 0
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let newlineBytes: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        // Marks (high bit of each byte) the bytes of `x` that are zero, exactly.
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x | low7) }
        // Where the vector scan may be tried again: past the byte that stopped it.
        var vectorFrom = 0
        while i < n {
            if i >= vectorFrom && i &+ 64 <= n && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & highBits == 0 {
                let run = ck_ascii_blocks(base + i, n &- i)
                lines &+= Int(run.newlines)
                if run.last_newline >= 0 { charsAtLastNewline = chars &+ run.last_newline &+ 1 }
                chars &+= Int(run.scanned)
                i &+= Int(run.scanned)
                // The byte that stopped it (not ASCII, or a NUL), or the last
                // block of under 64 bytes, is for the steps below.
                vectorFrom = i &+ 1
                continue
            }
            if i &+ 8 <= n {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & highBits == 0 {
                    let nul = zeroBytes(word)
                    if nul != 0 && firstNUL == nil { firstNUL = i &+ (nul.trailingZeroBitCount >> 3) }
                    let feeds = zeroBytes(word ^ newlineBytes)
                    if feeds != 0 {
                        lines &+= feeds.nonzeroBitCount
                        charsAtLastNewline = chars &+ ((63 &- feeds.leadingZeroBitCount) >> 3) &+ 1
                    }
                    chars &+= 8
                    i &+= 8
                    continue
                }
            }
            let b0 = base[i]
            if b0 < 0x80 {
                if b0 == 0x0A { lines &+= 1; charsAtLastNewline = chars &+ 1 }
                if b0 == 0 && firstNUL == nil { firstNUL = i }
                chars &+= 1
                i &+= 1
                continue
            }
            let (scalar, length) = UTF8Decoder.multiByteScalar(base, at: i, end: n, lead: UInt32(b0))
            if length == 0 {
                if firstInvalidUTF8 == nil { firstInvalidUTF8 = i }
                chars &+= 1
                i &+= 1
                continue
            }
            if Self.isCJK(scalar) { cjk &+= 1 }
            chars &+= 1
            i &+= length
        }
        characters = chars
        newlines = lines
        charactersAfterLastNewline = charsAtLastNewline < 0 ? chars : chars &- charsAtLastNewline
        cjkCharacters = cjk
    }

    /// The statistics of this text followed by `next`, as if both had been
    /// scanned as one (offsets in `next` are shifted by this text's bytes).
    public mutating func append(_ next: TextStats) {
        if firstInvalidUTF8 == nil, let k = next.firstInvalidUTF8 { firstInvalidUTF8 = bytes + k }
        if firstNUL == nil, let k = next.firstNUL { firstNUL = bytes + k }
        charactersAfterLastNewline = next.newlines > 0 ? next.charactersAfterLastNewline : charactersAfterLastNewline + next.characters
        bytes += next.bytes
        characters += next.characters
        newlines += next.newlines
        cjkCharacters += next.cjkCharacters
    }

    /// Whether the scalar value `v` is kana, a CJK ideograph (with extensions
    /// and compatibility forms) or a hangul syllable: what `cjkCharacters` counts.
    @inline(__always)
    public static func isCJK(_ v: UInt32) -> Bool {
        (0x3040...0x30FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v) || (0x20000...0x3FFFF).contains(v)
    }
}
