/// Unigram segmentation, exactly as sentencepiece's `unigram::Model::EncodeOptimized`
/// (and Hugging Face's `Unigram`, which ports it): the Viterbi path that
/// maximises the sum of piece scores, found in one pass over the text's
/// characters. A character that starts no piece is an unknown of score
/// `min score − 10`; on the best path, runs of unknowns become one unknown
/// token, or each unknown character its bytes' `<0xNN>` tokens when the model
/// has byte fallback.
///
/// The pieces are looked up through a double-array trie (`TokenTrie`: the
/// longest piece at a position, then each shorter one by its `nextPrefix`),
/// or, for a vocabulary too large for the trie's cells, by hashing each
/// prefix up to the longest piece's length.
///
/// ## Performance notes
///
/// Measured with `tokbench MODEL count 7 FILE` (CPU time, median of the warm
/// rounds) on bench/run's corpora (the first 2 MB of the English one, and
/// the CJK one), beside sentencepiece 0.2.3's `encode` of the same bytes
/// (`time.thread_time` around it, after one warm call), on the shared 2-core
/// VM under a load of about 3.
/// - `perf record -g` put a third of the time on CJK in the kernel's page
///   faults and a third in this loop: the lattice was 24 bytes a text byte
///   (a `Double` score beside two 32-bit fields), 48 MB for 2 MB of text,
///   above glibc's largest mmap threshold (32 MB), so every call mapped it
///   afresh and faulted in each page. Nodes are now 12 bytes with `Float`
///   scores, sentencepiece's `BestPathNode` (`Double` only for Hugging Face's
///   sums); a `Float` sum of two floats is the `Double` sum rounded once,
///   so no score and no id changes.
/// - A piece's score, length and next shorter prefix are one 12-byte entry,
///   one load a candidate, where the loop read the score array (bounds
///   checked), then the vocabulary's offsets for the length.
/// - Both together, seconds before → after (sentencepiece beside):
///   botchan_en_unigram_1000 English 0.122 → 0.069 (0.094), CJK 0.061 →
///   0.027 (0.033); kyoto_ja_unigram_8000 English 0.110 → 0.068 (0.131),
///   CJK 0.070 → 0.036 (0.050). After it, `perf` puts the rest on CJK in
///   the normalizer (about 60%: `PrecompiledCharsmap.longestRule`, and the
///   arrays' uniqueness checks of a byte-at-a-time append) and on English
///   54% in this loop.
/// - Rejected: copying the normalizer's unchanged characters whole
///   (`append(contentsOf:)` for the bytes and `repeatElement` for the
///   origins) instead of a byte at a time. Counted with cachegrind (one warm
///   round: `tokbench botchan_en_unigram_1000.model count 3` minus `... 2`),
///   instructions went up, 820M → 1,047M on English and 352M → 398M on CJK,
///   and English CPU time from 0.068 to 0.089 s; keeping single bytes on the
///   old path and copying only characters of 2 to 4 bytes still cost 873M
///   and 367M (CPU time within the noise). The uniqueness checks `perf`
///   shows are cheaper than the generic appends that replace them; what
///   would remove them is writing into storage sized once.
struct UnigramEncoder: Sendable {
    /// The pieces the path may use (normal and user-defined), by their text.
    let pieces: Vocabulary
    /// The unknown token, `.max` for none.
    let unknownID: UInt32
    /// The `<0xNN>` token of each byte, when unknowns fall back to bytes.
    let byteIDs: [UInt32]?
    /// The score of an unknown character (`min score − unknownPenalty`).
    let unknownScore: Double
    /// Float sums and rebasing (sentencepiece) rather than Double sums (Hugging Face).
    let singlePrecision: Bool
    /// Each id's score (user-defined symbols get sentencepiece's bonus),
    /// length and next shorter prefix, with the scores as `Float` when
    /// `singlePrecision` (else empty).
    private let floatEntries: [Entry<Float>]
    /// The same with `Double` scores, when not `singlePrecision` (else empty).
    private let doubleEntries: [Entry<Double>]
    private let trie: TokenTrie?
    private let trieArena: TableArena?
    private let maxPieceLength: Int

    /// sentencepiece's `kUnkPenalty` (and Hugging Face's `K_UNK_PENALTY`).
    static let unknownPenalty: Float = 10

    /// - Parameters:
    ///   - scores: each id's score.
    ///   - unknownScore: the score of an unknown character.
    ///   - singlePrecision: sums in `Float` and rebases long paths, as
    ///     sentencepiece does; otherwise sums in `Double`, as Hugging Face does.
    init(pieces: Vocabulary, scores: [Double], unknownScore: Double, unknownID: UInt32, byteIDs: [UInt32]?, singlePrecision: Bool) {
        self.pieces = pieces
        self.unknownID = unknownID
        self.byteIDs = byteIDs
        self.unknownScore = unknownScore
        self.singlePrecision = singlePrecision
        var longest = 0
        for id in 0..<pieces.idCount { longest = max(longest, pieces.length(of: UInt32(id))) }
        maxPieceLength = longest
        // The trie keeps id + 1 in 20 bits.
        var trie: TokenTrie? = nil
        if pieces.idCount < (1 << 20) - 1, let (shape, arena) = TokenTrie.build(for: pieces) {
            trie = TokenTrie(shape: shape, arena: arena)
            trieArena = arena
        } else {
            trieArena = nil
        }
        self.trie = trie
        let lengths = (0..<pieces.idCount).map { Int32(pieces.length(of: UInt32($0))) }
        let next = (0..<pieces.idCount).map { trie?.nextPrefix[$0] ?? .max }
        floatEntries = singlePrecision ? (0..<pieces.idCount).map { Entry(score: Float(scores[$0]), length: lengths[$0], next: next[$0]) } : []
        doubleEntries = singlePrecision ? [] : (0..<pieces.idCount).map { Entry(score: scores[$0], length: lengths[$0], next: next[$0]) }
    }

    /// The best path's last piece at each end position: 12 bytes with `Float`
    /// scores, as sentencepiece's `BestPathNode`.
    private struct Node<Score> {
        var id: UInt32
        var start: Int32
        var score: Score
    }

    /// What the path reads of a piece, in one load: its score, its length in
    /// bytes, and the longest piece that is a strict prefix of it.
    private struct Entry<Score: Sendable>: Sendable {
        var score: Score
        var length: Int32
        var next: UInt32
    }

    /// sentencepiece's character length: from the lead byte alone.
    @inline(__always)
    static func characterLength(_ b: UInt8) -> Int {
        b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    }

    /// Encodes `base[start..<end]` into `sink`.
    func encode<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        guard end > start else { return }
        if singlePrecision {
            floatEntries.withUnsafeBufferPointer { entries in
                encode(base, start, end, entries.baseAddress!, unknownScore: Float(unknownScore), resetThreshold: 100_000, into: &sink)
            }
        } else {
            doubleEntries.withUnsafeBufferPointer { entries in
                encode(base, start, end, entries.baseAddress!, unknownScore: unknownScore, resetThreshold: .infinity, into: &sink)
            }
        }
    }

    /// The Viterbi pass with sums in `Score`: sentencepiece adds two floats
    /// into a float, Hugging Face two doubles into a double, and both
    /// compare the sums as they are.
    @inline(__always)
    private func encode<Score: BinaryFloatingPoint & Sendable, Sink: TokenSink>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ entries: UnsafePointer<Entry<Score>>, unknownScore: Score, resetThreshold: Score,
        into sink: inout Sink
    ) {
        let size = end &- start
        let p = base + start
        let best = UnsafeMutablePointer<Node<Score>>.allocate(capacity: size &+ 1)
        defer { best.deallocate() }
        best.initialize(repeating: Node(id: .max, start: -1, score: 0), count: size &+ 1)
        var frontier = 0
        var at = 0
        while at < size {
            var here = best[at].score
            if here < -resetThreshold || here > resetThreshold {
                // sentencepiece rebases the scores so that float precision holds on long texts.
                let offset = here
                if frontier >= at {
                    for k in at...frontier where k == at || best[k].start != -1 { best[k].score = best[k].score - offset }
                }
                here = 0
            }
            let mblen = min(Self.characterLength(p[at]), size &- at)
            var hasSingle = false
            @inline(__always) func candidate(_ id: UInt32, _ score: Score, _ length: Int) {
                let e = at &+ length
                let sum = score + here
                if best[e].start == -1 || sum > best[e].score {
                    best[e] = Node(id: id, start: Int32(truncatingIfNeeded: at), score: sum)
                }
                if length == mblen { hasSingle = true }
            }
            if let trie {
                var (id, length) = trie.longestToken(p, at, size)
                if length > 0 && id != .max { frontier = max(frontier, at &+ length) }
                while length > 0 && id != .max {
                    let entry = entries[Int(id)]
                    candidate(id, entry.score, length)
                    id = entry.next
                    length = id == .max ? 0 : Int(entries[Int(id)].length)
                }
            } else {
                for length in 1...min(maxPieceLength, size &- at) {
                    if let id = pieces.id(of: p + at, count: length) {
                        frontier = max(frontier, at &+ length)
                        candidate(id, entries[Int(id)].score, length)
                    }
                }
            }
            if !hasSingle {
                frontier = max(frontier, at &+ mblen)
                candidate(.max, unknownScore, mblen)
            }
            at &+= mblen
        }
        // Backtrack, then emit in order.
        var path: [Int32] = []
        path.reserveCapacity(size / 3 + 1)
        var e = size
        while e > 0 {
            path.append(Int32(e))
            e = Int(best[e].start)
        }
        var pendingUnknown: (start: Int, end: Int)? = nil
        for k in path.indices.reversed() {
            let e = Int(path[k])
            let node = best[e]
            let s = Int(node.start)
            if node.id != .max {
                if let u = pendingUnknown { sink.token(unknownID, start: start + u.start, end: start + u.end); pendingUnknown = nil }
                sink.token(node.id, start: start + s, end: start + e)
            } else if let byteIDs {
                for b in s..<e { sink.token(byteIDs[Int(p[b])], start: start + b, end: start + b + 1) }
            } else if let u = pendingUnknown {
                pendingUnknown = (u.start, e)
            } else {
                pendingUnknown = (s, e)
            }
        }
        if let u = pendingUnknown { sink.token(unknownID, start: start + u.start, end: start + u.end) }
    }
}
