/// Builds a `Tokenizer` from the vocabulary in a GGUF header, with llama.cpp's
/// semantics (what its `llama_tokenize` returns with special tokens not parsed).
extension GGUFFile {
    /// The tokenizer algorithms this reader implements, for error messages.
    static let supportedTokenizers = [
        "byte-level BPE (tokenizer.ggml.model = gpt2)", "SentencePiece BPE (tokenizer.ggml.model = llama)",
        "Gemma 4 BPE (tokenizer.ggml.model = gemma4)", "WordPiece (tokenizer.ggml.model = bert)"
    ]

    /// What llama.cpp's other `tokenizer.ggml.model` values are.
    private static let otherTokenizers: [String: String] = [
        "t5": "Unigram (tokenizer.ggml.model = t5)",
        "rwkv": "RWKV trie (tokenizer.ggml.model = rwkv)",
        "plamo2": "PLaMo-2 (tokenizer.ggml.model = plamo2)",
        "hybriddna": "hybrid DNA (tokenizer.ggml.model = hybriddna)",
        "whitespace": "whitespace BPE (tokenizer.ggml.model = whitespace)"
    ]

    /// llama.cpp's token types (`tokenizer.ggml.token_type`).
    private enum TokenType: Int {
        case undefined = 0, normal, unknown, control, userDefined, unused, byte
    }

    /// The model's tokenizer, with exactly llama.cpp's token ids.
    ///
    /// - Throws: `ModelFileError.missing` when the file has no vocabulary,
    ///   `.unsupportedTokenizer` for an algorithm other than byte-level BPE or
    ///   SentencePiece BPE, `.unknownPreTokenizer` or `.malformed` when the
    ///   vocabulary cannot be used.
    public func tokenizer() throws -> Tokenizer {
        try tokenizer(cache: .standard)
    }

    /// The model's tokenizer, its merge-list tables taken from `cache` when
    /// it has them for this version of the file (and stored there when not).
    func tokenizer(cache: ModelFileCache) throws -> Tokenizer {
        guard let model = tokenizerModel else { throw ModelFileError.missing(path: path, key: "tokenizer.ggml.model") }
        switch model {
        case "gpt2": return try mergeListTokenizer(cache: cache)
        case "llama": return try sentencePieceTokenizer()
        case "gemma4": return try gemma4Tokenizer(cache: cache)
        case "bert": return try wordPieceTokenizer()
        case "no_vocab", "none": throw ModelFileError.missing(path: path, key: "a vocabulary (tokenizer.ggml.model is \(model))")
        default:
            throw ModelFileError.unsupportedTokenizer(path: path, name: Self.otherTokenizers[model] ?? "'\(model)'", supported: Self.supportedTokenizers)
        }
    }

    private var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    private func tokensEntry() throws -> Entry {
        guard let tokens = entry("tokenizer.ggml.tokens") else { throw ModelFileError.missing(path: path, key: "tokenizer.ggml.tokens") }
        guard tokens.elementType == .string else { throw ModelFileError.malformed(path: path, reason: "tokenizer.ggml.tokens is not an array of strings") }
        // Ids are array positions; past the tables' limit they would be lost, not refused.
        guard tokens.count - 1 <= VocabularyBuilder.maximumID else {
            throw ModelFileError.malformed(path: path, reason: "tokenizer.ggml.tokens has \(tokens.count) tokens; at most \(VocabularyBuilder.maximumID + 1) are supported")
        }
        return tokens
    }

    /// Token types, one per token (all normal when the file has none).
    private func tokenTypes(count: Int) throws -> [TokenType] {
        guard let e = entry("tokenizer.ggml.token_type") else { return Array(repeating: .normal, count: count) }
        guard e.elementType == .int32 || e.elementType == .uint32, e.count >= count else {
            throw ModelFileError.malformed(path: path, reason: "tokenizer.ggml.token_type is not one int32 per token")
        }
        return (0..<count).map { TokenType(rawValue: Int(number(e, at: $0))) ?? .undefined }
    }

    /// A builder holding every token, added by its type. Control and unknown
    /// tokens are specials and user-defined ones are matched in the text
    /// before the model runs, alike in every GGUF model; the model's own
    /// tokens (byte, normal, unused, undefined) go to `addOwn`, since each
    /// model reads them its own way.
    private func vocabularyBuilder(
        tokens: Entry, types: [TokenType],
        addOwn: (inout VocabularyBuilder, Int, TokenType, UnsafeRawBufferPointer) -> Void
    ) -> VocabularyBuilder {
        var builder = VocabularyBuilder(path: path, capacity: tokens.count)
        var id = 0
        forEachString(tokens) { text in
            switch types[id] {
            case .control, .unknown:
                builder.addSpecial(id, text: String(decoding: text, as: UTF8.self))
            case .userDefined:
                builder.addAdded(AddedTokenMatcher.Entry(text: Array(text), id: id))
            case .byte, .normal, .unused, .undefined:
                addOwn(&builder, id, types[id], text)
            }
            id += 1
        }
        return builder
    }

    // MARK: Byte-level BPE (`gpt2`)

    private func mergeListTokenizer(cache: ModelFileCache) throws -> Tokenizer {
        _ = try tokensEntry()
        let preName = preTokenizerName ?? "default"
        guard let preType = LlamaPreType(name: preName) else {
            if let reason = LlamaPreType.unsupported[preName] {
                throw ModelFileError.unsupportedTokenizer(path: path, name: "'\(preName)' pre-tokenizer: \(reason);", supported: Self.supportedTokenizers)
            }
            throw ModelFileError.unknownPreTokenizer(path: path, name: preName, known: LlamaPreType.knownNames)
        }
        let prepared = try cache.mergeList(for: file) { try byteLevelMergeList(ignoreMerges: preType.ignoreMerges) }
        let steps = try preType.steps()
        let pipeline = OpenModelPipeline(
            model: .mergeList(prepared.encoder), normalizer: nil, steps: steps,
            addedTokens: AddedTokenMatcher(prepared.addedTokens),
            decoder: prepared.decoder.droppingLeadingSpace(false),
            summary: "byte-level BPE, llama.cpp pre-tokenizer \(preName)", characters: .llamaCpp)
        return Tokenizer(
            name: fileName, vocabulary: prepared.encoder.vocabulary, preTokenizer: try informationalPreTokenizer(steps),
            specialTokens: prepared.specialTokens, pipeline: pipeline)
    }

    /// What the token and merge arrays of a `gpt2` model make.
    private func byteLevelMergeList(ignoreMerges: Bool) throws -> PreparedMergeList {
        let tokens = try tokensEntry()
        let types = try tokenTypes(count: tokens.count)
        var scratch: [UInt8] = []
        let builder = vocabularyBuilder(tokens: tokens, types: types) { builder, id, type, text in
            if type == .byte {
                builder.addDecodeOnly(id, bytes: Self.byteTokenValue(text).map { [$0] } ?? Array(text))
                return
            }
            scratch.removeAll(keepingCapacity: true)
            if ByteLevelAlphabet.decode(text, into: &scratch) {
                builder.addMergeable(id, bytes: scratch)
            } else {
                builder.addDecodeOnly(id, bytes: Array(text))
            }
        }
        let vocabulary = try builder.vocabulary()
        let pairs = try readMerges(vocabulary)
        let byteIDs = (0..<256).map { b -> UInt32 in
            var byte = UInt8(b)
            return vocabulary.id(of: &byte, count: 1) ?? .max
        }
        let encoder = MergeListEncoder(
            vocabulary: vocabulary, pairs: pairs, byteLevel: true, ignoreMerges: ignoreMerges,
            byteIDs: byteIDs, unknownID: .max, fuseUnknown: false, byteFallback: false)
        return PreparedMergeList(
            encoder: encoder, decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: false),
            specialTokens: builder.specialTokens, addedTokens: builder.addedTokens)
    }

    /// `tokenizer.ggml.merges`: "left right" in byte-level characters, rank = position.
    private func readMerges(_ vocabulary: Vocabulary) throws -> PairTable {
        guard let merges = entry("tokenizer.ggml.merges") else { throw ModelFileError.missing(path: path, key: "tokenizer.ggml.merges") }
        guard merges.elementType == .string else { throw ModelFileError.malformed(path: path, reason: "tokenizer.ggml.merges is not an array of strings") }
        let pairs = PairTable(capacity: merges.count)
        var bytes: [UInt8] = []
        var rank: UInt32 = 0
        try forEachString(merges) { merge in
            defer { rank += 1 }
            let space = try mergeSeparator(merge, rank: rank)
            bytes.removeAll(keepingCapacity: true)
            guard ByteLevelAlphabet.decode(UnsafeRawBufferPointer(rebasing: merge[..<space]), into: &bytes) else { return }
            let split = bytes.count
            guard ByteLevelAlphabet.decode(UnsafeRawBufferPointer(rebasing: merge[(space + 1)...]), into: &bytes) else { return }
            bytes.withUnsafeBufferPointer { Self.insertMerge($0, split: split, rank: rank, vocabulary, pairs) }
        }
        return pairs
    }

    /// Where merge `rank` of `tokenizer.ggml.merges` divides: its first space
    /// after the first byte, as llama.cpp splits it.
    ///
    /// - Throws: `ModelFileError.malformed` when there is none. llama.cpp
    ///   keeps such a merge as a pair of empty tokens that never applies, so a
    ///   file whose separators were lost (a bad conversion or edit) loads and
    ///   counts silently wrong: gpt-2's vocabulary without them counted 2,898
    ///   tokens where it counts 801. A tokenizer.json merge is refused the same way.
    private func mergeSeparator(_ merge: UnsafeRawBufferPointer, rank: UInt32) throws -> Int {
        guard merge.count > 2, let space = merge.indices.dropFirst().first(where: { merge[$0] == 0x20 }), space < merge.count - 1 else {
            throw Self.mergeWithoutSeparator(path: path, rank: Int(rank), merge: merge)
        }
        return space
    }

    /// The one message for a merge that is not two tokens separated by a
    /// space, in a GGUF or a tokenizer.json; `rank` counts from 0 and the
    /// message from 1, as a person numbers the list.
    static func mergeWithoutSeparator(path: String, rank: Int, merge: some Collection<UInt8>) -> ModelFileError {
        // A hostile merge can be megabytes long: quote its start only.
        let shown = String(decoding: merge.prefix(48), as: UTF8.self).debugDescription + (merge.count > 48 ? "…" : "")
        return .malformed(path: path, reason: "merge \(rank + 1) \(shown) is not two tokens separated by a space (the separators of the merge list were lost)")
    }

    /// Adds the merge of `text[..<split]` and `text[split...]`, if both and their
    /// concatenation are tokens (a merge of unknown tokens could never apply).
    static func insertMerge(_ text: UnsafeBufferPointer<UInt8>, split: Int, rank: UInt32, _ vocabulary: Vocabulary, _ pairs: PairTable) {
        guard split > 0, split < text.count, let base = text.baseAddress,
            let a = vocabulary.id(of: base, count: split),
            let b = vocabulary.id(of: base + split, count: text.count - split),
            let merged = vocabulary.id(of: base, count: text.count)
        else { return }
        pairs.insert(a, b, rank: rank, merged: merged)
    }

    /// The byte of a `<0xNN>` token.
    static func byteTokenValue(_ text: UnsafeRawBufferPointer) -> UInt8? {
        guard text.count == 6, text[0] == UInt8(ascii: "<"), text[1] == UInt8(ascii: "0"), text[2] == UInt8(ascii: "x"),
            text[5] == UInt8(ascii: ">")
        else { return nil }
        return UInt8(String(decoding: text[3..<5], as: UTF8.self), radix: 16)
    }

    // MARK: SentencePiece (`llama`)

    private func sentencePieceTokenizer() throws -> Tokenizer {
        let tokens = try tokensEntry()
        let types = try tokenTypes(count: tokens.count)
        let scoresEntry = entry("tokenizer.ggml.scores")
        if let s = scoresEntry, !(s.elementType == .float32 || s.elementType == .int32) || s.count < tokens.count {
            throw ModelFileError.malformed(path: path, reason: "tokenizer.ggml.scores is not one number per token")
        }
        let scores = (0..<tokens.count).map { i in scoresEntry.map { Float(number($0, at: i)) } ?? 0 }
        var byteIDs = [UInt32](repeating: .max, count: 256)
        var singleByteIDs = [UInt32](repeating: .max, count: 256)
        let builder = vocabularyBuilder(tokens: tokens, types: types) { builder, id, type, text in
            if type == .byte {
                if let b = Self.byteTokenValue(text) {
                    byteIDs[Int(b)] = UInt32(id)
                    builder.addDecodeOnly(id, bytes: [b])
                } else {
                    builder.addDecodeOnly(id, bytes: Array(text))
                }
                return
            }
            if text.count == 1 { singleByteIDs[Int(text[0])] = UInt32(id) }
            builder.addMergeable(id, bytes: text, decodesTo: Self.unescapingSpaces(text))
        }
        // llama.cpp falls back to a byte's own token when it has no <0xNN> token.
        for b in 0..<256 where byteIDs[b] == .max { byteIDs[b] = singleByteIDs[b] }
        let vocabulary = try builder.vocabulary()
        let addSpacePrefix = bool(forKey: "tokenizer.ggml.add_space_prefix") ?? true
        let escape = Normalizer.replace(pattern: [0x20], content: Self.metaSpace)
        let normalizer: Normalizer = addSpacePrefix ? .sequence([.prepend([0x20]), escape]) : escape
        let pipeline = OpenModelPipeline(
            model: .sentencePiece(SentencePieceEncoder(pieces: vocabulary, scores: scores, byteIDs: byteIDs)),
            normalizer: normalizer, steps: [],
            addedTokens: AddedTokenMatcher(builder.addedTokens),
            decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: addSpacePrefix),
            summary: "SentencePiece BPE (llama.cpp SPM)", characters: .llamaCpp)
        return Tokenizer(
            name: fileName, vocabulary: vocabulary, preTokenizer: try informationalPreTokenizer([]),
            specialTokens: builder.specialTokens, pipeline: pipeline)
    }

    // MARK: Gemma 4 BPE (`gemma4`)

    /// llama.cpp's `gemma4`: merge-list BPE over raw UTF-8 characters (not
    /// byte-level), spaces written as `▁` first, the text cut into runs of
    /// newlines and runs of anything else; a run of newlines that is a token
    /// is that token; a final symbol that is no token becomes its bytes'
    /// `<0xNN>` tokens.
    private func gemma4Tokenizer(cache: ModelFileCache) throws -> Tokenizer {
        let prepared = try cache.mergeList(for: file) { try gemma4MergeList() }
        let steps = [try SplitStep.split(pattern: "[^\\n]+|[\\n]+")]
        let pipeline = OpenModelPipeline(
            model: .mergeList(prepared.encoder), normalizer: .replace(pattern: [0x20], content: Self.metaSpace), steps: steps,
            addedTokens: AddedTokenMatcher(prepared.addedTokens),
            decoder: prepared.decoder.droppingLeadingSpace(false),
            summary: "Gemma 4 BPE (llama.cpp gemma4)", characters: .llamaCpp)
        return Tokenizer(
            name: fileName, vocabulary: prepared.encoder.vocabulary, preTokenizer: try informationalPreTokenizer(steps),
            specialTokens: prepared.specialTokens, pipeline: pipeline)
    }

    /// What the token and merge arrays of a `gemma4` model make.
    private func gemma4MergeList() throws -> PreparedMergeList {
        let tokens = try tokensEntry()
        let types = try tokenTypes(count: tokens.count)
        var byteIDs = [UInt32](repeating: .max, count: 256)
        let builder = vocabularyBuilder(tokens: tokens, types: types) { builder, id, type, text in
            if type == .byte, let b = Self.byteTokenValue(text) {
                byteIDs[Int(b)] = UInt32(id)
                builder.addDecodeOnly(id, bytes: [b])
                return
            }
            builder.addMergeable(id, bytes: text, decodesTo: Self.unescapingSpaces(text))
        }
        let vocabulary = try builder.vocabulary()
        guard let merges = entry("tokenizer.ggml.merges") else { throw ModelFileError.missing(path: path, key: "tokenizer.ggml.merges") }
        guard merges.elementType == .string else { throw ModelFileError.malformed(path: path, reason: "tokenizer.ggml.merges is not an array of strings") }
        let pairs = PairTable(capacity: merges.count)
        var rank: UInt32 = 0
        try forEachString(merges) { merge in
            defer { rank += 1 }
            let space = try mergeSeparator(merge, rank: rank)  // the halves are raw UTF-8
            var bytes = Array(merge[..<space])
            let split = bytes.count
            bytes.append(contentsOf: merge[(space + 1)...])
            bytes.withUnsafeBufferPointer { Self.insertMerge($0, split: split, rank: rank, vocabulary, pairs) }
        }
        let encoder = MergeListEncoder(
            vocabulary: vocabulary, pairs: pairs, byteLevel: false, ignoreMerges: false, byteIDs: byteIDs,
            unknownID: .max, fuseUnknown: false, byteFallback: true, wholeNewlineRuns: true)
        return PreparedMergeList(
            encoder: encoder, decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: false),
            specialTokens: builder.specialTokens, addedTokens: builder.addedTokens)
    }

    // MARK: WordPiece (`bert`)

    /// llama.cpp's WPM: BERT's normalizer and pre-tokenizer, then greedy
    /// longest match over `▁word`, where the vocabulary writes word starts
    /// with `▁` and continuations plainly (Hugging Face's `##` form turned
    /// round); a word with a position nothing matches is the unknown token.
    private func wordPieceTokenizer() throws -> Tokenizer {
        let tokens = try tokensEntry()
        let types = try tokenTypes(count: tokens.count)
        var starts = VocabularyBuilder(path: path, capacity: tokens.count)
        var startIDs: [UInt32] = []
        let builder = vocabularyBuilder(tokens: tokens, types: types) { builder, id, type, text in
            if text.starts(with: Self.metaSpace), text.count > Self.metaSpace.count {
                starts.addMergeable(startIDs.count, bytes: text.dropFirst(Self.metaSpace.count))
                startIDs.append(UInt32(id))
                builder.addMergeable(id, bytes: text, decodesTo: [0x20] + Array(text.dropFirst(Self.metaSpace.count)))
            } else {
                builder.addMergeable(id, bytes: text)
            }
        }
        let vocabulary = try builder.vocabulary()
        guard
            let unknown = (integer(forKey: "tokenizer.ggml.unknown_token_id").flatMap { (0..<tokens.count).contains($0) ? UInt32($0) : nil })
                ?? builder.specialTokens["[UNK]"].map(UInt32.init)
        else {
            throw ModelFileError.missing(path: path, key: "tokenizer.ggml.unknown_token_id")
        }
        guard
            let encoder = WordPieceEncoder(
                words: try starts.vocabulary(), wordIDs: startIDs, continuations: vocabulary,
                unknownID: unknown, maxInputCharsPerWord: .max)
        else {
            throw ModelFileError.malformed(path: path, reason: "the vocabulary is too large for a WordPiece trie (\(tokens.count) tokens)")
        }
        let pipeline = OpenModelPipeline(
            model: .wordPiece(encoder),
            normalizer: .bert(
                BertNormalizer(
                    cleanText: true, handleChineseChars: true, stripAccents: bool(forKey: "tokenizer.ggml.normalizer.strip_accents"),
                    lowercase: bool(forKey: "tokenizer.ggml.normalizer.lowercase") ?? true)),
            steps: BertPreTokenizer.steps,
            addedTokens: AddedTokenMatcher(builder.addedTokens),
            decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: true),
            summary: "WordPiece (llama.cpp WPM)", characters: .llamaCpp)
        return Tokenizer(
            name: fileName, vocabulary: vocabulary, preTokenizer: try informationalPreTokenizer(BertPreTokenizer.steps),
            specialTokens: builder.specialTokens, pipeline: pipeline)
    }

    /// U+2581 LOWER ONE EIGHTH BLOCK, SentencePiece's space.
    static let metaSpace: [UInt8] = [0xE2, 0x96, 0x81]

    static func unescapingSpaces(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            if i + 2 < text.count, text[i] == 0xE2, text[i + 1] == 0x96, text[i + 2] == 0x81 {
                out.append(0x20); i += 3
            } else {
                out.append(text[i]); i += 1
            }
        }
        return out
    }
}

/// The `preTokenizer` a model-file tokenizer reports: its first split step's
/// pattern (the pipeline, not this, does the splitting).
func informationalPreTokenizer(_ steps: [SplitStep]) throws -> PreTokenizer {
    switch steps.first {
    case .scanner(.gpt2)?: return .r50k
    case .scanner(.cl100k)?: return .cl100k
    case .scanner(.o200k)?: return .o200k
    case .scanner(let kind)?: return .regex(try RegexPreTokenizer(pattern: kind.pattern))
    case .regex(let splitter, _, _)?: return .regex(try RegexPreTokenizer(pattern: splitter.pattern))
    case .classRun(let run, _, _)?: return .regex(try RegexPreTokenizer(pattern: run.pattern))
    case .characters(.number, _)?: return .regex(try RegexPreTokenizer(pattern: #"\p{N}"#))
    case .characters(.punctuation, _)?: return .regex(try RegexPreTokenizer(pattern: #"[\p{P}\$\+<=>\^~\|`]+"#))
    case .characters(.lineBreak, _)?: return .regex(try RegexPreTokenizer(pattern: #"[\r\n]"#))
    case .characters(.whitespace, _)?: return .regex(try RegexPreTokenizer(pattern: #"\s"#))
    case .characters(.bertPunctuation, _)?: return .regex(try RegexPreTokenizer(pattern: #"[\p{P}\$\+<=>\^~\|`]"#))
    case .digitTriples?: return .regex(try RegexPreTokenizer(pattern: "[0-9][0-9][0-9]"))
    case nil: return .regex(try RegexPreTokenizer(pattern: #"(?s).+"#))
    }
}
