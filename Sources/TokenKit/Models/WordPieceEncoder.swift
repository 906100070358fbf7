/// WordPiece as Hugging Face `tokenizers` runs it (BERT and the sentence
/// embedding models): each word (a piece of the pre-tokenizer) is cut
/// greedily, longest match first, into a vocabulary token and then
/// continuation tokens (`##` + the rest of the text); a word in which some
/// position matches nothing, or longer than `maxInputCharsPerWord`
/// characters, is the one unknown token.
///
/// Two tries give each longest match in one pass over the bytes: one for
/// the start of a word, one for the rest. In Hugging Face's form the first
/// holds every token (a word may even start with a `##` token) and the
/// second the continuation tokens with their prefix taken off; in
/// llama.cpp's (GGUF `bert`, where word starts are written `▁word` and
/// continuations plainly) the first holds the `▁` tokens without their `▁`
/// and the second every token.
/// Tokens are valid UTF-8, so a match always ends on a character boundary,
/// as `tokenizers`' character-by-character shortening does.
final class WordPieceEncoder: Sendable {
    private let words: Trie
    private let continuations: Trie
    /// Real id of each token of `words`' (`continuations`') vocabulary; nil: the ids are real.
    private let wordIDs: [UInt32]?
    private let continuationIDs: [UInt32]?
    let unknownID: UInt32
    let maxInputCharsPerWord: Int

    /// A trie with the arena that holds its cells.
    private struct Trie: @unchecked Sendable {
        // @unchecked Sendable: the trie reads an arena that is written only while it is built.
        let arena: TableArena
        let trie: TokenTrie

        init?(_ vocabulary: Vocabulary) {
            guard let (shape, arena) = TokenTrie.build(for: vocabulary) else { return nil }
            self.arena = arena
            trie = TokenTrie(shape: shape, arena: arena)
        }
    }

    /// `words`: the tokens a word may start with; `continuations`: those
    /// that may follow. Where a vocabulary numbers its tokens `0..<n` for
    /// the trie, `wordIDs` / `continuationIDs` give each one's real id.
    /// Nil when a trie would need more cells than it can number.
    init?(
        words: Vocabulary, wordIDs: [UInt32]? = nil, continuations: Vocabulary, continuationIDs: [UInt32]? = nil,
        unknownID: UInt32, maxInputCharsPerWord: Int
    ) {
        guard let first = Trie(words), let rest = Trie(continuations) else { return nil }
        self.words = first
        self.continuations = rest
        self.wordIDs = wordIDs
        self.continuationIDs = continuationIDs
        self.unknownID = unknownID
        self.maxInputCharsPerWord = maxInputCharsPerWord
    }

    /// Encodes the word `base[start..<end]` into `sink`.
    func encode<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        guard start < end else { return }
        var characters = 0
        for k in start..<end where base[k] & 0xC0 != 0x80 { characters += 1 }
        guard characters <= maxInputCharsPerWord else { return sink.token(unknownID, start: start, end: end) }
        // The common word is one token: no buffer.
        let first = words.trie.longestToken(base, start, end)
        guard first.length > 0 else { return sink.token(unknownID, start: start, end: end) }
        let firstID = wordIDs.map { $0[Int(first.id)] } ?? first.id
        if first.length == end - start { return sink.token(firstID, start: start, end: end) }
        var found: [(id: UInt32, end: Int)] = [(firstID, start + first.length)]
        var i = start + first.length
        while i < end {
            let next = continuations.trie.longestToken(base, i, end)
            guard next.length > 0 else { return sink.token(unknownID, start: start, end: end) }
            i += next.length
            found.append((continuationIDs.map { $0[Int(next.id)] } ?? next.id, i))
        }
        var from = start
        for piece in found {
            sink.token(piece.id, start: from, end: piece.end)
            from = piece.end
        }
    }
}
