/// WordPiece as Hugging Face `tokenizers` runs it (BERT and the sentence
/// embedding models): each word (a piece of the pre-tokenizer) is cut
/// greedily, longest match first, into a vocabulary token and then
/// continuation tokens (`##` + the rest of the text); a word in which some
/// position matches nothing, or longer than `maxInputCharsPerWord`
/// characters, is the one unknown token.
///
/// Two tries give each longest match in one pass over the bytes: one over
/// every token (the start of a word may be any token, even one that starts
/// with `##`), one over the continuation tokens with their prefix taken off.
/// Tokens are valid UTF-8, so a match always ends on a character boundary,
/// as `tokenizers`' character-by-character shortening does.
final class WordPieceEncoder: Sendable {
    private let words: Trie
    private let continuations: Trie
    /// Id of each continuation token, by its id in `continuations`' vocabulary.
    private let continuationIDs: [UInt32]
    let unknownID: UInt32
    let maxInputCharsPerWord: Int

    /// A trie with the arena that holds its cells.
    private struct Trie: @unchecked Sendable {
        let arena: TableArena
        let trie: TokenTrie

        init?(_ vocabulary: Vocabulary) {
            guard let (shape, arena) = TokenTrie.build(for: vocabulary) else { return nil }
            self.arena = arena
            trie = TokenTrie(shape: shape, arena: arena)
        }
    }

    /// `vocabulary`: every token; `continuations`: the continuation tokens
    /// without their prefix, numbered `0..<continuationIDs.count`, where
    /// `continuationIDs` gives each one's real id. Nil when a trie would
    /// need more cells than it can number.
    init?(vocabulary: Vocabulary, continuations: Vocabulary, continuationIDs: [UInt32], unknownID: UInt32, maxInputCharsPerWord: Int) {
        guard let words = Trie(vocabulary), let rest = Trie(continuations) else { return nil }
        self.words = words
        self.continuations = rest
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
        if first.length == end - start { return sink.token(first.id, start: start, end: end) }
        guard first.length > 0 else { return sink.token(unknownID, start: start, end: end) }
        var found: [(id: UInt32, end: Int)] = [(first.id, start + first.length)]
        var i = start + first.length
        while i < end {
            let next = continuations.trie.longestToken(base, i, end)
            guard next.length > 0 else { return sink.token(unknownID, start: start, end: end) }
            i += next.length
            found.append((continuationIDs[Int(next.id)], i))
        }
        var from = start
        for piece in found {
            sink.token(piece.id, start: from, end: piece.end)
            from = piece.end
        }
    }
}
