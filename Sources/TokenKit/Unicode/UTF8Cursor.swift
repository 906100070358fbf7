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
        let (value, length) = decodeMultiByte(at: i, lead: b0)
        if length == 0 { return (0xFFFF_FFFF, [], 1) }
        return (value, table.classes(of: value), length)
    }

    /// The classes of the character at `i`, or `nil` at the end of the text.
    @inlinable @inline(__always)
    func classes(at i: Int) -> CharacterClass? {
        i < end ? character(at: i).classes : nil
    }

    /// Decodes a multi-byte sequence; length 0 means the bytes are not valid UTF-8.
    @inlinable @inline(__always)
    func decodeMultiByte(at i: Int, lead b0: UInt32) -> (UInt32, Int) {
        let remaining = end &- i
        if b0 & 0xE0 == 0xC0 {
            guard b0 >= 0xC2, remaining >= 2 else { return (0, 0) }
            let b1 = UInt32(base[i &+ 1])
            guard b1 & 0xC0 == 0x80 else { return (0, 0) }
            return ((b0 & 0x1F) << 6 | (b1 & 0x3F), 2)
        }
        if b0 & 0xF0 == 0xE0 {
            guard remaining >= 3 else { return (0, 0) }
            let b1 = UInt32(base[i &+ 1]), b2 = UInt32(base[i &+ 2])
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return (0, 0) }
            let value = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)
            guard value >= 0x800, !(0xD800...0xDFFF).contains(value) else { return (0, 0) }
            return (value, 3)
        }
        if b0 & 0xF8 == 0xF0 {
            guard remaining >= 4 else { return (0, 0) }
            let b1 = UInt32(base[i &+ 1]), b2 = UInt32(base[i &+ 2]), b3 = UInt32(base[i &+ 3])
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return (0, 0) }
            let value = (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)
            guard value >= 0x10000, value < 0x110000 else { return (0, 0) }
            return (value, 4)
        }
        return (0, 0)
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
