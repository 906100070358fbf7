/// The one UTF-8 decoder: the scalar a sequence of bytes starts with, read the
/// way a byte-level tokenizer sees text. The pre-tokenizer scanners
/// (`UTF8Cursor`) and ContextKit's text statistics both decode through it, so
/// they agree on what a character is.
///
/// A sequence that is not valid UTF-8 (a stray continuation byte, an overlong
/// form, a surrogate, a value past U+10FFFF, or a sequence cut off by `end`)
/// decodes with length 0; callers read its first byte as a character of its own.
@usableFromInline
package enum UTF8Decoder {
    /// The scalar starting at byte `i` (which must be `< end`) and its length
    /// in bytes; length 0 when the bytes there are not valid UTF-8.
    @inlinable @inline(__always)
    package static func scalar(_ base: UnsafePointer<UInt8>, at i: Int, end: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(base[i])
        if b0 < 0x80 { return (b0, 1) }
        return multiByteScalar(base, at: i, end: end, lead: b0)
    }

    /// `scalar(_:at:end:)` for a lead byte `b0` of 0x80 or more (the ASCII
    /// test is the caller's, whose fast path has usually made it already).
    @inlinable @inline(__always)
    package static func multiByteScalar(_ base: UnsafePointer<UInt8>, at i: Int, end: Int, lead b0: UInt32) -> (value: UInt32, length: Int) {
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
}
