/// Read-only view of UTF-8 bytes that decodes one character at a time and
/// classifies it, the primitive every pre-tokenizer scanner is written in.
///
/// Bytes that are not valid UTF-8 are read as single characters with no class
/// (they behave like punctuation), which is how a byte-level tokenizer sees them.
@usableFromInline
struct UTF8Cursor {
    @usableFromInline let base: UnsafePointer<UInt8>
    /// One past the last byte the scanner may look at.
    @usableFromInline let end: Int
    @usableFromInline let table: CharacterClassTable
    /// `table`'s classes of runs of three-byte characters, held here so that
    /// a scan loop keeps the pointer in a register.
    @usableFromInline let threeByteRuns: UnsafePointer<UInt8>

    @inlinable
    init(base: UnsafePointer<UInt8>, end: Int, table: CharacterClassTable) {
        self.base = base
        self.end = end
        self.table = table
        self.threeByteRuns = table.threeByteRunClasses
    }

    /// The character starting at byte `i` (which must be `< end`): its code point,
    /// classes and length in bytes.
    @inlinable @inline(__always)
    func character(at i: Int) -> (value: UInt32, classes: CharacterClass, length: Int) {
        let b0 = UInt32(base[i])
        if b0 < 0x80 {
            return (b0, table.classes(ascii: b0), 1)
        }
        let (value, length) = UTF8Decoder.multiByteScalar(base, at: i, end: end, lead: b0)
        if length == 0 { return (0xFFFF_FFFF, [], 1) }
        return (value, table.classes(of: value), length)
    }

    /// The classes of the character at `i`, or `nil` at the end of the text.
    @inlinable @inline(__always)
    func classes(at i: Int) -> CharacterClass? {
        i < end ? character(at: i).classes : nil
    }

    /// The classes of the character at `i` when it is three bytes long and
    /// every character of its run of 16 has the same classes (CJK text is
    /// mostly these), found without decoding it; 0 for any other character
    /// and within four bytes of `end`. One load tests the lead byte and both
    /// continuation bytes.
    @inlinable @inline(__always)
    func uniformThreeByteClasses(at i: Int) -> CharacterClass {
        guard i &+ 4 <= end else { return [] }
        let word = UInt32(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt32.self))
        guard word & 0x00C0_C0F0 == 0x0080_80E0 else { return [] }
        // The code point's bits 4–15: the lead's low four, the second byte's six, two of the third's.
        let run = (word & 0x0F) << 8 | (word >> 6) & 0xFC | (word >> 20) & 0x03
        return CharacterClass(rawValue: threeByteRuns[Int(run)])
    }

    /// The classes and length of the character at `i` (which must be
    /// `< end`), as the scan loops that read runs need them: ASCII from its
    /// table, a three-byte character of a uniform run undecoded, any other
    /// decoded. ASCII is tested first, as in `character(at:)`: testing each
    /// ASCII character for three bytes cost Llama 3's scan of English 6
    /// instructions a byte (cachegrind).
    @inlinable @inline(__always)
    func classesAndLength(at i: Int) -> (classes: CharacterClass, length: Int) {
        let lead = base[i]
        if lead < 0x80 { return (table.classes(ascii: UInt32(lead)), 1) }
        let uniform = uniformThreeByteClasses(at: i)
        if !uniform.isEmpty { return (uniform, 3) }
        let c = character(at: i)
        return (c.classes, c.length)
    }

    /// The end of the run of characters, starting at `i`, that all have one of `wanted`.
    @inlinable @inline(__always)
    func endOfRun(from i: Int, of wanted: CharacterClass) -> Int {
        var j = i
        while j < end {
            let c = classesAndLength(at: j)
            if c.classes.isDisjoint(with: wanted) { break }
            j &+= c.length
        }
        return j
    }
}
