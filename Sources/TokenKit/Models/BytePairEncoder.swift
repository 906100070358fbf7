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
    /// Has the piece kernel (`PieceKernel`) cut and encode `S`'s pieces of
    /// `cursor`'s text from `from` into this sink, with `cache` for what it
    /// misses, and returns true; or returns false, having done nothing, for a
    /// sink the kernel does not serve. The kernel gives a total or the ids in
    /// order, nothing else: `TokenCounter` and `IDCollector` take it.
    mutating func takePieceKernel<S: PieceScanner, Encoder: PieceEncoder>(
        _ kernel: PieceKernel.Entries, pattern: PiecePattern, _ scanner: S.Type, _ cursor: UTF8Cursor, from: Int,
        with encoder: Encoder, cache: inout PieceCache
    ) -> Bool
}

extension TokenSink {
    /// Sinks that see every token; a constant, so the check costs nothing.
    @inline(__always) var isFull: Bool { false }

    /// Sinks that need each token's offsets, or a stop: not the kernel's.
    @inline(__always) mutating func takePieceKernel<S: PieceScanner, Encoder: PieceEncoder>(
        _ kernel: PieceKernel.Entries, pattern: PiecePattern, _ scanner: S.Type, _ cursor: UTF8Cursor, from: Int,
        with encoder: Encoder, cache: inout PieceCache
    ) -> Bool { false }
}

/// tiktoken's byte-pair merge: a piece's bytes are merged pairwise, always the
/// adjacent pair whose concatenation has the lowest rank (leftmost on ties),
/// until no pair is a token.
///
/// A piece that is a token is that token (tiktoken's shortcut). Otherwise,
/// when the vocabulary has `MergeTables`, pieces longer than a few bytes go
/// to `BacktrackingEncoder` (linear time, same result, proven there). The
/// rest use `PairMerge` with tiktoken's rule (`TokenRank`): its scan (fastest
/// for a short word), or, for vocabularies without the tables, its heap for
/// long pieces: the same merge order in O(n log n).
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
    @inline(__always) @usableFromInline
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
        merge(p, n, offset: offset, into: &sink) { PairMerge.scan(TokenRank(vocabulary: vocabulary, bytes: p), ids: $0, starts: $1, count: n) }
    }

    func mergeByHeap<Sink: TokenSink>(_ p: UnsafePointer<UInt8>, _ n: Int, offset: Int, into sink: inout Sink) {
        merge(p, n, offset: offset, into: &sink) { PairMerge.heap(TokenRank(vocabulary: vocabulary, bytes: p), ids: $0, starts: $1, count: n) }
    }

    /// One symbol per byte, merged by `loop`, then given to `sink`.
    @inline(__always)
    private func merge<Sink: TokenSink>(
        _ p: UnsafePointer<UInt8>, _ n: Int, offset: Int, into sink: inout Sink,
        _ loop: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>) -> Int
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * n + 1) { scratch in
            let ids = scratch.baseAddress!
            let starts = ids + n  // n + 1 entries
            for i in 0..<n {
                ids[i] = vocabulary.rawID(of: p + i, count: 1)
                starts[i] = UInt32(i)
            }
            starts[n] = UInt32(n)
            let parts = loop(ids, starts)
            for i in 0..<parts {
                sink.token(ids[i], start: offset &+ Int(starts[i]), end: offset &+ Int(starts[i &+ 1]))
            }
        }
    }
}
