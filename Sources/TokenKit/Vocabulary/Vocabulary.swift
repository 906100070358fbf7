import Foundation

/// The token byte strings of a byte-level BPE vocabulary, indexed both ways:
/// id → bytes, and bytes → id through an open-addressing hash table.
///
/// Everything lives in flat buffers (one byte buffer, one offset array, one slot
/// array) so that a lookup costs a hash of the bytes and usually one probe;
/// hashing `[UInt8]` keys in a `Dictionary` is several times slower on the hot path.
public final class Vocabulary: @unchecked Sendable {
    /// One more than the largest id (ids may have gaps).
    public let idCount: Int
    /// How many ids have bytes.
    public let tokenCount: Int

    private let bytes: UnsafeMutablePointer<UInt8>
    private let offsets: UnsafeMutablePointer<UInt32>   // idCount + 1; equal neighbours = no token
    private let slots: UnsafeMutablePointer<UInt64>     // hash tag << 32 | (id + 1); 0 = empty
    private let mask: Int
    private let byteIDs: UnsafeMutablePointer<UInt32>   // id of each single byte, or .max

    /// Builds the table from `(bytes, id)` pairs stored in one flat buffer.
    ///
    /// - Parameters:
    ///   - storage: all token bytes, back to back.
    ///   - entries: each token's `(offset, length, id)` into `storage`.
    /// - Returns: the vocabulary, or the index into `entries` of the first
    ///   duplicate id or duplicate byte string (so loaders can name the line).
    static func build(storage: [UInt8], entries: [(offset: Int, length: Int, id: Int)]) -> Result<Vocabulary, DuplicateEntry> {
        var maxID = -1
        for e in entries { maxID = max(maxID, e.id) }
        let vocabulary = Vocabulary(idCount: maxID + 1, tokenCount: entries.count, byteCount: storage.count)
        return vocabulary.fill(storage: storage, entries: entries).map { vocabulary }
    }

    /// An entry that repeats an id or a byte string seen before it.
    struct DuplicateEntry: Error {
        let index: Int
        let reason: String
    }

    private init(idCount: Int, tokenCount: Int, byteCount: Int) {
        self.idCount = idCount
        self.tokenCount = tokenCount
        bytes = .allocate(capacity: max(byteCount, 1))
        offsets = .allocate(capacity: idCount + 1)
        offsets.initialize(repeating: 0, count: idCount + 1)
        var capacity = 16
        while capacity < tokenCount * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        byteIDs = .allocate(capacity: 256)
        byteIDs.initialize(repeating: .max, count: 256)
    }

    deinit {
        bytes.deallocate(); offsets.deallocate(); slots.deallocate(); byteIDs.deallocate()
    }

    private func fill(storage: [UInt8], entries: [(offset: Int, length: Int, id: Int)]) -> Result<Void, DuplicateEntry> {
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
            storage.withUnsafeBufferPointer { (bytes + cursor).initialize(from: $0.baseAddress! + e.offset, count: e.length) }
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
            let h = Self.hash(start, length)
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = (h >> 32) << 32 | UInt64(id + 1)
            if length == 1 { byteIDs[Int(start[0])] = UInt32(id) }
        }
        return .success(())
    }

    /// The id of the token with exactly these bytes, if there is one.
    @inline(__always)
    public func id(of start: UnsafePointer<UInt8>, count: Int) -> UInt32? {
        if count == 1 {
            let id = byteIDs[Int(start[0])]
            return id == .max ? nil : id
        }
        let h = Self.hash(start, count)
        let tag = h >> 32
        var slot = Int(truncatingIfNeeded: h) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry >> 32 == tag {
                let id = Int(entry & 0xFFFF_FFFF) &- 1
                let o = Int(offsets[id])
                if Int(offsets[id &+ 1]) &- o == count && memcmp(bytes + o, start, count) == 0 {
                    return UInt32(id)
                }
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// The bytes of token `id`, or `nil` if the vocabulary has no such id.
    public func bytes(of id: Int) -> UnsafeBufferPointer<UInt8>? {
        guard id >= 0, id < idCount else { return nil }
        let o = Int(offsets[id]), e = Int(offsets[id + 1])
        return e > o ? UnsafeBufferPointer(start: bytes + o, count: e - o) : nil
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
