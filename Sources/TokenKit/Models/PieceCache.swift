import Foundation

/// A memo of pre-tokenized pieces and their tokens: short pieces (3 to 16
/// bytes) in a small two-way set-associative table that a tokenizer keeps
/// between calls (`Pool`), longer ones (to 1 KB) in a second table, for one
/// call, whose tokens live in an arena.
///
/// ## Why it is faster
///
/// Counting English is bound by memory latency, not by work: nearly every
/// piece is one vocabulary lookup, and cl100k's hash table (4 MB, o200k's
/// 8 MB) is far larger than a core's L2 cache, so each lookup is a cache miss.
/// Text is Zipfian: a few thousand distinct pieces make up most of a long
/// text. The short table holds 16,384 of them in 512 KB, which stays in L2,
/// and remembers the whole result of a piece — up to four tokens — so a word
/// of several tokens skips the backtracking encoder's trie walk as well. CJK
/// text is mostly long pieces (runs of ideographs with no spaces), each a
/// backtracking walk of many tokens; the long table replays a run seen before.
///
/// ## Why it never changes an id
///
/// A short entry is keyed by the piece's exact bytes (its length and all of
/// its at most 16 bytes, as two overlapping 8-byte words). A long entry is
/// found by hash and length and then compared byte for byte with the place in
/// the same text where it was seen. Either way an entry holds what the encoder
/// returned for those very bytes, and byte-pair encoding of a piece depends on
/// nothing else, so a hit returns exactly what the encoder would. A short set
/// holds the two pieces most recently missed there; a long slot, the last.
///
/// ## Memory and worst case
///
/// 512 KB + 512 KB of tables and a 1.5 MB arena (262,144 tokens) per memo,
/// whatever the text, and at most one memo per core per tokenizer: when a long
/// piece's tokens do not fit the arena, the long table is cleared and the
/// arena starts over. A long entry holds a place in its call's text, so it is
/// valid in that call only (`call` tells). Every piece costs at most one
/// lookup more than without the memo, so time stays linear; pieces over 1 KB
/// (adversarial runs) go straight to the encoder.
///
/// ## Performance notes
///
/// Measured with `tokbench` (bench/run's corpora, cl100k, count, CPU time,
/// best of 9, on a machine loaded by other builds): scanning alone runs at
/// about 5× the speed of counting, so the lookup was the cost to cut.
/// - Direct-mapped, 8,192 entries: English +13%, code +38%; two-way at the
///   same size changed little, because the English corpus has 7,320 distinct
///   short pieces and the table thrashed; 16,384 entries: English +60% and
///   code +31% over no memo (79 → 126 and 59 → 78 MB/s under load).
/// - The hit path is inlined into the scan loop and the miss path is not:
///   inlining both left the loop a call with a large prologue.
/// - Pieces of one or two bytes skip the memo: the vocabulary answers them
///   from direct tables with one load.
/// - A short text makes no memo (`minimumText`): zeroing one costs about as
///   much as counting 30 KB of text. It uses a kept one if there is one.
struct PieceCache {
    /// Entries; a power of two.
    static let capacity = 16_384
    /// Texts shorter than this are encoded without the memo.
    static let minimumText = 64 * 1_024
    /// The longest piece kept, in bytes.
    static let maximumPiece = 16
    /// The most tokens an entry holds.
    static let maximumTokens = 4
    /// One more than the largest id a short entry holds (18 bits each); a
    /// piece with a larger id is simply not kept in the short table.
    static let idLimit: UInt32 = 1 << 18

    /// One piece: `head` and `tail` are its first and last eight bytes (for a
    /// piece of under eight bytes, `head` is its bytes zero-padded and `tail`
    /// is 0); `meta` packs its length (5 bits, 0 for an empty slot), its token
    /// count (3 bits), the end of each token but the last (4 bits each, three)
    /// and the first id (18 bits); `more` the next three ids (18 bits each).
    struct Entry {
        var head: UInt64
        var tail: UInt64
        var meta: UInt64
        var more: UInt64
    }

    /// A piece of 17 to `maximumLongPiece` bytes: its hash and length, where in
    /// the text it was seen (to compare the bytes), and its tokens in the arena.
    struct LongEntry {
        var hash: UInt64
        var earlier: Int
        var length: Int32
        var tokenCount: Int32
        var firstToken: Int32
        /// The call that stored it: an entry of an earlier call points into another text.
        var call: UInt32
    }

    /// Long-piece entries; a power of two.
    static let longCapacity = 16_384
    /// The longest piece kept: longer ones are rare outside adversarial text,
    /// and keeping them would hold their tokens for nothing.
    static let maximumLongPiece = 1_024
    /// Tokens the arena holds (ids, and each token's length); when a piece does
    /// not fit, the long entries are all dropped and the arena starts over.
    static let arenaCapacity = 262_144

    let entries: UnsafeMutablePointer<Entry>
    let long: UnsafeMutablePointer<LongEntry>
    let arenaIDs: UnsafeMutablePointer<UInt32>
    let arenaLengths: UnsafeMutablePointer<UInt16>
    var arenaUsed = 0
    /// This call's number (never 0, which marks an empty long entry).
    var call: UInt32 = 1

    /// The tables of one memo, allocated once and zeroed: 512 KB of short
    /// entries (each pair of them, a set, is one 64-byte cache line), 512 KB
    /// of long ones and the 1.5 MB arena.
    final class Storage {
        let cache: PieceCache

        init() {
            let shortBytes = capacity * MemoryLayout<Entry>.stride
            let longBytes = longCapacity * MemoryLayout<LongEntry>.stride
            let raw = UnsafeMutableRawPointer.allocate(byteCount: shortBytes + longBytes, alignment: 64)
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: shortBytes + longBytes)
            cache = PieceCache(entries: raw.bindMemory(to: Entry.self, capacity: capacity),
                               long: (raw + shortBytes).bindMemory(to: LongEntry.self, capacity: longCapacity),
                               arenaIDs: .allocate(capacity: arenaCapacity), arenaLengths: .allocate(capacity: arenaCapacity))
        }

        deinit {
            UnsafeMutableRawPointer(cache.entries).deallocate()
            cache.arenaIDs.deallocate()
            cache.arenaLengths.deallocate()
        }
    }

    /// A tokenizer's memos, kept between calls so that text seen before (the
    /// same document again, messages that share their words) starts warm.
    /// One memo per call in flight: a call takes one, or makes one for a long
    /// text, and gives it back; at most `limit` are kept.
    final class Pool: @unchecked Sendable {
        private let lock = NSLock()
        private var free: [(storage: Storage, call: UInt32)] = []
        /// Memos kept: one per core, for the parallel counter's workers.
        private let limit = max(1, ProcessInfo.processInfo.activeProcessorCount)

        /// Runs `body` with a memo: a kept one, or for a text of at least
        /// `minimumText` bytes a new one; without (nil) for a shorter text
        /// when none is kept, since making one costs more than it saves.
        func with<R>(textBytes: Int, _ body: (UnsafeMutablePointer<PieceCache>?) -> R) -> R {
            lock.lock()
            var taken = free.popLast()
            lock.unlock()
            if taken == nil && textBytes >= PieceCache.minimumText { taken = (Storage(), 0) }
            guard let (storage, lastCall) = taken else { return body(nil) }
            var cache = storage.cache
            // Wrapping past UInt32.max would revive entries of old calls: start over instead.
            if lastCall == .max {
                UnsafeMutableRawPointer(cache.long).initializeMemory(as: UInt8.self, repeating: 0, count: longCapacity * MemoryLayout<LongEntry>.stride)
            }
            cache.call = lastCall == .max ? 1 : lastCall &+ 1
            cache.arenaUsed = 0
            let result = withUnsafeMutablePointer(to: &cache) { body($0) }
            lock.lock()
            if free.count < limit { free.append((storage, cache.call)) }
            lock.unlock()
            return result
        }
    }

    /// The piece's key words and its slot. `n` is 3...16.
    @inline(__always)
    static func key(_ p: UnsafePointer<UInt8>, _ n: Int) -> (head: UInt64, tail: UInt64, slot: Int) {
        let raw = UnsafeRawPointer(p)
        let head: UInt64, tail: UInt64
        if n >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
            head = low | high << UInt64((n &- 4) &* 8)
            tail = 0
        } else {
            head = UInt64(p[0]) | UInt64(p[1]) << 8 | UInt64(p[2]) << 16
            tail = 0
        }
        var h = (head ^ UInt64(truncatingIfNeeded: n) << 58) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ tail ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return (head, tail, Int(truncatingIfNeeded: h >> 40) & (capacity &- 2))
    }

    /// Encodes the piece `base[start..<end]` with `encoder`, through the memo.
    @inline(__always)
    mutating func encode<Encoder: PieceEncoder, Sink: TokenSink>(_ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        guard n > 2 && n <= Self.maximumPiece else {
            if n > Self.maximumPiece && n <= Self.maximumLongPiece {
                encodeLong(encoder, base, start, end, into: &sink)
            } else {
                encoder.encode(base, start, end, into: &sink)
            }
            return
        }
        let (head, tail, slot) = Self.key(base + start, n)
        let first = entries[slot]
        if first.head == head && first.tail == tail && Int(first.meta & 31) == n {
            Self.emit(first, start: start, end: end, into: &sink)
            return
        }
        let second = entries[slot | 1]
        if second.head == head && second.tail == tail && Int(second.meta & 31) == n {
            Self.emit(second, start: start, end: end, into: &sink)
            return
        }
        missed(encoder, base, start, end, head: head, tail: tail, slot: slot, into: &sink)
    }

    /// Encodes a piece the memo does not hold, and keeps its tokens; out of
    /// line, so that the hit path stays small enough to inline in the scan loop.
    @inline(never)
    mutating func missed<Encoder: PieceEncoder, Sink: TokenSink>(_ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                                          head: UInt64, tail: UInt64, slot: Int, into sink: inout Sink) {
        let n = end &- start
        var recorder = Recorder()
        withUnsafeMutablePointer(to: &sink) { inner in
            withUnsafeMutablePointer(to: &recorder) { recording in
                var teeing = TeeingSink(inner: inner, recorder: recording, pieceStart: start)
                encoder.encode(base, start, end, into: &teeing)
            }
        }
        if let meta = recorder.meta(length: n) {
            // The newer piece takes the first way, the one it displaces the second.
            entries[slot | 1] = entries[slot]
            entries[slot] = Entry(head: head, tail: tail, meta: meta, more: recorder.more)
        }
    }

    /// A piece of 17 to `maximumLongPiece` bytes (CJK text is mostly these):
    /// found by hash and length, then compared byte for byte with where it was
    /// seen before in the same text.
    @inline(never)
    mutating func encodeLong<Encoder: PieceEncoder, Sink: TokenSink>(_ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        let hash = Vocabulary.hash(base + start, n)
        let slot = Int(truncatingIfNeeded: hash >> 32) & (Self.longCapacity &- 1)
        let entry = long[slot]
        if entry.hash == hash && entry.call == call && Int(entry.length) == n && memcmp(base + entry.earlier, base + start, n) == 0 {
            var tokenStart = start
            for k in Int(entry.firstToken)..<(Int(entry.firstToken) &+ Int(entry.tokenCount)) {
                let tokenEnd = tokenStart &+ Int(arenaLengths[k])
                sink.token(arenaIDs[k], start: tokenStart, end: tokenEnd)
                tokenStart = tokenEnd
            }
            return
        }
        // A piece has at most one token per byte: make room for n first.
        if arenaUsed &+ n > Self.arenaCapacity {
            // Every long entry of this call points into the arena: drop them all.
            UnsafeMutableRawPointer(long).initializeMemory(as: UInt8.self, repeating: 0, count: Self.longCapacity * MemoryLayout<LongEntry>.stride)
            arenaUsed = 0
        }
        let first = arenaUsed
        withUnsafeMutablePointer(to: &sink) { inner in
            var appending = ArenaAppendingSink(inner: inner, ids: arenaIDs, lengths: arenaLengths, next: first)
            encoder.encode(base, start, end, into: &appending)
            arenaUsed = appending.next
        }
        long[slot] = LongEntry(hash: hash, earlier: start, length: Int32(n), tokenCount: Int32(arenaUsed &- first), firstToken: Int32(first), call: call)
    }

    @inline(__always)
    static func emit<Sink: TokenSink>(_ entry: Entry, start: Int, end: Int, into sink: inout Sink) {
        let count = Int((entry.meta >> 5) & 7)
        if count == 1 {
            sink.token(UInt32(truncatingIfNeeded: entry.meta >> 20) & (idLimit &- 1), start: start, end: end)
            return
        }
        var tokenStart = start
        for k in 0..<count {
            let id = k == 0 ? UInt32(truncatingIfNeeded: entry.meta >> 20) & (idLimit &- 1)
                            : UInt32(truncatingIfNeeded: entry.more >> UInt64(18 &* (k &- 1))) & (idLimit &- 1)
            let tokenEnd = k == count &- 1 ? end : start &+ Int((entry.meta >> UInt64(8 &+ 4 &* k)) & 15)
            sink.token(id, start: tokenStart, end: tokenEnd)
            tokenStart = tokenEnd
        }
    }

    /// The first tokens of a piece as the encoder gives them.
    struct Recorder {
        var count = 0
        var meta: UInt64 = 0
        var more: UInt64 = 0
        var lastEnd = 0
        var fits = true

        @inline(__always)
        mutating func record(_ id: UInt32, end: Int) {
            guard fits, count < PieceCache.maximumTokens, id < PieceCache.idLimit else { fits = false; return }
            if count == 0 {
                meta = UInt64(id) << 20
            } else {
                more |= UInt64(id) << UInt64(18 &* (count &- 1))
            }
            // Token ends are stored relative to the piece, for all but the last.
            if count > 0 { meta |= UInt64(lastEnd) << UInt64(8 &+ 4 &* (count &- 1)) }
            lastEnd = end
            count &+= 1
        }

        /// The entry's `meta`, or nil when the piece's tokens do not fit an entry.
        func meta(length n: Int) -> UInt64? {
            guard fits, count > 0 else { return nil }
            return meta | UInt64(n) | UInt64(count) << 5
        }
    }
}

/// Passes tokens on to `inner` and records them, relative to the piece start.
private struct TeeingSink<Inner: TokenSink>: TokenSink {
    let inner: UnsafeMutablePointer<Inner>
    let recorder: UnsafeMutablePointer<PieceCache.Recorder>
    let pieceStart: Int

    @inline(__always)
    mutating func token(_ id: UInt32, start: Int, end: Int) {
        recorder.pointee.record(id, end: end &- pieceStart)
        inner.pointee.token(id, start: start, end: end)
    }
}

/// Passes tokens on to `inner` and appends each id and length to the arena.
private struct ArenaAppendingSink<Inner: TokenSink>: TokenSink {
    let inner: UnsafeMutablePointer<Inner>
    let ids: UnsafeMutablePointer<UInt32>
    let lengths: UnsafeMutablePointer<UInt16>
    var next: Int

    @inline(__always)
    mutating func token(_ id: UInt32, start: Int, end: Int) {
        ids[next] = id
        lengths[next] = UInt16(truncatingIfNeeded: end &- start)
        next &+= 1
        inner.pointee.token(id, start: start, end: end)
    }
}
