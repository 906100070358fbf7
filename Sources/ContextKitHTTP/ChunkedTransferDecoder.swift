/// HTTP/1.1 chunked transfer coding, decoded incrementally: feed the body's
/// bytes as they arrive, get back the payload they complete. Pure, like
/// `ServerSentEventParser`, so any split of the input gives the same output.
struct ChunkedTransferDecoder {
    enum Failure: Error, Equatable { case malformedChunkSize, lineTooLong }

    /// A chunk-size or trailer line longer than this is refused: the line is
    /// held until it ends, so a server that never ends one must not grow it forever.
    static let maximumLineLength = 8192

    private enum State { case size, data(Int), dataEnd, trailer, done }
    private var state = State.size
    private var line: [UInt8] = []

    /// True once the last (zero-size) chunk and its trailer have been read.
    var isComplete: Bool { if case .done = state { return true } else { return false } }

    mutating func feed(_ bytes: some Collection<UInt8>) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i != bytes.endIndex {
            switch state {
            case .size:
                let byte = bytes[i]
                i = bytes.index(after: i)
                guard byte == 0x0A else {
                    line.append(byte)
                    if line.count > Self.maximumLineLength { throw .lineTooLong }
                    continue
                }
                // `1a;extension=x\r` → 0x1a
                let digits = line.prefix { $0 != UInt8(ascii: ";") && $0 != 0x0D && $0 != 0x20 }
                line.removeAll(keepingCapacity: true)
                guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    throw .malformedChunkSize
                }
                state = size == 0 ? .trailer : .data(size)
            case .data(let left):
                let end = bytes.index(i, offsetBy: left, limitedBy: bytes.endIndex) ?? bytes.endIndex
                out.append(contentsOf: bytes[i..<end])
                let taken = bytes.distance(from: i, to: end)
                i = end
                state = taken == left ? .dataEnd : .data(left - taken)
            case .dataEnd:
                // The CRLF after a chunk's data.
                if bytes[i] == 0x0A { state = .size }
                i = bytes.index(after: i)
            case .trailer:
                let byte = bytes[i]
                i = bytes.index(after: i)
                guard byte == 0x0A else {
                    if byte != 0x0D { line.append(byte) }
                    if line.count > Self.maximumLineLength { throw .lineTooLong }
                    continue
                }
                if line.isEmpty { state = .done } else { line.removeAll(keepingCapacity: true) }
            case .done:
                return out
            }
        }
        return out
    }
}
