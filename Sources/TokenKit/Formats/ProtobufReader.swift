/// Reads the protocol-buffer wire format (what a SentencePiece `.model` file
/// is) from a byte buffer, one field at a time, without a schema: the caller
/// knows which field numbers it wants and skips the rest.
///
/// Every read is bounds-checked; a varint longer than ten bytes, a length
/// past the end of the message or an unknown wire type is a `Failure` with
/// the offset where it happened, which the format reader turns into a message
/// naming the file.
struct ProtobufReader {
    /// How a field's value is written.
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
    }

    /// A field's number, wire type and where its value is.
    struct Field {
        let number: UInt64
        let wireType: WireType
        /// The offset of the tag, for messages.
        let offset: Int
        /// For `varint`: the value; for `fixed32`/`fixed64`: its bits.
        let scalar: UInt64
        /// For `lengthDelimited`: the value's bytes (offsets into the reader's buffer).
        let range: Range<Int>

        /// The value as protobuf's `int32` (a negative number is written as ten bytes of two's complement).
        var int32: Int32 { Int32(truncatingIfNeeded: scalar) }
        /// The value as a `float` (`fixed32`).
        var float: Float { Float(bitPattern: UInt32(truncatingIfNeeded: scalar)) }
        var bool: Bool { scalar != 0 }
    }

    /// What is wrong at `offset`.
    struct Failure: Error {
        let offset: Int
        let reason: String
    }

    let bytes: UnsafeRawBufferPointer
    /// Where the next field starts.
    private(set) var offset: Int
    /// The end of the message being read.
    let end: Int

    /// A reader of the message `bytes[range]`.
    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) {
        self.bytes = bytes
        offset = range?.lowerBound ?? 0
        end = range?.upperBound ?? bytes.count
    }

    /// The next field, or nil at the end of the message.
    mutating func next() throws(Failure) -> Field? {
        guard offset < end else { return nil }
        let start = offset
        let tag = try varint()
        guard let wireType = WireType(rawValue: UInt8(tag & 7)) else {
            throw Failure(offset: start, reason: "a field with the unknown wire type \(tag & 7)")
        }
        let number = tag >> 3
        guard number > 0 else { throw Failure(offset: start, reason: "a field numbered 0") }
        switch wireType {
        case .varint:
            return Field(number: number, wireType: wireType, offset: start, scalar: try varint(), range: offset..<offset)
        case .fixed32, .fixed64:
            let size = wireType == .fixed32 ? 4 : 8
            guard end - offset >= size else { throw Failure(offset: offset, reason: "a \(size * 8)-bit value cut off by the end of the message") }
            var value: UInt64 = 0
            for k in 0..<size { value |= UInt64(bytes[offset + k]) << UInt64(8 * k) }
            offset += size
            return Field(number: number, wireType: wireType, offset: start, scalar: value, range: offset..<offset)
        case .lengthDelimited:
            let lengthOffset = offset
            let length = try varint()
            guard length <= UInt64(end - offset) else {
                throw Failure(offset: lengthOffset, reason: "field \(number) declares \(length) bytes but the message has \(end - offset) left")
            }
            let range = offset..<(offset + Int(length))
            offset = range.upperBound
            return Field(number: number, wireType: wireType, offset: start, scalar: 0, range: range)
        case .startGroup, .endGroup:
            throw Failure(offset: start, reason: "a group (wire type \(wireType.rawValue)), which no SentencePiece message uses")
        }
    }

    /// A base-128 varint of at most ten bytes.
    private mutating func varint() throws(Failure) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        let start = offset
        while true {
            guard offset < end else { throw Failure(offset: start, reason: "a varint cut off by the end of the message") }
            let b = bytes[offset]
            offset += 1
            guard shift < 64 else { throw Failure(offset: start, reason: "a varint longer than ten bytes") }
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return value }
            shift += 7
        }
    }
}
