import ContextKitJSON

extension HuggingFaceTokenizerFile {
    /// The tokenizer of a `tokenizer.json` whose model is `WordPiece` (BERT,
    /// all-MiniLM and the other sentence-embedding models), with the
    /// normalizers and split steps already read from the file.
    static func wordPiece(
        _ model: OrderedJSON, root: OrderedJSON, path: String, name: String,
        normalizers: [Normalizer], steps: [SplitStep]
    ) throws -> Tokenizer {
        guard let vocab = model["vocab"]?.members else { throw ModelFileError.missing(path: path, key: "model.vocab") }
        let prefix = Array((model["continuing_subword_prefix"]?.stringValue ?? "##").utf8)
        let maxChars = model["max_input_chars_per_word"]?.intValue ?? 100
        guard maxChars >= 0 else {
            throw ModelFileError.malformed(path: path, reason: "model.max_input_chars_per_word is \(maxChars); it must be 0 or more")
        }
        var builder = VocabularyBuilder(path: path, capacity: vocab.count)
        var rest = VocabularyBuilder(path: path, capacity: vocab.count / 4)
        var continuationIDs: [UInt32] = []
        for member in vocab {
            guard let id = member.value.intValue, (0...VocabularyBuilder.maximumID).contains(id) else {
                throw ModelFileError.malformed(path: path, reason: "the vocabulary entry \(member.key.debugDescription) has no id from 0 to \(VocabularyBuilder.maximumID)")
            }
            let text = Array(member.key.utf8)
            // Decoded as `tokenizers`' WordPiece decoder joins them: a
            // continuation glued on, any other token after a space.
            if !prefix.isEmpty, text.count > prefix.count, text.starts(with: prefix) {
                builder.addMergeable(id, bytes: text, decodesTo: Array(text.dropFirst(prefix.count)))
                rest.addMergeable(continuationIDs.count, bytes: text.dropFirst(prefix.count))
                continuationIDs.append(UInt32(id))
            } else {
                builder.addMergeable(id, bytes: text, decodesTo: [0x20] + text)
            }
        }
        try addAddedTokens(root, path: path, into: &builder)
        let vocabulary = try builder.vocabulary()
        let unknownName = model["unk_token"]?.stringValue ?? "[UNK]"
        var unknownText = Array(unknownName.utf8)
        guard let unknownID = vocabulary.id(of: &unknownText, count: unknownText.count) else {
            throw ModelFileError.malformed(path: path, reason: "the WordPiece unk_token \(unknownName.debugDescription) is not in model.vocab")
        }
        // A vocabulary with no continuation tokens still needs a (one-entry) trie.
        if continuationIDs.isEmpty { rest.addMergeable(0, bytes: [0xFF]); continuationIDs.append(unknownID) }
        let continuations = try rest.vocabulary()
        guard
            let encoder = WordPieceEncoder(
                words: vocabulary, continuations: continuations, continuationIDs: continuationIDs,
                unknownID: unknownID, maxInputCharsPerWord: maxChars)
        else {
            throw ModelFileError.malformed(path: path, reason: "the vocabulary is too large for a WordPiece trie (\(vocab.count) tokens)")
        }
        let normalizer: Normalizer? = normalizers.isEmpty ? nil : normalizers.count == 1 ? normalizers[0] : .sequence(normalizers)
        let pipeline = OpenModelPipeline(
            model: .wordPiece(encoder), normalizer: normalizer, steps: steps,
            addedTokens: AddedTokenMatcher(builder.addedTokens),
            decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: true),
            summary: "Hugging Face WordPiece" + (normalizers.contains { if case .bert = $0 { return true } else { return false } } ? ", BERT normalizer" : ""))
        return Tokenizer(
            name: name, vocabulary: vocabulary, preTokenizer: try informationalPreTokenizer(steps),
            specialTokens: builder.specialTokens, pipeline: pipeline, inputSpecials: InputSpecials(postProcessor: root["post_processor"]))
    }
}
