/// Reads a source in blocks and hands out chunks that end at safe cuts
/// (`PieceBoundary`), so each chunk can be tokenized on its own. Memory is a
/// block plus the longest stretch without a safe cut (text with no spaces
/// or line breaks, or a pre-tokenizer with no proven cuts, is kept whole).
public struct ChunkReader {
    /// A chunk's bytes; the receiver owns them and must call `release`.
    public struct Chunk: @unchecked Sendable {
        public let bytes: UnsafeMutableRawBufferPointer
        public let count: Int
        public let isLast: Bool
        public var text: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
        }
        public func release() { bytes.deallocate() }
    }

    private var source: ByteSource
    private let boundary: PieceBoundary?
    private let blockSize: Int
    private var carry: UnsafeMutableRawBufferPointer?
    private var carryCount = 0
    private var finished = false
    /// Capacity of the next read: a small file's known size, then `blockSize`.
    private var nextCapacity: Int
    /// Bytes handed out so far.
    public private(set) var offset = 0

    /// - Parameter sizeHint: the input's size when known, so a small file
    ///   gets a buffer of its size rather than a whole block.
    public init(source: ByteSource, boundary: PieceBoundary?, blockSize: Int = 4 << 20, sizeHint: Int? = nil) {
        self.source = source
        self.boundary = boundary
        let block = max(blockSize, 64)
        self.blockSize = block
        // One byte more than the size, so the first read already sees the end.
        nextCapacity = sizeHint.map { min(block, $0 + 1) } ?? block
    }

    /// The next chunk, or nil after the last one. An empty input gives one empty last chunk.
    public mutating func next() throws -> Chunk? {
        guard !finished else { return nil }
        while true {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: carryCount + nextCapacity, alignment: 16)
            nextCapacity = blockSize
            if let carry {
                buffer.baseAddress!.copyMemory(from: carry.baseAddress!, byteCount: carryCount)
                carry.deallocate()
                self.carry = nil
            }
            var filled = carryCount
            var atEnd = false
            do {
                while filled < buffer.count {
                    let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                    if n == 0 { atEnd = true; break }
                    filled += n
                }
            } catch {
                buffer.deallocate()
                finished = true
                throw error
            }
            let text = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: filled)
            if atEnd {
                finished = true
                offset += filled
                carryCount = 0
                return Chunk(bytes: buffer, count: filled, isLast: true)
            }
            guard let cut = boundary?.lastSafe(in: text, before: filled) else {
                carry = buffer          // no safe cut yet: keep all of it and read on
                carryCount = filled
                continue
            }
            let rest = filled - cut
            let tail = UnsafeMutableRawBufferPointer.allocate(byteCount: max(rest, 1), alignment: 16)
            tail.baseAddress!.copyMemory(from: buffer.baseAddress! + cut, byteCount: rest)
            carry = tail
            carryCount = rest
            offset += cut
            return Chunk(bytes: buffer, count: cut, isLast: false)
        }
    }

    /// Frees what is still held (call when abandoning a source early).
    public mutating func close() {
        carry?.deallocate()
        carry = nil
        finished = true
    }
}
