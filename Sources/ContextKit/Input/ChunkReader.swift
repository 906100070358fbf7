import Foundation
import Render

/// Reads a source in blocks and hands out chunks that end at safe cuts
/// (`PieceBoundary`), so each chunk can be tokenized on its own. Memory is a
/// block plus the longest stretch without a safe cut (text with no spaces
/// or line breaks, or a pre-tokenizer with no proven cuts, is kept whole).
///
/// Work is linear in the input however long that stretch is: the buffer
/// holding it doubles its capacity when a block no longer fits (with
/// `realloc`, which on Linux moves a large buffer's pages instead of copying
/// them), and the search for a safe cut starts where the last one stopped,
/// so every byte is moved O(1) times on average and tested as a cut once.
///
/// Performance notes. Keeping released chunks' buffers for the next chunks
/// (instead of a fresh `malloc` each, whose pages the kernel zeroes) was
/// tried: `tokcount -j 1` on 40 MB of English went from 5,394 to 4,377 page
/// faults but not down in CPU time (136-140 ms either way, `perf stat -r
/// 10`), 0.131 → 0.130 s wall in `bench/run --only process`, with 4 MB more
/// peak memory. Rejected.
///
/// Blocks of 256 KB instead of 4 MB (`defaultBlockSize`, issue 41: `tokcount
/// -j 1` on 40 MB within 10% of the in-process count): a chunk read into a
/// buffer that fits in L2 is still there when `TextStats` and the tokenizer
/// read it, and glibc serves a buffer of that size from its heap again
/// instead of mapping fresh pages for each one. `tokcount -e cl100k_base -j 1
/// --json` on the 40 MB English corpus, pinned to one CPU (`perf stat -r 5`):
/// 132.6 → 124.7 ms CPU, 5,477 → 1,566 page faults; wall, median of 9
/// alternated runs by block size: 4 MB 134.8 ms, 2 MB 133.5, 1 MB 132.3,
/// 512 KB 128.3, 256 KB 127.2, 128 KB 127.4. `-j 2` on 100 MB, the same way:
/// 175.5 → 165.6 ms. `bench/run --only process` then: 0.87 of the
/// in-process speed (322.4 against 371.0 MB/s; 0.81 before).
///
/// What is left of the 10% budget (about 11 ms of the in-process 108 ms) is
/// spent before the text is tokenized at all: the process's own start-up
/// with the prepared vocabulary (5.3 ms on 1 KB, the same run), `read(2)`'s
/// copy out of the page cache (about 3 ms: 2.5–2.9% of the samples) and
/// `TextStats` (about 2.5 ms).
///
/// So a file of at least `smallestMappedFile` bytes is mapped, and its
/// chunks point into the mapping (`FileMapping`, guarded against a
/// truncation's SIGBUS; the cuts are tested exactly as on the read path):
/// the copy is gone. The same `perf stat` runs (`-r 8`), alternated with
/// the read path's binary, means of two: 123.9 → 119.7 ms wall, 122.4 →
/// 118.9 ms CPU, page faults 1,564 → 1,752; `-j 2` on the 100 MB corpus
/// 158.3 → 150.7 ms wall, 305 → 290 ms CPU. Peak RSS did not grow (100 MB
/// with `-j 1` 39.6 → 39.3 MB, `-j 2` 48.6 → 45.3 MB), because counted
/// chunks' pages are unmapped as they are released. Smaller files are read
/// as before (not measured mapped: a file of a few blocks has little copy to
/// save, and a folder of small files keeps the path its row was tuned on,
/// `StreamCounter.smallInput`). With the copy gone, `TextStats` is the
/// first to touch a chunk (3.5% of `perf record`'s samples, against 2.1%
/// before). Rejected: the tokenizer reading each chunk before `TextStats`
/// (whose pass would then find it in L2): 119.3 → 118.9 ms wall, within the
/// runs' spread.
package struct ChunkReader {
    /// Bytes read per round unless a caller asks for another size.
    package static let defaultBlockSize = 256 << 10
    /// Files this large are mapped rather than read (`FileMapping`).
    package static let smallestMappedFile = 1 << 20

    /// A chunk's bytes; the receiver owns them and must call `release`.
    package struct Chunk: @unchecked Sendable {
        /// The whole buffer; the chunk's text is its first `count` bytes.
        package let bytes: UnsafeRawBufferPointer
        package let count: Int
        package let isLast: Bool
        /// The mapped file the bytes are in; nil when they are a buffer of their own.
        private let mapping: FileMapping?
        /// Whether the bytes are in a mapped file rather than a buffer of their own.
        var isMapped: Bool { mapping != nil }
        package var text: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
        }
        init(bytes: UnsafeRawBufferPointer, count: Int, isLast: Bool, mapping: FileMapping? = nil) {
            self.bytes = bytes
            self.count = count
            self.isLast = isLast
            self.mapping = mapping
        }

        /// Throws, for a chunk of a mapped file, when the file lost bytes
        /// to a truncation since it was mapped: the chunk may have been
        /// counted with zeros in their place. Call it after counting.
        package func checkUnchanged() throws {
            try mapping?.checkUnchanged()
        }

        /// Frees the buffer (it comes from `malloc`, so that it could grow with
        /// `realloc`), or unmaps a mapped chunk's pages and those before it
        /// (chunks are released in order), so memory stays at the chunks in
        /// flight however large the file.
        package func release() {
            if let mapping, let start = text.baseAddress, let base = mapping.bytes.baseAddress {
                mapping.release(before: start - base + count)
            } else {
                free(UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
        }
    }

    /// Bytes moved into a bigger buffer and positions tested as cuts, so far.
    /// Tests check that each stays within a small multiple of the input.
    struct Work {
        var bytesMoved = 0
        var positionsTested = 0
    }

    private var source: ByteSource
    private let boundary: PieceBoundary?
    /// The source's bytes, when it is a file large enough to map (`ByteSource.mapping`).
    private let mapping: FileMapping?
    private let blockSize: Int
    /// Holds the carried stretch (bytes after the last cut) in its first `carryCount` bytes.
    private var buffer: UnsafeMutableRawPointer?
    private var capacity = 0
    private var carryCount = 0
    private var finished = false
    /// New bytes to read in the next round: a small file's known size, then `blockSize`.
    private var nextRead: Int
    /// Bytes handed out so far.
    package private(set) var offset = 0
    private(set) var work = Work()

    /// - Parameter sizeHint: the input's size when known, so a small file
    ///   gets a buffer of its size rather than a whole block; `mapFrom` the
    ///   smallest file that is mapped rather than read (`FileMapping`).
    package init(
        source: ByteSource, boundary: PieceBoundary?, blockSize: Int = defaultBlockSize, sizeHint: Int? = nil,
        mapFrom: Int = smallestMappedFile
    ) {
        var source = source
        mapping = source.mapping(atLeast: mapFrom)
        self.source = source
        self.boundary = boundary
        let block = max(blockSize, 64)
        self.blockSize = block
        // One byte more than the size, so the first read already sees the end.
        nextRead = sizeHint.map { min(block, $0 + 1) } ?? block
    }

    /// The next chunk, or nil after the last one. An empty input gives one empty last chunk.
    package mutating func next() throws -> Chunk? {
        guard !finished else { return nil }
        if let mapping { return nextMapped(in: mapping) }
        while true {
            let wanted = carryCount + nextRead
            nextRead = blockSize
            if wanted > capacity {
                // Doubling keeps the moves linear; growing by a block would move the
                // whole stretch once per block (quadratic on one giant piece).
                let bigger = max(wanted, 2 * capacity)
                guard let grown = realloc(buffer, bigger) else {
                    let error = StretchTooLongError(offset: offset, bytes: carryCount, wanted: bigger)
                    close()
                    throw error
                }
                work.bytesMoved += carryCount
                buffer = grown
                capacity = bigger
            }
            let base = buffer!
            // Positions before this one hold no safe cut: tested in an earlier
            // round with all the bytes their test reads (up to two after them).
            let notBefore = max(1, carryCount - 2)
            var filled = carryCount
            var atEnd = false
            do {
                while filled < wanted {
                    let n = try source.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: wanted - filled))
                    if n == 0 { atEnd = true; break }
                    filled += n
                }
            } catch {
                close()
                throw error
            }
            if atEnd {
                finished = true
                offset += filled
                return hand(count: filled, isLast: true)
            }
            // Only positions whose test sees every byte it reads: a cut tested at
            // the last two bytes could split a multi-byte space still unread.
            let text = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: filled)
            work.positionsTested += max(0, filled - 2 - notBefore)
            guard let cut = boundary?.lastSafe(in: text, before: filled - 2, notBefore: notBefore) else {
                carryCount = filled  // no safe cut yet: keep all of it and read on
                continue
            }
            // The bytes after the cut (at most a block and two: the stretch carried
            // into this round had no safe cut) start the next buffer; the chunk
            // keeps this one.
            let rest = filled - cut
            guard let tail = malloc(rest + blockSize) else {
                let error = StretchTooLongError(offset: offset + cut, bytes: rest, wanted: rest + blockSize)
                close()
                throw error
            }
            tail.copyMemory(from: base + cut, byteCount: rest)
            let chunk = hand(count: cut, isLast: false)
            buffer = tail
            capacity = rest + blockSize
            carryCount = rest
            offset += cut
            return chunk
        }
    }

    /// The next chunk of a mapped file: the bytes from `offset` to the last
    /// safe cut in the next block, tested as the buffered path tests them, with
    /// nothing copied. A block with no safe cut doubles until one has one, so
    /// every position is still tested once.
    private mutating func nextMapped(in mapping: FileMapping) -> Chunk {
        let all = mapping.bytes
        let start = offset
        var end = boundary == nil ? all.count : min(all.count, start + blockSize)
        var notBefore = 1
        while end < all.count {
            let text = UnsafeBufferPointer(rebasing: all[start..<end])
            work.positionsTested += max(0, text.count - 2 - notBefore)
            if let cut = boundary?.lastSafe(in: text, before: text.count - 2, notBefore: notBefore) {
                offset = start + cut
                return Chunk(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[..<cut])), count: cut, isLast: false, mapping: mapping)
            }
            notBefore = max(1, text.count - 2)
            end = min(all.count, start + 2 * (end - start))
        }
        finished = true
        offset = all.count
        let text = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[start...]))
        return Chunk(bytes: text, count: text.count, isLast: true, mapping: mapping)
    }

    /// Gives the buffer away as a chunk of its first `count` bytes.
    private mutating func hand(count: Int, isLast: Bool) -> Chunk {
        let chunk = Chunk(bytes: UnsafeRawBufferPointer(start: buffer, count: capacity), count: count, isLast: isLast)
        buffer = nil
        capacity = 0
        carryCount = 0
        return chunk
    }

    /// Frees what is still held (call when abandoning a source early).
    package mutating func close() {
        free(buffer)
        buffer = nil
        capacity = 0
        carryCount = 0
        finished = true
    }
}

/// A stretch without a safe cut (one pre-tokenizer piece, such as a run of
/// one letter, or any text when no cut is proven) grew past the memory that
/// could be had: it is counted whole or not at all.
struct StretchTooLongError: Error, CustomStringConvertible {
    /// Bytes of the input before the stretch.
    let offset: Int
    /// Bytes of the stretch read so far.
    let bytes: Int
    /// The buffer that could not be allocated, in bytes.
    let wanted: Int
    /// The 1-based line where the stretch starts, when the reader's user knows it.
    var line: Int?

    var description: String {
        let start = line.map { "line \(NumberFormat.grouped($0))" } ?? "byte offset \(NumberFormat.grouped(offset))"
        return "\(start): a single run of \(NumberFormat.grouped(bytes)) bytes without a break "
            + "(one pre-tokenizer piece, which is counted whole); reading on needs \(NumberFormat.grouped(wanted)) "
            + "bytes of memory, more than can be had"
    }
}
