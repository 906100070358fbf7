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
struct UnigramEncoder: Sendable {
    /// The pieces the path may use (normal and user-defined), by their text.
    let pieces: Vocabulary
    /// Each id's score (user-defined symbols get sentencepiece's bonus).
    let scores: [Double]
    /// The unknown token, `.max` for none.
    let unknownID: UInt32
    /// The `<0xNN>` token of each byte, when unknowns fall back to bytes.
    let byteIDs: [UInt32]?
    let unknownScore: Double
    /// Float sums and rebasing (sentencepiece) rather than Double sums (Hugging Face).
    let singlePrecision: Bool
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
        self.scores = scores
        self.unknownID = unknownID
        self.byteIDs = byteIDs
        self.unknownScore = unknownScore
        self.singlePrecision = singlePrecision
        var longest = 0
        for id in 0..<pieces.idCount { longest = max(longest, pieces.length(of: UInt32(id))) }
        maxPieceLength = longest
        // The trie keeps id + 1 in 20 bits.
        if pieces.idCount < (1 << 20) - 1, let (shape, arena) = TokenTrie.build(for: pieces) {
            trie = TokenTrie(shape: shape, arena: arena)
            trieArena = arena
        } else {
            trie = nil
            trieArena = nil
        }
    }

    /// The best path's last piece at each end position.
    private struct Node {
        var id: UInt32 = .max
        var score: Double = 0
        var start: Int32 = -1
    }

    /// sentencepiece's character length: from the lead byte alone.
    @inline(__always)
    static func characterLength(_ b: UInt8) -> Int {
        b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    }

    /// Encodes `base[start..<end]` into `sink`.
    func encode<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let size = end - start
        guard size > 0 else { return }
        let p = base + start
        var best = [Node](repeating: Node(), count: size + 1)
        let resetThreshold: Double = singlePrecision ? 100_000 : .infinity
        var frontier = 0
        var at = 0
        best.withUnsafeMutableBufferPointer { best in
            while at < size {
                var here = best[at].score
                if here < -resetThreshold || here > resetThreshold {
                    // sentencepiece rebases the scores so that float precision holds on long texts.
                    let offset = here
                    if frontier >= at {
                        for k in at...frontier where k == at || best[k].start != -1 { best[k].score = Double(Float(best[k].score - offset)) }
                    }
                    here = 0
                }
                let mblen = min(Self.characterLength(p[at]), size - at)
                var hasSingle = false
                @inline(__always) func candidate(_ id: UInt32, _ length: Int) {
                    let e = at + length
                    frontier = max(frontier, e)
                    let sum = scores[Int(id)] + here
                    // A sum of two floats rounded once from Double is the Float sum.
                    let score = singlePrecision ? Double(Float(sum)) : sum
                    if best[e].start == -1 || score > best[e].score {
                        best[e] = Node(id: id, score: score, start: Int32(at))
                    }
                    if length == mblen { hasSingle = true }
                }
                if let trie {
                    var (id, length) = trie.longestToken(p, at, size)
                    while length > 0 && id != .max {
                        candidate(id, length)
                        id = trie.nextPrefix[Int(id)]
                        length = id == .max ? 0 : pieces.length(of: id)
                    }
                } else {
                    for length in 1...min(maxPieceLength, size - at) {
                        if let id = pieces.id(of: p + at, count: length) { candidate(id, length) }
                    }
                }
                if !hasSingle {
                    let e = at + mblen
                    frontier = max(frontier, e)
                    let sum = unknownScore + here
                    let score = singlePrecision ? Double(Float(sum)) : sum
                    if best[e].start == -1 || score > best[e].score {
                        best[e] = Node(id: .max, score: score, start: Int32(at))
                    }
                }
                at += mblen
            }
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
