/// A binary min-heap of candidate merges ordered by their `key`: lowest first.
///
/// `PairMerge.heap` keeps its candidates here, as `RankedMerge`s.
/// Entries are never updated in place; callers skip the stale ones they pop.
struct MergeHeap<Candidate: MergeCandidate> {
    private var entries: [Candidate] = []

    /// An empty heap.
    init() {}

    /// An empty heap with room for `capacity` entries before it grows.
    init(capacity: Int) { entries.reserveCapacity(capacity) }

    mutating func push(_ candidate: Candidate) {
        entries.append(candidate)
        var i = entries.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard entries[parent].key > entries[i].key else { break }
            entries.swapAt(parent, i)
            i = parent
        }
    }

    /// The entry with the lowest key, removed; `nil` when the heap is empty.
    mutating func pop() -> Candidate? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < entries.count && entries[l].key < entries[smallest].key { smallest = l }
                if r < entries.count && entries[r].key < entries[smallest].key { smallest = r }
                if smallest == i { break }
                entries.swapAt(i, smallest)
                i = smallest
            }
        }
        return top
    }
}

/// What `MergeHeap` orders.
protocol MergeCandidate {
    /// The merge's rank (or score order) in the high 32 bits and its left
    /// position in the low 32: the lowest rank pops first and, on equal ranks,
    /// the leftmost, the order in which tiktoken's scan and llama.cpp's merge
    /// loops apply merges.
    var key: UInt64 { get }
}

/// A merge of `rank` at `position`, for the encoders that check the current
/// rank at that position when it pops.
struct RankedMerge: MergeCandidate {
    let key: UInt64

    init(rank: UInt32, position: Int) { key = UInt64(rank) << 32 | UInt64(position) }

    var rank: UInt32 { UInt32(key >> 32) }
    var position: Int { Int(key & 0xFFFF_FFFF) }
}
