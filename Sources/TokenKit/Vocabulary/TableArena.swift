import Foundation

/// One block of memory holding several flat tables back to back, each at an
/// 8-byte-aligned offset.
///
/// The block is also the tables' binary form: `VocabularyCache` writes it to
/// disk as is and reads it back into a fresh block, so loading a prepared
/// vocabulary is one read instead of parsing and rebuilding every table.
final class TableArena: @unchecked Sendable {
    // @unchecked Sendable: the block is written only while its tables are built, before the arena is shared; afterwards every thread only reads it.
    let base: UnsafeMutableRawPointer
    let size: Int
    /// The mapped file this arena is a slice of, if it was loaded; nil when it owns its memory.
    private let mapping: MappedFile?

    /// A zero-filled block (zero is "empty" in every table that uses the arena).
    init(size: Int) {
        self.size = size
        base = .allocate(byteCount: max(size, 16), alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 16))
        mapping = nil
    }

    /// `size` bytes at `offset` (a multiple of 8) in a read-only file mapping.
    init(mapping: MappedFile, offset: Int, size: Int) {
        precondition(offset % 8 == 0 && offset + size <= mapping.count)
        self.mapping = mapping
        self.size = size
        // Mutable only in type: a loaded arena is read, never written (the
        // mapping is read-only, so a write would fault rather than corrupt).
        base = UnsafeMutableRawPointer(mutating: mapping.base + offset)
    }

    deinit { if mapping == nil { base.deallocate() } }

    /// The typed table that starts `offset` bytes into the block.
    @inline(__always)
    func table<T>(_: T.Type, at offset: Int) -> UnsafeMutablePointer<T> {
        (base + offset).assumingMemoryBound(to: T.self)
    }

    /// Checksum of the whole block, recorded next to its binary form: four
    /// independent lanes of eight bytes, so it runs at memory speed.
    func checksum() -> UInt64 {
        Self.checksum(UnsafeRawPointer(base), size)
    }

    /// The checksum of any `size` bytes at `base`. With `mapping`, the block's
    /// pages are handed back to the page cache a mebibyte at a time once read
    /// (`MappedFile.release`), so checking a large mapped table does not make
    /// the whole table resident; the pages that lookups need come back when touched.
    static func checksum(_ base: UnsafeRawPointer, _ size: Int, releasingFrom mapping: MappedFile? = nil) -> UInt64 {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, UInt64(size))
        var i = 0
        var released = 0
        while i + 32 <= size {
            lanes.0 = ((lanes.0 << 5 | lanes.0 >> 59) ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
            lanes.1 = ((lanes.1 << 5 | lanes.1 >> 59) ^ base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* k
            lanes.2 = ((lanes.2 << 5 | lanes.2 >> 59) ^ base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)) &* k
            lanes.3 = ((lanes.3 << 5 | lanes.3 >> 59) ^ base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) &* k
            i += 32
            if let mapping, i - released >= 1 << 20 {
                mapping.release(base + released, i - released)
                released = i
            }
        }
        var tail = Vocabulary.hash(base.assumingMemoryBound(to: UInt8.self) + i, size - i)
        for lane in [lanes.0, lanes.1, lanes.2, lanes.3] { tail = ((tail << 5 | tail >> 59) ^ lane) &* k }
        return tail ^ (tail >> 31)
    }
}

/// Computes where each table of an arena starts, from the tables' sizes alone,
/// so that building and loading agree on the layout without storing it.
struct ArenaLayout {
    private(set) var size = 0

    /// Reserves `count` values of `T` and returns their offset.
    mutating func reserve<T>(_: T.Type, _ count: Int) -> Int {
        let offset = (size + 7) & ~7
        size = offset + MemoryLayout<T>.stride * count
        return offset
    }
}
