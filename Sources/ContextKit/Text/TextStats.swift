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
    /// with a branch on whether the word holds a line feed, took 9% of
    /// `tokcount -j 1` on the 40 MB English corpus (`perf record`, about
    /// 11 ms). ASCII text now goes 32 bytes a step. A first version packed
    /// the four words' line-feed marks into a 32-bit mask and took its
    /// population count: the baseline x86-64 target has no `popcnt`, so that
    /// compiled to a dozen instructions and the share only fell to 7.7%.
    /// Now the marks are summed lane-wise and added up by one multiply, and
    /// the step only remembers *which* block held the last line feed (a
    /// select, not a branch: English has a line feed in about half of its
    /// 32-byte blocks, a coin toss to the predictor); that one block is
    /// searched once at the end. Both steps find NULs exactly, and the byte
    /// loop handles the rest.
    public init(scanning text: UnsafeBufferPointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        bytes = text.count
        let n = text.count
        var i = 0
        var chars = 0
        var charsAtLastNewline = -1
        // The 32-byte block that holds the last line feed seen, if the last
        // one was seen by the block step, and the characters before it.
        var lastFeedBlock = -1
        var charsAtLastFeedBlock = 0
        var lines = 0
        var cjk = 0
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let newlineBytes: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        // Marks (high bit of each byte) the bytes of `x` that are zero, exactly.
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { ~(((x & low7) &+ low7) | x | low7) }
        // The marks of `zeroBytes` as eight bits, byte k's mark in bit k: the
        // multiply moves bit 8k + 7 to bit 56 + k, and no two products overlap.
        @inline(__always) func packed(_ marks: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: ((marks >> 7) &* 0x0102_0408_1020_4080) >> 56) }
        while i < n {
            if i &+ 32 <= n {
                let p = UnsafeRawPointer(base + i)
                let w0 = p.loadUnaligned(as: UInt64.self), w1 = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                let w2 = p.loadUnaligned(fromByteOffset: 16, as: UInt64.self), w3 = p.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                if (w0 | w1 | w2 | w3) & highBits == 0 {
                    // In ASCII words adding 0x7F to a byte sets its high bit
                    // unless the byte is zero, so these are the zero marks
                    // with no carry between bytes.
                    if (w0 &+ low7) & (w1 &+ low7) & (w2 &+ low7) & (w3 &+ low7) & highBits != highBits && firstNUL == nil {
                        firstNUL =
                            i
                            &+ (packed(zeroBytes(w0)) | packed(zeroBytes(w1)) << 8
                            | packed(zeroBytes(w2)) << 16 | packed(zeroBytes(w3)) << 24).trailingZeroBitCount
                    }
                    let f0 = ~((w0 ^ newlineBytes) &+ low7) & highBits, f1 = ~((w1 ^ newlineBytes) &+ low7) & highBits
                    let f2 = ~((w2 ^ newlineBytes) &+ low7) & highBits, f3 = ~((w3 ^ newlineBytes) &+ low7) & highBits
                    // Each byte lane of the sum is at most 4; the multiply adds the lanes into the top byte.
                    lines &+= Int(truncatingIfNeeded: (((f0 >> 7) &+ (f1 >> 7) &+ (f2 >> 7) &+ (f3 >> 7)) &* 0x0101_0101_0101_0101) >> 56)
                    let hasFeed = f0 | f1 | f2 | f3 != 0
                    lastFeedBlock = hasFeed ? i : lastFeedBlock
                    charsAtLastFeedBlock = hasFeed ? chars : charsAtLastFeedBlock
                    chars &+= 32
                    i &+= 32
                    continue
                }
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
                        lastFeedBlock = -1
                    }
                    chars &+= 8
                    i &+= 8
                    continue
                }
            }
            let b0 = base[i]
            if b0 < 0x80 {
                if b0 == 0x0A { lines &+= 1; charsAtLastNewline = chars &+ 1; lastFeedBlock = -1 }
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
        if lastFeedBlock >= 0 {
            var k = 31
            while base[lastFeedBlock &+ k] != 0x0A { k &-= 1 }
            charsAtLastNewline = charsAtLastFeedBlock &+ k &+ 1
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
