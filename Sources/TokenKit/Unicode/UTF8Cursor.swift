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

    @inlinable
    init(base: UnsafePointer<UInt8>, end: Int, table: CharacterClassTable) {
        self.base = base
        self.end = end
        self.table = table
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

    /// The end of the run of characters, starting at `i`, that all have one of `wanted`.
    @inlinable @inline(__always)
    func endOfRun(from i: Int, of wanted: CharacterClass) -> Int {
        var j = i
        while j < end {
            let c = character(at: j)
            if c.classes.isDisjoint(with: wanted) { break }
            j &+= c.length
        }
        return j
    }
}
