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
///
/// CJK text with an English model (bench/run's format rows for the botchan
/// models were 0.80–0.82× of sentencepiece): nearly every character is
/// unknown there, so the cost was per character. `tokbench MODEL count 6`,
/// median CPU time of the warm rounds pinned to one CPU, beside
/// sentencepiece 0.2.3 (`encode` of the bytes, `time.thread_time`) on the
/// same VM: 32.0 ms (62.5 MB/s) for this model, 32.9 ms for the BPE one;
/// instructions from cachegrind, one warm round (`count 3` minus `count 2`).
/// - cachegrind put 72% of the 352M instructions in the normalizer, about
///   385 a character: for every character a user-symbol lookup, a charsmap
///   walk through closures and optional tuples, a decode, and two array
///   appends (uniqueness and capacity checked) per byte. The normalizer now
///   copies a character that can start no rule (`SentencePieceNormalizer`'s
///   tables, by scalar value, and for ASCII by its pair with the next byte)
///   without any of that, and gathers the output in a 4 KB buffer that goes
///   to the arrays in one append: CJK 24.7 → 21.7 ms (352M → 181M
///   instructions), English 65.5 → 43.1 ms (820M → 424M).
/// - `perf` then put 37% of the CJK time in the kernel's page faults: the
///   24 MB lattice of 2 MB of text, mapped afresh by every call. The lattice
///   now covers a window of the text (`window`) and starts again at a
///   position every path goes through, with the same scores: CJK 23.6 →
///   16.9 ms (181M → 177M), kyoto_ja_unigram_8000 CJK 30.7 → 26.2 ms and
///   English 43.0 → 35.3 ms. This model's English went 45.1 → 51.3 ms
///   (424M → 438M instructions) and its page faults from 28.8K to 53.8K in
///   ten calls, all in the normalized text's arrays: glibc raised its mmap
///   threshold to the 24 MB lattice's size once it was freed, so the arrays
///   (3 and 12 MB) came from the heap; without the lattice they are mapped
///   again each call (with `GLIBC_TUNABLES` fixing the threshold at 64 MB,
///   10.7K faults). Reusing them needs the pipeline to keep them, outside
///   these files; both English rows stay well above what they were.
/// - The window's first form indexed the lattice by `at - origin` and tested
///   for growth at every position: English 454M instructions. A lattice
///   pointer shifted by `origin` and one compare a position: 438M.
/// - Both, before → after (median CPU, MB/s; cachegrind): this model CJK
///   25.6 → 16.9 ms (78 → 118 MB/s; 352M → 177M), English 67.5 → 51.3 ms
///   (29.7 → 39; 820M → 438M); kyoto_ja_unigram_8000 CJK 33.7 → 26.3 ms
///   (59 → 76; 394M → 227M), English 65.9 → 35.3 ms (30 → 57; 805M →
///   404M). For the BPE model see `SentencePieceEncoder`.
/// - Rejected: a table by lead byte only. nmt_nfkc has rules starting with
///   0xE3 (kana compose with their voicing marks; the ideographic space),
///   a quarter of the CJK corpus's characters, and with every ASCII letter
///   (a letter and a combining accent), so only a table by character (and
///   for ASCII by pair) takes those past the walk: with it, 205M
///   instructions and 24.3 ms on CJK.
/// - Rejected: the first form of the writer, a closure over the arrays and
///   nested functions capturing it: Swift checked exclusive access
///   dynamically at every byte (`swift_beginAccess`, 420M instructions,
///   40 ms). A struct with mutating methods has no such checks.
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

    /// Bytes of text between the points where the lattice is emitted and
    /// started again (`encode`): 8,192 nodes of 12 bytes stay in L2.
    static let window = 8192

    /// The Viterbi pass with sums in `Score`: sentencepiece adds two floats
    /// into a float, Hugging Face two doubles into a double, and both
    /// compare the sums as they are.
    ///
    /// The lattice covers a window of the text, not all of it: at a position
    /// that no piece starting earlier reaches past (`at >= frontier`), every
    /// path goes through that position, so the best path up to it is final.
    /// Once the window holds `window` bytes, the path up to such a position
    /// is emitted and the lattice starts again there, with the node's score
    /// as it is, so every later sum is the one a lattice of the whole text
    /// makes. Without such a position the lattice grows.
    @inline(__always)
    private func encode<Score: BinaryFloatingPoint & Sendable, Sink: TokenSink>(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ entries: UnsafePointer<Entry<Score>>, unknownScore: Score, resetThreshold: Score,
        into sink: inout Sink
    ) {
        let size = end &- start
        let p = base + start
        // A candidate ends at most this far after its position.
        let reach = max(maxPieceLength, 4)
        var capacity = min(size, Self.window &+ reach) &+ 1
        var best = UnsafeMutablePointer<Node<Score>>.allocate(capacity: capacity)
        var path = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        defer {
            best.deallocate()
            path.deallocate()
        }
        let empty = Node<Score>(id: .max, start: -1, score: 0)
        best.initialize(repeating: empty, count: capacity)
        // `best` holds the nodes of text positions `origin...`; `lattice[k]`
        // is the node of position `k` (a node's `start` is a position too).
        var origin = 0
        var lattice = best
        var restart = Self.window
        var frontier = 0
        var at = 0
        var pendingUnknown: (start: Int, end: Int)? = nil
        while at < size {
            // Before `restart` (`window` bytes into the lattice) no candidate can end outside it.
            if at >= restart {
                if at >= frontier {
                    emitPath(lattice, from: origin, to: at, path, p, start, &pendingUnknown, into: &sink)
                    best[0] = lattice[at]
                    (best + 1).update(repeating: empty, count: capacity &- 1)
                    origin = at
                    lattice = best - origin
                    restart = origin &+ Self.window
                } else if min(size, at &+ reach) &- origin >= capacity {
                    // No position to start again from yet: the lattice grows.
                    let larger = capacity &* 2
                    let grown = UnsafeMutablePointer<Node<Score>>.allocate(capacity: larger)
                    grown.moveInitialize(from: best, count: capacity)
                    (grown + capacity).initialize(repeating: empty, count: larger &- capacity)
                    best.deallocate()
                    best = grown
                    lattice = best - origin
                    path.deallocate()
                    path = UnsafeMutablePointer<Int32>.allocate(capacity: larger)
                    capacity = larger
                }
            }
            let node = lattice + at
            var here = node.pointee.score
            if here < -resetThreshold || here > resetThreshold {
                // sentencepiece rebases the scores so that float precision holds on long texts.
                let offset = here
                if frontier >= at {
                    for k in at...frontier where k == at || lattice[k].start != -1 { lattice[k].score = lattice[k].score - offset }
                }
                here = 0
            }
            let mblen = min(Self.characterLength(p[at]), size &- at)
            var hasSingle = false
            @inline(__always) func candidate(_ id: UInt32, _ score: Score, _ length: Int) {
                let e = node + length
                let sum = score + here
                if e.pointee.start == -1 || sum > e.pointee.score {
                    e.pointee = Node(id: id, start: Int32(truncatingIfNeeded: at), score: sum)
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
        emitPath(lattice, from: origin, to: size, path, p, start, &pendingUnknown, into: &sink)
        if let u = pendingUnknown { sink.token(unknownID, start: start + u.start, end: start + u.end) }
    }

    /// Emits the best path from text position `origin` to `e` (`lattice[k]`
    /// the node of position `k`), through both of which every path goes; a
    /// run of unknowns stays in `pendingUnknown` until a piece follows it.
    /// `path` holds the ends.
    @inline(__always)
    private func emitPath<Score, Sink: TokenSink>(
        _ lattice: UnsafeMutablePointer<Node<Score>>, from origin: Int, to e: Int, _ path: UnsafeMutablePointer<Int32>, _ p: UnsafePointer<UInt8>,
        _ start: Int, _ pendingUnknown: inout (start: Int, end: Int)?, into sink: inout Sink
    ) {
        var count = 0
        var k = e
        while k > origin {
            path[count] = Int32(truncatingIfNeeded: k)
            count &+= 1
            k = Int(lattice[k].start)
        }
        while count > 0 {
            count &-= 1
            let e = Int(path[count])
            let node = lattice[e]
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
    }
}
