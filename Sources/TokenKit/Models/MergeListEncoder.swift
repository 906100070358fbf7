/// Byte-pair encoding by merge list, as Hugging Face `tokenizers` and llama.cpp
/// do it: a piece starts as one symbol per byte (byte-level vocabularies) or per
/// character, and the adjacent pair that comes first in the merge list is merged,
/// leftmost first, until no adjacent pair is in the list.
///
/// This is not tiktoken's rule (`BytePairEncoder`), which merges whichever pair
/// concatenates to the lowest-ranked token: with a merge list, a pair merges
/// only if that exact pair is listed, even when the concatenation is a token.
struct MergeListEncoder: Sendable {
    /// Whole tokens by their bytes (for `ignoreMerges` and character symbols).
    let vocabulary: Vocabulary
    let pairs: PairTable
    /// Symbols are bytes (byte-level BPE) or UTF-8 characters.
    let byteLevel: Bool
    /// A piece that is a token is that token, merges or not (Llama 3's `ignore_merges`).
    let ignoreMerges: Bool
    /// The id of each single byte: the byte's token in a byte-level vocabulary,
    /// or its `<0xNN>` token for byte fallback; `.max` if there is none.
    let byteIDs: [UInt32]
    /// For characters without a token and without byte fallback (`.max`: drop them).
    let unknownID: UInt32
    /// Consecutive unknown characters become one unknown token.
    let fuseUnknown: Bool
    /// In character mode, unknown characters become their bytes' `<0xNN>` tokens.
    let byteFallback: Bool
    /// Bit `id`: merging the token's own bytes gives back the token, so a piece
    /// equal to it needs no merging. (With `ignoreMerges` every token is taken whole.)
    private(set) var selfMerging: [UInt64] = []
    /// A piece of newlines only that is a token is that token (llama.cpp's `gemma4` rule).
    let wholeNewlineRuns: Bool

    init(
        vocabulary: Vocabulary, pairs: PairTable, byteLevel: Bool, ignoreMerges: Bool, byteIDs: [UInt32],
        unknownID: UInt32, fuseUnknown: Bool, byteFallback: Bool, wholeNewlineRuns: Bool = false, selfMerging: [UInt64]? = nil
    ) {
        self.wholeNewlineRuns = wholeNewlineRuns
        self.vocabulary = vocabulary
        self.pairs = pairs
        self.byteLevel = byteLevel
        self.ignoreMerges = ignoreMerges
        self.byteIDs = byteIDs
        self.unknownID = unknownID
        self.fuseUnknown = fuseUnknown
        self.byteFallback = byteFallback
        // Given when the tables come from `ModelFileCache`, which stored what this found.
        if !ignoreMerges { self.selfMerging = selfMerging ?? findSelfMergingTokens() }
    }

    private func findSelfMergingTokens() -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (vocabulary.idCount + 63) / 64)
        var sink = SingleTokenSink()
        for id in 0..<vocabulary.idCount {
            guard let bytes = vocabulary.bytes(of: id), let base = bytes.baseAddress else { continue }
            sink.reset()
            merge(base, 0, bytes.count, into: &sink)
            if sink.only == UInt32(id) { bits[id >> 6] |= 1 << UInt64(id & 63) }
        }
        return bits
    }

    @inline(__always)
    private func isSelfMerging(_ id: UInt32) -> Bool {
        selfMerging[Int(id >> 6)] & (1 << UInt64(id & 63)) != 0
    }

    /// Pieces with more symbols than this merge through a heap instead of a
    /// scan. Tried at 16 (stop 56), for the CJK pieces of 20 to 60 bytes
    /// that dominate a first call on Chinese and Japanese: qwen2
    /// tokenizer.json on 3 MB of Debian's zh/ja pages, first call 180.36 →
    /// 178.15 ms and warm 22.46 → 22.80 (4 alternated processes, a noisy
    /// hour), no gain beyond the noise. The heap allocates four arrays a
    /// piece, which the scan does not.
    static let scanLimit = 64

    /// Encodes `base[start..<end]`, one pre-tokenized piece, into `sink`.
    @inline(__always)
    func encode<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        guard n > 0 else { return }
        if let id = vocabulary.id(of: base + start, count: n),
            ignoreMerges || n == 1 || isSelfMerging(id) || wholeNewlineRuns && UnsafeBufferPointer(start: base + start, count: n).allSatisfy({ $0 == 0x0A })
        {
            sink.token(id, start: start, end: end)
            return
        }
        merge(base, start, end, into: &sink)
    }

    /// Merges a piece from its first symbols.
    private func merge<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * n + 1) { scratch in
            let ids = scratch.baseAddress!
            let starts = ids + n  // n + 1 entries: symbol i covers starts[i]..<starts[i + 1]
            let m = makeSymbols(base + start, n, ids, starts)
            let rule = ListedPairs(pairs: pairs)
            let parts = m <= Self.scanLimit ? PairMerge.scan(rule, ids: ids, starts: starts, count: m) : PairMerge.heap(rule, ids: ids, starts: starts, count: m)
            for i in 0..<parts where ids[i] != .max {
                sink.token(ids[i], start: start &+ Int(starts[i]), end: start &+ Int(starts[i &+ 1]))
            }
        }
    }

    /// Splits a piece into its first symbols; returns how many.
    @inline(__always)
    private func makeSymbols(_ p: UnsafePointer<UInt8>, _ n: Int, _ ids: UnsafeMutablePointer<UInt32>, _ starts: UnsafeMutablePointer<UInt32>) -> Int {
        if byteLevel {
            for i in 0..<n {
                ids[i] = byteIDs[Int(p[i])]
                starts[i] = UInt32(i)
            }
            starts[n] = UInt32(n)
            return n
        }
        var m = 0
        var i = 0
        while i < n {
            let length = min(Self.utf8Length(p[i]), n &- i)
            if let id = vocabulary.id(of: p + i, count: length) {
                ids[m] = id; starts[m] = UInt32(i); m &+= 1
            } else if byteFallback && (0..<length).allSatisfy({ byteIDs[Int(p[i &+ $0])] != .max }) {
                for k in 0..<length {
                    ids[m] = byteIDs[Int(p[i &+ k])]; starts[m] = UInt32(i &+ k); m &+= 1
                }
            } else if unknownID != .max {
                if !(fuseUnknown && m > 0 && ids[m &- 1] == unknownID) {
                    ids[m] = unknownID; starts[m] = UInt32(i); m &+= 1
                }
            } else {
                ids[m] = .max; starts[m] = UInt32(i); m &+= 1
            }
            i &+= length
        }
        starts[m] = UInt32(n)
        return m
    }

    /// The byte length of a UTF-8 sequence from its lead byte (1 for stray bytes).
    @inline(__always)
    static func utf8Length(_ lead: UInt8) -> Int {
        if lead < 0xC0 { return 1 }
        if lead < 0xE0 { return 2 }
        if lead < 0xF0 { return 3 }
        return 4
    }
}

/// A merge list's rule: a pair merges only if it is listed, earliest first.
struct ListedPairs: MergeRule {
    let pairs: PairTable

    @inline(__always)
    func merge(_ left: UInt32, _ right: UInt32, _ a: Int, _ c: Int) -> UInt64 {
        left == .max || right == .max ? .max : pairs.lookup(left, right)
    }
}

/// Notes whether a piece came out as exactly one token.
private struct SingleTokenSink: TokenSink {
    var only: UInt32? = nil
    var count = 0
    mutating func reset() { only = nil; count = 0 }
    mutating func token(_ id: UInt32, start: Int, end: Int) {
        count += 1
        only = count == 1 ? id : nil
    }
}

/// The merge list as a hash table: `(left id, right id)` → `rank << 32 | merged id`.
///
/// Each slot is a key word and its value word side by side, in one
/// `TableArena`, so that `ModelFileCache` can store the table as it is and
/// map it back. Side by side, a hit reads one cache line: with the keys and
/// the values in two arrays (8 MB for qwen2's 151,387 merges, beyond L2), a
/// first count of 3 MB of Debian's Chinese and Japanese pages spent 44% of
/// the merges' time waiting on the table's loads (`perf`).
final class PairTable: @unchecked Sendable {
    // @unchecked Sendable: merges are inserted while the table is built, before it is shared; afterwards it is only read.
    /// `slotCount` slots of two words: the key, then the value.
    let arena: TableArena
    private let slots: UnsafeMutablePointer<UInt64>
    private let mask: Int
    /// How many merges the table holds.
    private(set) var count = 0
    /// How many slots the table has (a power of two).
    var slotCount: Int { mask + 1 }

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        mask = size - 1
        arena = TableArena(size: Self.arenaSize(slotCount: size))
        slots = arena.table(UInt64.self, at: 0)
        slots.update(repeating: .max, count: 2 * size)
    }

    /// A filled table stored by `ModelFileCache`: nil unless the arena fits.
    init?(arena: TableArena, slotCount: Int, count: Int) {
        guard slotCount >= 16, slotCount & (slotCount - 1) == 0, arena.size == Self.arenaSize(slotCount: slotCount), count < slotCount else { return nil }
        self.arena = arena
        mask = slotCount - 1
        self.count = count
        slots = arena.table(UInt64.self, at: 0)
    }

    static func arenaSize(slotCount: Int) -> Int { 16 * slotCount }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 29) & mask
    }

    /// Adds a merge; a pair listed twice keeps its first (best) rank, as llama.cpp does.
    func insert(_ a: UInt32, _ b: UInt32, rank: UInt32, merged: UInt32) {
        let key = UInt64(a) << 32 | UInt64(b)
        var s = slot(key)
        while slots[2 * s] != .max {
            if slots[2 * s] == key { return }
            s = (s + 1) & mask
        }
        slots[2 * s] = key
        slots[2 * s + 1] = UInt64(rank) << 32 | UInt64(merged)
        count += 1
    }

    @inline(__always)
    func lookup(_ a: UInt32, _ b: UInt32) -> UInt64 {
        let key = UInt64(a) << 32 | UInt64(b)
        var s = slot(key)
        while true {
            let k = slots[2 &* s]
            if k == key { return slots[2 &* s &+ 1] }
            if k == .max { return .max }
            s = (s &+ 1) & mask
        }
    }
}
