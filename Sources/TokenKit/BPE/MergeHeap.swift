/// A binary min-heap of `(rank, position)` keys packed into one `UInt64`: lowest
/// rank first and, on equal ranks, the leftmost position, which is the order in
/// which tiktoken's scan and llama.cpp's merge loop apply merges.
///
/// Both heap-based merges use it: `BytePairEncoder` (tiktoken vocabularies
/// without merge tables) and `MergeListEncoder` (merge-list models). Entries
/// are never updated in place; callers skip the stale ones they pop.
struct MergeHeap {
    private var keys: [UInt64] = []

    /// An empty heap.
    init() {}

    /// An empty heap with room for `capacity` entries before it grows.
    init(capacity: Int) { keys.reserveCapacity(capacity) }

    mutating func push(rank: UInt32, position: Int) {
        keys.append(UInt64(rank) << 32 | UInt64(position))
        var i = keys.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard keys[parent] > keys[i] else { break }
            keys.swapAt(parent, i)
            i = parent
        }
    }

    /// The entry with the lowest key, removed; `nil` when the heap is empty.
    mutating func pop() -> (rank: UInt32, position: Int)? {
        guard let top = keys.first else { return nil }
        let last = keys.removeLast()
        if !keys.isEmpty {
            keys[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < keys.count && keys[l] < keys[smallest] { smallest = l }
                if r < keys.count && keys[r] < keys[smallest] { smallest = r }
                if smallest == i { break }
                keys.swapAt(i, smallest)
                i = smallest
            }
        }
        return (UInt32(top >> 32), Int(top & 0xFFFF_FFFF))
    }
}
