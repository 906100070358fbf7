/// What two adjacent symbols merge into, and when: the one thing in which the
/// byte-pair algorithms here differ.
protocol MergeRule {
    /// `order << 32 | merged id` for the symbols `left` (bytes `a..<b`) and
    /// `right` (bytes `b..<c`) of a piece, or `.max` when they do not merge.
    /// The lowest order merges first; among equals, the leftmost pair.
    func merge(_ left: UInt32, _ right: UInt32, _ a: Int, _ c: Int) -> UInt64
}

/// The merge loop of every byte-pair algorithm here: a piece starts as
/// symbols (bytes or characters) and the adjacent pair that merges first by a
/// `MergeRule` is merged, again and again, until no adjacent pair merges.
/// tiktoken's rule orders pairs by the rank of the token they make
/// (`TokenRank`), a merge list by the pair's place in the list
/// (`MergeListEncoder`), SentencePiece by the score of the piece they make.
///
/// Two ways to find the next pair, with the same result: `scan` looks at
/// every pair each round (quadratic, but a few symbols fit in a cache line),
/// `heap` keeps the candidates in a `MergeHeap` over a linked list of symbols
/// (O(n log n), for long pieces). Each encoder picks one by the piece's length.
///
/// Both work in place on `ids[0..<count]` and `starts[0...count]` (symbol `i`
/// covers `starts[i]..<starts[i + 1]`, offsets within the piece) and return how
/// many symbols are left in their first places.
///
/// ## Performance notes
///
/// Before this type each algorithm had its own scan and its own heap (six
/// loops, and a seventh in `MergeTree.build`); the rule is a generic
/// parameter, so every encoder still gets its own specialised loop with the
/// rule's `merge` inlined. Measured on `bench/tokbench` release builds
/// (`count`, one run each) as instructions under `valgrind --tool=callgrind`,
/// since wall-clock times on the shared machine moved by ±20% between runs;
/// the tokenizer's loading (a run on `en-1k.txt`) is taken off:
///
/// | tokenizer, corpus                  | before | after | change |
/// |------------------------------------|-------:|------:|-------:|
/// | cl100k_base, `en.txt` (10 MB)      | 426.9M | 426.3M | −0.1% |
/// | cl100k_base, `code.txt` (5 MB)     | 272.2M | 274.6M | +0.9% |
/// | o200k_base, `code.txt`             | 293.3M | 298.3M | +1.7% |
/// | qwen2 GGUF (merge list), 1 MB of `en.txt` | 119.4M | 116.4M | −2.5% |
/// | qwen2 GGUF, `adv-letter-1m.txt` (the heap) | 2,079.7M | 2,077.5M | −0.1% |
/// | llama-spm GGUF (SentencePiece), 1 MB of `en.txt` | 676.1M | 479.8M | −29% |
///
/// tiktoken's model reaches the scan only for pieces of up to six bytes that
/// are not tokens (longer ones go to `BacktrackingEncoder`), so its cost
/// moves little. Why SentencePiece got faster was not isolated (its old
/// loops kept `Int32` starts in Swift arrays and compared piece lengths to
/// find stale heap entries). All within the ~3% allowed for the hot path, so
/// the loops are one. tiktoken's heap serves only vocabularies without
/// `MergeTables` and was not timed; the fuzz properties check it against the scan.
enum PairMerge {
    /// Every pair looked at each round: for a few symbols.
    @inline(__always)
    static func scan<Rule: MergeRule>(_ rule: Rule, ids: UnsafeMutablePointer<UInt32>, starts: UnsafeMutablePointer<UInt32>, count: Int) -> Int {
        var m = count
        guard m > 1 else { return m }
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: m) { buffer in
            let merges = buffer.baseAddress!  // merges[i]: symbols i and i + 1
            @inline(__always) func pair(_ i: Int) -> UInt64 {
                rule.merge(ids[i], ids[i &+ 1], Int(starts[i]), Int(starts[i &+ 2]))
            }
            for i in 0..<(m &- 1) { merges[i] = pair(i) }
            merges[m &- 1] = .max
            while m > 1 {
                var best = UInt64.max, at = 0
                for i in 0..<(m &- 1) where merges[i] < best { best = merges[i]; at = i }
                if best == .max { break }
                // Merge symbols `at` and `at + 1`: drop the boundary between them.
                ids[at] = UInt32(truncatingIfNeeded: best)
                for i in (at &+ 1)..<m { starts[i] = starts[i &+ 1] }
                for i in (at &+ 1)..<m where i &+ 1 < m {
                    ids[i] = ids[i &+ 1]
                    merges[i] = merges[i &+ 1]
                }
                m &-= 1
                merges[at] = at &+ 1 < m ? pair(at) : .max
                if at > 0 { merges[at &- 1] = pair(at &- 1) }
                merges[m &- 1] = .max
            }
            return m
        }
    }

    /// Candidates in a heap over a linked list: for many symbols.
    static func heap<Rule: MergeRule>(_ rule: Rule, ids: UnsafeMutablePointer<UInt32>, starts: UnsafeMutablePointer<UInt32>, count m: Int) -> Int {
        guard m > 1 else { return m }
        var next = [Int32](unsafeUninitializedCapacity: m) { b, c in
            for i in 0..<m { b[i] = Int32(i + 1) }; c = m
        }
        var previous = [Int32](unsafeUninitializedCapacity: m) { b, c in
            for i in 0..<m { b[i] = Int32(i - 1) }; c = m
        }
        var pending = [UInt64](repeating: .max, count: m)  // merge of symbol i with its successor
        var heap = MergeHeap<RankedMerge>(capacity: m)
        @inline(__always) func candidate(_ i: Int) -> UInt64 {
            let j = Int(next[i])
            // A live symbol's start never moves, and starts[m] is the piece's end.
            return j < m ? rule.merge(ids[i], ids[j], Int(starts[i]), Int(starts[Int(next[j])])) : .max
        }
        for i in 0..<(m - 1) {
            pending[i] = candidate(i)
            if pending[i] != .max { heap.push(RankedMerge(rank: UInt32(pending[i] >> 32), position: i)) }
        }
        while let merge = heap.pop() {
            let (rank, i) = (merge.rank, merge.position)
            // Entries go stale when a neighbour merges; the current merge decides.
            guard previous[i] != -2, pending[i] != .max, UInt32(pending[i] >> 32) == rank else { continue }
            let j = Int(next[i])
            ids[i] = UInt32(truncatingIfNeeded: pending[i])
            let k = Int(next[j])
            next[i] = Int32(k)
            if k < m { previous[k] = Int32(i) }
            previous[j] = -2
            pending[j] = .max
            pending[i] = candidate(i)
            if pending[i] != .max { heap.push(RankedMerge(rank: UInt32(pending[i] >> 32), position: i)) }
            let h = Int(previous[i])
            if h >= 0 {
                pending[h] = candidate(h)
                if pending[h] != .max { heap.push(RankedMerge(rank: UInt32(pending[h] >> 32), position: h)) }
            }
        }
        // Compact the live symbols to the front, keeping each one's start.
        var parts = 0
        var i = 0
        let end = starts[m]
        while i < m {
            ids[parts] = ids[i]
            starts[parts] = starts[i]
            parts += 1
            i = Int(next[i])
        }
        starts[parts] = end
        return parts
    }
}

/// tiktoken's rule: two parts merge into the token their bytes make, lowest
/// rank (id) first.
struct TokenRank: MergeRule {
    let vocabulary: Vocabulary
    /// The piece's bytes.
    let bytes: UnsafePointer<UInt8>

    @inline(__always)
    func merge(_ left: UInt32, _ right: UInt32, _ a: Int, _ c: Int) -> UInt64 {
        let id = vocabulary.rawID(of: bytes + a, count: c &- a)
        return id == .max ? .max : UInt64(id) << 32 | UInt64(id)
    }
}
