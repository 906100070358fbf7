/// Receives the tokens of a text as they are found: id and byte range.
///
/// Counting, collecting ids and listing pieces are three sinks over one encoder,
/// so `count` builds no array and all three share the exact same path.
@usableFromInline
protocol TokenSink {
    mutating func token(_ id: UInt32, start: Int, end: Int)
    /// Whether the sink needs no more tokens: tiktoken's model then stops
    /// before its next piece (`Tokenizer.count(utf8:limit:allowedSpecial:)`).
    var isFull: Bool { get }
}

extension TokenSink {
    /// Sinks that see every token; a constant, so the check costs nothing.
    @inline(__always) var isFull: Bool { false }
}

/// tiktoken's byte-pair merge: a piece's bytes are merged pairwise, always the
/// adjacent pair whose concatenation has the lowest rank (leftmost on ties),
/// until no pair is a token.
///
/// A piece that is a token is that token (tiktoken's shortcut). Otherwise,
/// when the vocabulary has `MergeTables`, pieces longer than a few bytes go
/// to `BacktrackingEncoder` (linear time, same result, proven there). The
/// rest use tiktoken's own array scan (fastest for a short word), or, for
/// vocabularies without the tables, a heap of candidate pairs over a linked
/// list of parts for long pieces: the same merge order in O(n log n).
@usableFromInline
struct BytePairEncoder: Sendable {
    @usableFromInline let vocabulary: Vocabulary
    let backtracking: BacktrackingEncoder?

    /// Pieces up to this many bytes use the quadratic scan when there is no
    /// backtracking encoder; measured crossover.
    @usableFromInline static let scanLimit = 96
    /// Pieces longer than this use the backtracking encoder when there is one; measured crossover.
    static let backtrackingFrom = 6
    /// Longer pieces skip the whole-piece lookup when there is a backtracking encoder.
    static let lookupLimit = 16

    @usableFromInline
    init(vocabulary: Vocabulary) {
        self.vocabulary = vocabulary
        backtracking = vocabulary.mergeTables?.encoder(for: vocabulary)
    }

    /// Encodes `base[start..<end]` (one pre-tokenized piece) into `sink`.
    @inline(__always)
    func encode<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        // A long piece is rarely a token, and the backtracking encoder finds it
        // whole if it is (a token encodes to itself), so skip the lookup.
        if n > Self.lookupLimit, let backtracking {
            backtracking.encode(base + start, n, offset: start, into: &sink)
            return
        }
        let id = vocabulary.rawID(of: base + start, count: n)
        if id != .max {
            sink.token(id, start: start, end: end)
        } else if n > Self.backtrackingFrom, let backtracking {
            backtracking.encode(base + start, n, offset: start, into: &sink)
        } else if n <= Self.scanLimit {
            mergeByScan(base + start, n, offset: start, into: &sink)
        } else {
            mergeByHeap(base + start, n, offset: start, into: &sink)
        }
    }

    func mergeByScan<Sink: TokenSink>(_ p: UnsafePointer<UInt8>, _ n: Int, offset: Int, into sink: inout Sink) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * (n + 1)) { scratch in
            let starts = scratch.baseAddress!          // starts[0...parts]
            let ranks = starts + (n + 1)               // ranks[i]: rank of parts i and i+1 merged
            let none = UInt32.max
            @inline(__always) func rank(_ a: Int, _ b: Int) -> UInt32 {
                vocabulary.rawID(of: p + a, count: b &- a)
            }
            for i in 0...n { starts[i] = UInt32(i) }
            var parts = n
            for i in 0..<(n - 1) { ranks[i] = rank(i, i &+ 2) }
            ranks[n - 1] = none
            while parts > 1 {
                var best = none, at = 0
                for i in 0..<(parts &- 1) where ranks[i] < best { best = ranks[i]; at = i }
                if best == none { break }
                // Merge parts `at` and `at + 1`: drop the boundary between them.
                for i in (at &+ 1)..<parts { starts[i] = starts[i &+ 1] }
                for i in (at &+ 1)..<(parts &- 1) { ranks[i] = ranks[i &+ 1] }
                parts &-= 1
                ranks[at] = at &+ 1 < parts ? rank(Int(starts[at]), Int(starts[at &+ 2])) : none
                if at > 0 { ranks[at &- 1] = rank(Int(starts[at &- 1]), Int(starts[at &+ 1])) }
                ranks[parts &- 1] = none
            }
            for i in 0..<parts {
                let a = Int(starts[i]), b = Int(starts[i &+ 1])
                sink.token(vocabulary.id(of: p + a, count: b &- a)!, start: offset &+ a, end: offset &+ b)
            }
        }
    }

    func mergeByHeap<Sink: TokenSink>(_ p: UnsafePointer<UInt8>, _ n: Int, offset: Int, into sink: inout Sink) {
        // Parts are named by their first byte; next/previous link the live ones.
        var next = [Int32](unsafeUninitializedCapacity: n) { b, c in for i in 0..<n { b[i] = Int32(i + 1) }; c = n }
        var previous = [Int32](unsafeUninitializedCapacity: n) { b, c in for i in 0..<n { b[i] = Int32(i - 1) }; c = n }
        var pairRank = [UInt32](repeating: .max, count: n)   // rank of part i merged with its successor
        var heap = MergeHeap<RankedMerge>(capacity: n)
        @inline(__always) func rankOfPair(_ i: Int) -> UInt32 {
            let j = Int(next[i])
            guard j < n else { return .max }
            let k = Int(next[j])
            return vocabulary.id(of: p + i, count: k &- i) ?? .max
        }
        for i in 0..<(n - 1) {
            pairRank[i] = rankOfPair(i)
            if pairRank[i] != .max { heap.push(RankedMerge(rank: pairRank[i], position: i)) }
        }
        while let merge = heap.pop() {
            let (rank, i) = (merge.rank, merge.position)
            // Entries go stale when a neighbour merges; the current rank decides.
            guard pairRank[i] == rank, previous[i] != -2 else { continue }
            let j = Int(next[i])
            let k = Int(next[j])
            next[i] = Int32(k)
            if k < n { previous[k] = Int32(i) }
            previous[j] = -2
            pairRank[j] = .max
            pairRank[i] = rankOfPair(i)
            if pairRank[i] != .max { heap.push(RankedMerge(rank: pairRank[i], position: i)) }
            let h = Int(previous[i])
            if h >= 0 {
                pairRank[h] = rankOfPair(h)
                if pairRank[h] != .max { heap.push(RankedMerge(rank: pairRank[h], position: h)) }
            }
        }
        var i = 0
        while i < n {
            let j = Int(next[i])
            sink.token(vocabulary.id(of: p + i, count: j &- i)!, start: offset &+ i, end: offset &+ j)
            i = j
        }
    }
}
