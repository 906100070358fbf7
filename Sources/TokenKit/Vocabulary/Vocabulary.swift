import Foundation

/// The token byte strings of a byte-level BPE vocabulary, indexed both ways:
/// id → bytes, and bytes → id through an open-addressing hash table.
///
/// Everything lives in flat tables inside one `TableArena` (byte buffer,
/// offsets, hash slots, and direct tables for one- and two-byte tokens) so
/// that the whole vocabulary can be saved and loaded as one block
/// (`VocabularyCache`); hashing `[UInt8]` keys in a `Dictionary` is several
/// times slower on the hot path.
///
/// Looking up a piece is the hot path of counting English. Each hash slot
/// holds the token's first eight bytes, its length, id and byte offset, so a
/// token of up to eight bytes (most of them) is found with one memory access
/// and no comparison loop; a longer one compares the rest in place.
@usableFromInline
final class Vocabulary: @unchecked Sendable {
    // @unchecked Sendable: filled in init and given its merge tables by `attach` before it is shared; read-only from then on.
    /// One more than the largest id (ids may have gaps).
    let idCount: Int
    /// How many ids have bytes.
    let tokenCount: Int

    /// The sizes that fix the arena's layout; stored with its binary form.
    struct Shape: Equatable {
        var idCount: Int
        var tokenCount: Int
        var byteCount: Int
        var slotCapacity: Int
    }

    let shape: Shape
    let arena: TableArena
    private let bytes: UnsafeMutablePointer<UInt8>
    private let offsets: UnsafeMutablePointer<UInt32>  // idCount + 1; equal neighbours = no token
    private let slots: UnsafeMutablePointer<UInt64>  // pairs: first 8 bytes, offset << 32 | length << 24 | (id + 1); 0 = empty
    private let mask: Int
    private let byteIDs: UnsafeMutablePointer<UInt32>  // id of each single byte, or .max
    private let pairIDs: UnsafeMutablePointer<UInt32>  // id of each two-byte string (b0 << 8 | b1), or .max

    /// The tables of the linear-time encoder, when this vocabulary has them
    /// (`MergeTables.build` proves they apply). Set once, before the vocabulary
    /// is shared, by whoever prepares it (`OpenAIEncoding`, `VocabularyCache`).
    private(set) var mergeTables: MergeTables?

    /// Builds the table from `(bytes, id)` pairs stored in one flat buffer.
    ///
    /// - Parameters:
    ///   - storage: all token bytes, back to back.
    ///   - entries: each token's `(offset, length, id)` into `storage`.
    /// - Returns: the vocabulary, or the index into `entries` of the first
    ///   duplicate id or duplicate byte string, or of an id too large (so
    ///   loaders can name the line).
    static func build(storage: [UInt8], entries: [(offset: Int, length: Int, id: Int)]) -> Result<Vocabulary, DuplicateEntry> {
        var maxID = -1
        for (index, e) in entries.enumerated() {
            // A hash slot keeps id + 1 in 24 bits.
            if e.id >= (1 << 24) - 1 { return .failure(DuplicateEntry(index: index, reason: "id \(e.id) is too large (at most \((1 << 24) - 2))")) }
            maxID = max(maxID, e.id)
        }
        var capacity = 16
        while capacity < entries.count * 2 { capacity <<= 1 }
        let shape = Shape(idCount: maxID + 1, tokenCount: entries.count, byteCount: storage.count, slotCapacity: capacity)
        let vocabulary = Vocabulary(shape: shape, arena: TableArena(size: Self.layout(shape).size))
        return vocabulary.fill(storage: storage, entries: entries).map { vocabulary }
    }

    /// An entry the tables cannot hold: one that repeats an id or a byte string
    /// seen before it, or has an id too large.
    struct DuplicateEntry: Error {
        let index: Int
        let reason: String
    }

    /// Offsets of each table in the arena.
    struct Layout {
        var size = 0
        var slots = 0, offsets = 0, byteIDs = 0, pairIDs = 0, bytes = 0
    }

    static func layout(_ shape: Shape) -> Layout {
        var a = ArenaLayout()
        var l = Layout()
        l.slots = a.reserve(UInt64.self, 2 * shape.slotCapacity)
        l.offsets = a.reserve(UInt32.self, shape.idCount + 1)
        l.byteIDs = a.reserve(UInt32.self, 256)
        l.pairIDs = a.reserve(UInt32.self, 1 << 16)
        l.bytes = a.reserve(UInt8.self, shape.byteCount)
        l.size = a.size
        return l
    }

    /// Wraps an arena holding this shape's tables, filled or about to be.
    init(shape: Shape, arena: TableArena) {
        let l = Self.layout(shape)
        precondition(arena.size == l.size, "arena does not match the vocabulary's shape")
        self.shape = shape
        self.arena = arena
        idCount = shape.idCount
        tokenCount = shape.tokenCount
        mask = shape.slotCapacity - 1
        slots = arena.table(UInt64.self, at: l.slots)
        offsets = arena.table(UInt32.self, at: l.offsets)
        byteIDs = arena.table(UInt32.self, at: l.byteIDs)
        pairIDs = arena.table(UInt32.self, at: l.pairIDs)
        bytes = arena.table(UInt8.self, at: l.bytes)
    }

    /// Attaches the linear-time encoder's tables; only before the vocabulary is shared.
    func attach(_ tables: MergeTables) {
        precondition(mergeTables == nil && tables.idCount == idCount)
        mergeTables = tables
    }

    private func fill(storage: [UInt8], entries: [(offset: Int, length: Int, id: Int)]) -> Result<Void, DuplicateEntry> {
        byteIDs.update(repeating: .max, count: 256)
        pairIDs.update(repeating: .max, count: 1 << 16)
        // Lay the bytes out in id order so that offsets[id]..<offsets[id + 1] is the token.
        var order = Array(entries.indices)
        order.sort { entries[$0].id < entries[$1].id }
        var seen = -1
        var cursor = 0
        var lastID = -1
        for index in order {
            let e = entries[index]
            if e.id == lastID { return .failure(DuplicateEntry(index: index, reason: "id \(e.id) appears twice")) }
            while seen < e.id { seen += 1; offsets[seen] = UInt32(cursor) }
            storage.withUnsafeBufferPointer { (bytes + cursor).update(from: $0.baseAddress! + e.offset, count: e.length) }
            cursor += e.length
            lastID = e.id
        }
        while seen < idCount { seen += 1; offsets[seen] = UInt32(cursor) }
        // File order, so that the later of two equal lines is the one named.
        for index in entries.indices {
            let id = entries[index].id
            let start = bytes + Int(offsets[id])
            let length = Int(offsets[id + 1]) - Int(offsets[id])
            if length == 0 { return .failure(DuplicateEntry(index: index, reason: "token \(id) has no bytes")) }
            if self.id(of: UnsafePointer(start), count: length) != nil {
                return .failure(DuplicateEntry(index: index, reason: "token \(id) repeats the bytes of an earlier token"))
            }
            if length == 1 { byteIDs[Int(start[0])] = UInt32(id) }
            if length == 2 { pairIDs[Int(start[0]) << 8 | Int(start[1])] = UInt32(id) }
            if length <= 2 { continue }
            let (word, h) = Self.key(UnsafePointer(start), length)
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[2 &* slot &+ 1] != 0 { slot = (slot + 1) & mask }
            slots[2 &* slot] = word
            slots[2 &* slot &+ 1] = UInt64(offsets[id]) << 32 | UInt64(min(length, 255)) << 24 | UInt64(id + 1)
        }
        return .success(())
    }

    /// The id of the token with exactly these bytes, if there is one.
    @inline(__always)
    func id(of start: UnsafePointer<UInt8>, count: Int) -> UInt32? {
        let id = rawID(of: start, count: count)
        return id == .max ? nil : id
    }

    /// `id(of:count:)` with `.max` for "no token", which keeps the hot loops free of optionals.
    @inline(__always)
    func rawID(of start: UnsafePointer<UInt8>, count: Int) -> UInt32 {
        if count <= 2 { return shortID(of: start, count: count) }
        let (word, h) = Self.key(start, count)
        let length = UInt64(min(count, 255))
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let meta = slots[2 &* slot &+ 1]
            if meta == 0 { return .max }
            if slots[2 &* slot] == word && (meta >> 24) & 0xFF == length {
                let id = UInt32(truncatingIfNeeded: meta & 0xFF_FFFF) &- 1
                if count <= 8 { return id }
                if Self.equal(bytes + Int(meta >> 32) + 8, start + 8, count &- 8) && (count < 255 || self.length(of: id) == count) { return id }
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// `rawID` of a string of one or two bytes (`count` is 1 or 2): one load
    /// from a direct table, small enough to inline anywhere.
    @inline(__always)
    func shortID(of start: UnsafePointer<UInt8>, count: Int) -> UInt32 {
        count == 1 ? byteIDs[Int(start[0])] : pairIDs[Int(start[0]) << 8 | Int(start[1])]
    }

    /// A byte string's first eight bytes (zero-padded, read without going past
    /// its end) and its hash.
    @inline(__always)
    static func key(_ p: UnsafePointer<UInt8>, _ n: Int) -> (word: UInt64, hash: UInt64) {
        let raw = UnsafeRawPointer(p)
        if n >= 8 {
            let word = raw.loadUnaligned(as: UInt64.self)
            return (word, n == 8 ? mix(word, 8) : hash(p, n))
        }
        let word: UInt64
        if n >= 4 {
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
            word = low | high << UInt64((n &- 4) &* 8)
        } else {
            var w: UInt64 = 0
            for i in 0..<n { w |= UInt64(p[i]) << UInt64(i &* 8) }
            word = w
        }
        return (word, mix(word, n))
    }

    @inline(__always)
    private static func mix(_ word: UInt64, _ n: Int) -> UInt64 {
        let h = (word ^ UInt64(truncatingIfNeeded: n) << 59) &* 0x9E37_79B9_7F4A_7C15
        return h ^ (h >> 29)
    }

    /// Byte equality eight bytes at a time (the last word overlapping), without a call.
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        if n < 8 {
            for i in 0..<n where a[i] != b[i] { return false }
            return true
        }
        var i = 0
        while i &+ 8 < n {
            if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i &+= 8
        }
        return ra.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == rb.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    }

    /// The bytes of token `id`, or `nil` if the vocabulary has no such id.
    func bytes(of id: Int) -> UnsafeBufferPointer<UInt8>? {
        guard id >= 0, id < idCount else { return nil }
        let o = Int(offsets[id]), e = Int(offsets[id + 1])
        return e > o ? UnsafeBufferPointer(start: bytes + o, count: e - o) : nil
    }

    /// The length in bytes of token `id` (0 for an id without bytes); no bounds check.
    @inline(__always)
    func length(of id: UInt32) -> Int {
        Int(offsets[Int(id) &+ 1]) &- Int(offsets[Int(id)])
    }

    /// `idCount + 1` offsets into the byte buffer: token `id` is `offsets[id]..<offsets[id + 1]`.
    var offsetTable: UnsafePointer<UInt32> { UnsafePointer(offsets) }

    /// The bytes of token `id` as a pointer and length; no bounds check.
    @inline(__always)
    func rawBytes(of id: Int) -> (UnsafePointer<UInt8>, Int) {
        let o = Int(offsets[id])
        return (UnsafePointer(bytes + o), Int(offsets[id &+ 1]) &- o)
    }

    /// A fast 64-bit hash of a byte string, eight bytes at a time.
    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = UInt64(truncatingIfNeeded: n) &* k
        var i = 0
        let raw = UnsafeRawPointer(p)
        while i &+ 8 <= n {
            h = ((h << 5 | h >> 59) ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
            i &+= 8
        }
        if i < n {
            var w: UInt64 = 0
            while i < n { w = w << 8 | UInt64(p[i]); i &+= 1 }
            h = ((h << 5 | h >> 59) ^ w) &* k
        }
        return h ^ (h >> 31)
    }
}
