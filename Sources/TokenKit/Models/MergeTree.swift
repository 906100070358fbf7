/// How each token of a rank-ordered BPE vocabulary is built by tiktoken's
/// merge: the two tokens it is merged from (its *split*), and the reverse map
/// from a pair of tokens to the token they merge into.
///
/// With these, `isValidPair(a, b)` answers "does tiktoken's merge of the bytes
/// of `a` followed by the bytes of `b` end as exactly `[a, b]`?" by replaying
/// the merges backwards along the boundary, without touching any bytes.
///
/// ## What `build` proves about the vocabulary
///
/// The split of a token `w` of two or more bytes is found by running
/// tiktoken's merge on `w`'s own bytes with `w` itself left out: the result
/// must be exactly two parts `(u, v)` (so that the real merge ends by joining
/// them into `w`), and both must rank below `w`. When any token fails, `build`
/// returns nil and the vocabulary keeps tiktoken's merge. Given that:
///
/// 1. **Every merge is a split.** If adjacent parts `x`, `y` are merged into
///    `z` in any run, then `(x, y)` is `z`'s split. Parts only grow, so before
///    that merge every merge touching `z`'s span stayed inside it; each was the
///    lowest-ranked (then leftmost) pair of the whole text, hence of the span,
///    so the run on `z`'s bytes alone makes the same merges in the same order
///    and reaches `[x, y]`.
/// 2. **Ranks never decrease over a run.** A merge of rank `r` only creates
///    pairs that contain the new token; a pair that merges is a split (1) whose
///    token ranks above both parts, so above `r`. The run therefore merges in
///    order of (rank, position), and a token is created at the moment of its rank.
/// 3. **Every token encodes to itself**, so tiktoken's shortcut (a piece that
///    is a token is returned as that token) agrees with the merge.
struct MergeTree: @unchecked Sendable {
    // @unchecked Sendable: raw pointers into an arena that is written while the tree is built and only read after.
    /// Split of each id: left | right << 32; `MergeTree.none` for single bytes and unused ids.
    let splits: UnsafeMutablePointer<UInt64>
    /// Open-addressing table of `occupied | left << 40 | right << 20 | merged`, 20 bits per id; 0 = empty.
    let pairs: UnsafeMutablePointer<UInt64>
    let pairMask: Int
    /// One bit per 8 pair slots' worth of hash, set for every pair in the table:
    /// most pairs have no merge, and this small table (in cache) says so
    /// without touching the big one.
    let filter: UnsafeMutablePointer<UInt64>
    let filterShift: UInt64

    static let none = UInt64.max
    /// Ids (and the trie's id + 1) must fit in the 20 bits a slot gives each token.
    static let maxIDCount = (1 << 20) - 1

    struct Shape: Equatable {
        var idCount: Int
        var pairCapacity: Int
    }

    static func layout(_ shape: Shape) -> (size: Int, splits: Int, pairs: Int, filter: Int) {
        var a = ArenaLayout()
        let splits = a.reserve(UInt64.self, shape.idCount)
        let pairs = a.reserve(UInt64.self, shape.pairCapacity)
        let filter = a.reserve(UInt64.self, shape.pairCapacity / 8)
        return (a.size, splits, pairs, filter)
    }

    init(shape: Shape, arena: TableArena) {
        let l = Self.layout(shape)
        precondition(arena.size >= l.size)
        splits = arena.table(UInt64.self, at: l.splits)
        pairs = arena.table(UInt64.self, at: l.pairs)
        filter = arena.table(UInt64.self, at: l.filter)
        pairMask = shape.pairCapacity - 1
        filterShift = UInt64(64 - (shape.pairCapacity.trailingZeroBitCount + 3))
    }

    @inline(__always)
    static func slotKey(_ left: UInt32, _ right: UInt32) -> UInt64 {
        1 << 43 | UInt64(left) << 20 | UInt64(right)
    }

    @inline(__always)
    static func slotIndex(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 24) & mask
    }

    @inline(__always)
    func filterBit(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> filterShift)
    }

    /// The token that `left` followed by `right` merge into, or `.max`.
    @inline(__always)
    func merged(_ left: UInt32, _ right: UInt32) -> UInt32 {
        let key = Self.slotKey(left, right)
        let bit = filterBit(key)
        if filter[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return .max }
        var i = Self.slotIndex(key, pairMask)
        while true {
            let slot = pairs[i]
            if slot == 0 { return .max }
            if slot >> 20 == key { return UInt32(truncatingIfNeeded: slot & 0xF_FFFF) }
            i = (i &+ 1) & pairMask
        }
    }

    /// Whether tiktoken's merge of `bytes(a) + bytes(b)` ends as `[a, b]`.
    ///
    /// Without a merge across the boundary, the run makes the merges of `a`'s
    /// bytes and of `b`'s bytes, interleaved by rank (2). The part left of the
    /// boundary is then, from last created to first, `a`, `a`'s right part,
    /// its right part, ... down to a byte; right of it, `b`'s left parts. Going
    /// back in time, the later-created of the two boundary parts is undone
    /// first (higher rank; on equal ranks the right one, as merges go left to
    /// right), so every pair `(x, y)` that ever faces the boundary is visited.
    /// The pair merges across the boundary, which makes the run end otherwise,
    /// exactly when its merged token `z` comes before the merge that consumes
    /// `x` (rank `p(x)`, which wins ties as the pair to its left) and before
    /// the one that consumes `y` (rank `p(y)`, which loses ties): `z < p(x)`
    /// and `z <= p(y)`. `limit` is that bound: the last undone rank is the
    /// smaller of the two consumers because ranks are undone in decreasing order.
    @inline(__always)
    func isValidPair(_ a: UInt32, _ b: UInt32) -> Bool {
        var x = a, y = b
        var limit = UInt32.max
        while true {
            if merged(x, y) < limit { return false }
            let sx = splits[Int(x)], sy = splits[Int(y)]
            if sx != Self.none && (sy == Self.none || x > y) {
                limit = x
                x = UInt32(truncatingIfNeeded: sx >> 32)
            } else if sy != Self.none {
                limit = y &+ 1
                y = UInt32(truncatingIfNeeded: sy)
            } else {
                return true
            }
        }
    }

    /// The tree of `vocabulary`, or nil when a token is not built by the merge
    /// from two lower-ranked tokens (see the type's documentation).
    static func build(for vocabulary: Vocabulary) -> (Shape, TableArena)? {
        let idCount = vocabulary.idCount
        guard idCount <= maxIDCount else { return nil }
        var multiByte = 0
        for id in 0..<idCount where vocabulary.length(of: UInt32(id)) >= 2 { multiByte += 1 }
        var capacity = 16
        while capacity < multiByte * 2 { capacity <<= 1 }  // at least 16, so the filter has whole words
        let shape = Shape(idCount: idCount, pairCapacity: capacity)
        let arena = TableArena(size: layout(shape).size)
        let tree = MergeTree(shape: shape, arena: arena)
        var scratch = [UInt32](repeating: 0, count: 2 * 130)
        for id in 0..<idCount {
            let (p, n) = vocabulary.rawBytes(of: id)
            guard n >= 2 else { tree.splits[id] = Self.none; continue }
            if scratch.count < 2 * n + 1 { scratch = [UInt32](repeating: 0, count: 2 * n + 1) }
            guard let (left, right) = lastMerge(p, n, vocabulary, &scratch),
                left < UInt32(id), right < UInt32(id)
            else { return nil }
            tree.splits[id] = UInt64(left) | UInt64(right) << 32
            let key = slotKey(left, right)
            var i = slotIndex(key, tree.pairMask)
            while tree.pairs[i] != 0 { i = (i + 1) & tree.pairMask }
            tree.pairs[i] = key << 20 | UInt64(id)
            let bit = tree.filterBit(key)
            tree.filter[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        return (shape, arena)
    }

    /// tiktoken's merge of `p[0..<n]` with the whole span left out: the two
    /// parts it ends with, or nil if it does not end with exactly two.
    private static func lastMerge(_ p: UnsafePointer<UInt8>, _ n: Int, _ vocabulary: Vocabulary, _ scratch: inout [UInt32]) -> (UInt32, UInt32)? {
        scratch.withUnsafeMutableBufferPointer { buffer -> (UInt32, UInt32)? in
            let ids = buffer.baseAddress!
            let starts = ids + n
            for i in 0..<n {
                ids[i] = vocabulary.rawID(of: p + i, count: 1)
                starts[i] = UInt32(i)
            }
            starts[n] = UInt32(n)
            let rule = WholeSpanLeftOut(rank: TokenRank(vocabulary: vocabulary, bytes: p), end: n)
            guard PairMerge.scan(rule, ids: ids, starts: starts, count: n) == 2 else { return nil }
            return (ids[0], ids[1])
        }
    }
}

/// tiktoken's rule, except that the whole span never merges: how the token
/// of those bytes is built from two others.
private struct WholeSpanLeftOut: MergeRule {
    let rank: TokenRank
    let end: Int

    func merge(_ left: UInt32, _ right: UInt32, _ a: Int, _ c: Int) -> UInt64 {
        a == 0 && c == end ? .max : rank.merge(left, right, a, c)
    }
}
