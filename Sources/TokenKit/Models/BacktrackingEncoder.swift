/// Encodes a long piece in linear time with exactly tiktoken's result, by
/// building the token sequence left to right instead of merging pairs.
///
/// The idea is GitHub's `bpe` crate's backtracking encoder; this is a separate
/// implementation over TokenKit's own tables (`MergeTree`, `TokenTrie`).
///
/// ## Why the result is tiktoken's
///
/// Call a token sequence *valid* when tiktoken's merge of its concatenated
/// bytes returns that very sequence. With the properties `MergeTree.build`
/// proves (every merge is a split, ranks never decrease over a run, every
/// token encodes to itself):
///
/// - **A sequence is valid when each adjacent pair is** (`isValidPair`). Take
///   the first merge across any token boundary in the run on the whole text.
///   Until then each token's span evolved as on its own bytes, so the two
///   spans around that boundary were in the same state as in the run on just
///   those two tokens, which merges in the same (rank, position) order and so
///   would cross the boundary too: that pair was not valid.
/// - **Each text has exactly one valid sequence** (the merge is
///   deterministic), and any prefix of a valid sequence is the valid sequence
///   of its bytes (its merges never crossed the prefix's end).
///
/// The encoder is a depth-first search for the tiling of the piece by tokens
/// whose adjacent pairs are valid: at each position it tries the tokens the
/// text starts with, longest first (`TokenTrie.longestToken`, then
/// `nextPrefix`), keeps the first that forms a valid pair with the token
/// before it, and backs up when none does. The tiling it finds is the valid
/// sequence. A position it had to back out of is marked dead and never tried
/// again: a prefix reaching that position with valid pairs is *the* valid
/// sequence of those bytes, so every way of reaching it ends the same way.
/// Each position is entered at most once, so the work is linear in the piece.
struct BacktrackingEncoder: @unchecked Sendable {
    // @unchecked Sendable: read-only views of tables its vocabulary owns, which outlives it and never changes them.
    let tree: MergeTree
    let trie: TokenTrie
    /// The vocabulary's offsets (token `id` is `offsets[id]..<offsets[id + 1]`). Raw pointers
    /// only, so that copying the encoder costs no reference counting; the vocabulary
    /// owning all the tables outlives every tokenizer that uses it.
    let offsets: UnsafePointer<UInt32>

    @inline(__always)
    func length(of id: UInt32) -> Int {
        Int(offsets[Int(id) &+ 1]) &- Int(offsets[Int(id)])
    }

    /// The token stack's first capacity for a piece of `n` bytes: every token
    /// when the piece is short, else one per 4 bytes (long pieces average more
    /// bytes per token; a piece with more tokens grows the stack).
    @inline(__always)
    static func initialStackCapacity(_ n: Int) -> Int {
        min(n, 64 &+ n >> 2)
    }

    /// Encodes `p[0..<n]` into `sink`, offsetting ranges by `offset`.
    ///
    /// Memory is 4 bytes per token found plus one bit per byte: a stack of
    /// one `UInt32` per byte would hold four times the piece.
    @inline(__always)
    func encode<Sink: TokenSink>(_ p: UnsafePointer<UInt8>, _ n: Int, offset: Int, into sink: inout Sink) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.initialStackCapacity(n)) { stackBuffer in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (n >> 6) &+ 1) { deadBuffer in
                var stack = stackBuffer.baseAddress!
                var capacity = stackBuffer.count
                // The stack once it outgrows its first buffer (which the caller's scope owns).
                var grown: UnsafeMutablePointer<UInt32>? = nil
                defer { grown?.deallocate() }
                let dead = deadBuffer.baseAddress!
                dead.initialize(repeating: 0, count: (n >> 6) &+ 1)
                var depth = 0
                var position = 0
                var (next, nextLength) = trie.longestToken(p, 0, n)
                while position < n {
                    var token = next
                    var tokenLength = nextLength
                    let last: UInt32 = depth > 0 ? stack[depth &- 1] : .max
                    while true {
                        let end = position &+ tokenLength
                        let isDead = dead[end >> 6] & (1 << UInt64(end & 63)) != 0
                        if !isDead && (last == .max || tree.isValidPair(last, token)) {
                            if depth == capacity {
                                capacity = Swift.min(n, 2 &* capacity)
                                let bigger = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
                                bigger.initialize(from: stack, count: depth)
                                grown?.deallocate()
                                grown = bigger
                                stack = bigger
                            }
                            stack[depth] = token
                            depth &+= 1
                            position = end
                            if end < n { (next, nextLength) = trie.longestToken(p, end, n) }
                            break
                        }
                        let shorter = trie.nextPrefix[Int(token)]
                        if shorter != .max {
                            token = shorter
                            tokenLength = length(of: shorter)
                            continue
                        }
                        // Nothing fits after the token before: back out of this position.
                        dead[position >> 6] |= 1 << UInt64(position & 63)
                        depth &-= 1
                        next = last
                        nextLength = length(of: last)
                        position &-= nextLength
                        break
                    }
                }
                var start = offset
                for i in 0..<depth {
                    let id = stack[i]
                    let end = start &+ length(of: id)
                    sink.token(id, start: start, end: end)
                    start = end
                }
            }
        }
    }
}

/// The tables the backtracking encoder needs, built once per vocabulary (or
/// loaded from `VocabularyCache`) and owned by it.
final class MergeTables: @unchecked Sendable {
    // @unchecked Sendable: immutable after init; the arenas it holds are only read.
    let treeShape: MergeTree.Shape
    let trieShape: TokenTrie.Shape
    let treeArena: TableArena
    let trieArena: TableArena
    let idCount: Int

    init(treeShape: MergeTree.Shape, treeArena: TableArena, trieShape: TokenTrie.Shape, trieArena: TableArena) {
        self.treeShape = treeShape
        self.trieShape = trieShape
        self.treeArena = treeArena
        self.trieArena = trieArena
        idCount = treeShape.idCount
    }

    /// The tables for `vocabulary`, or nil when the backtracking encoder would
    /// not be exact for it (see `MergeTree`).
    static func build(for vocabulary: Vocabulary) -> MergeTables? {
        guard let (treeShape, treeArena) = MergeTree.build(for: vocabulary),
            let (trieShape, trieArena) = TokenTrie.build(for: vocabulary)
        else { return nil }
        return MergeTables(treeShape: treeShape, treeArena: treeArena, trieShape: trieShape, trieArena: trieArena)
    }

    func encoder(for vocabulary: Vocabulary) -> BacktrackingEncoder {
        BacktrackingEncoder(
            tree: MergeTree(shape: treeShape, arena: treeArena),
            trie: TokenTrie(shape: trieShape, arena: trieArena),
            offsets: vocabulary.offsetTable)
    }
}
