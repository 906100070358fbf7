import ContextKitJSON
import Foundation

/// Reads a Hugging Face `tokenizer.json` whose model is BPE: byte-level
/// vocabularies (GPT-2, Llama 3, Qwen) and SentencePiece-style ones with byte
/// fallback (Llama 2, Mistral), with their normalizer, pre-tokenizer and added
/// tokens. Ids are what `tokenizers` gives for `encode(text, add_special_tokens=False)`
/// when the text holds no special token.
enum HuggingFaceTokenizerFile {
    /// Reads the file and builds its tokenizer.
    static func load(contentsOf url: URL) throws -> Tokenizer {
        let file = try MappedFile(path: url.path)
        return try withExtendedLifetime(file) { try tokenizer(json: file.bytes, path: url.path, name: url.lastPathComponent) }
    }

    /// Builds a tokenizer from the bytes of a `tokenizer.json`; `path` names it in errors.
    static func tokenizer(json data: Data, path: String, name: String) throws -> Tokenizer {
        try data.withUnsafeBytes { try tokenizer(json: $0, path: path, name: name) }
    }

    static func tokenizer(json bytes: UnsafeRawBufferPointer, path: String, name: String) throws -> Tokenizer {
        try tokenizer(root: JSONModelFile.parseObject(bytes, path: path), path: path, name: name)
    }

    /// Builds a tokenizer from a parsed `tokenizer.json` object.
    static func tokenizer(root: OrderedJSON, path: String, name: String) throws -> Tokenizer {
        try Reader(path: path, root: root).tokenizer(name: name)
    }

    /// The model types `tokenizer.json` can name, and what ContextKit does with them.
    static let supportedModels = ["BPE (byte-level, or SentencePiece-style with byte fallback)", "WordPiece (BERT)", "Unigram"]
    /// The most components (`Sequence` entries counted, nested ones too) a
    /// `pre_tokenizer` or a `normalizer` may have. Each pre-tokenizer step is a
    /// level of recursion when text is split, and a file of 3,000 steps ended
    /// the process with SIGSEGV; the tokenizer.json files on this machine
    /// have at most 3 per section and the largest known (DeepSeek's) 7, so 64
    /// refuses only what no trained tokenizer is.
    static let maximumComponents = 64

    static let supportedPreTokenizers = ["Sequence", "Split", "ByteLevel", "Digits", "Punctuation", "Metaspace", "Whitespace", "WhitespaceSplit", "BertPreTokenizer"]

    /// Adds `added_tokens`: special ones are control tokens (plain text unless
    /// allowed), the others are cut out of any text.
    static func addAddedTokens(_ root: OrderedJSON, path: String, into builder: inout VocabularyBuilder) throws {
        for added in root["added_tokens"]?.elements ?? [] {
            guard let content = added["content"]?.stringValue, let id = added["id"]?.intValue, !content.isEmpty else { continue }
            guard (0...VocabularyBuilder.maximumID).contains(id) else {
                throw ModelFileError.malformed(path: path, reason: "the added token \(content.debugDescription) has id \(id); ids go from 0 to \(VocabularyBuilder.maximumID)")
            }
            if added["special"]?.boolValue ?? false {
                builder.addSpecial(id, text: content)
            } else {
                builder.addAdded(
                    AddedTokenMatcher.Entry(
                        text: Array(content.utf8), id: id,
                        stripLeft: added["lstrip"]?.boolValue ?? false,
                        stripRight: added["rstrip"]?.boolValue ?? false,
                        singleWord: added["single_word"]?.boolValue ?? false))
            }
        }
    }

    struct Reader {
        let path: String
        let root: OrderedJSON

        /// The tokenizer; a BPE model's tables are `cached` ones (`root` may
        /// then lack its `model`), or are built and stored in `cache` for `file`.
        func tokenizer(
            name: String, cached: PreparedMergeList? = nil, cache: ModelFileCache = ModelFileCache(directory: nil),
            file: MappedFile? = nil
        ) throws -> Tokenizer {
            if let cached { return try bpeTokenizer(name: name) { _, _ in cached } }
            guard let model = root["model"], model.members != nil else { throw ModelFileError.missing(path: path, key: "model") }
            let type = model["type"]?.stringValue ?? (model["merges"] == nil || model["merges"] == .null ? "unknown" : "BPE")
            if type == "WordPiece" {
                let normalizer = try root["normalizer"].flatMap { $0 == .null ? nil : try self.normalizer($0) }
                var pre = PreTokenizerParts()
                if let p = root["pre_tokenizer"], p != .null { try preTokenizer(p, into: &pre) }
                return try HuggingFaceTokenizerFile.wordPiece(
                    model, root: root, path: path, name: name,
                    normalizers: (normalizer.map { [$0] } ?? []) + pre.normalizers, steps: pre.steps)
            }
            if type == "Unigram" { return try unigramTokenizer(model, name: name) }
            guard type == "BPE" else {
                let names = ["Unigram": "Unigram (SentencePiece unigram)", "WordPiece": "WordPiece (BERT)", "WordLevel": "WordLevel"]
                throw ModelFileError.unsupportedTokenizer(path: path, name: names[type] ?? "'\(type)'", supported: HuggingFaceTokenizerFile.supportedModels)
            }
            for (key, value) in [("continuing_subword_prefix", model["continuing_subword_prefix"]), ("end_of_word_suffix", model["end_of_word_suffix"])] {
                if let value = value?.stringValue, !value.isEmpty {
                    throw ModelFileError.unsupportedComponent(path: path, component: "BPE \(key) '\(value)'", supported: ["BPE without subword prefixes or suffixes"])
                }
            }
            if let dropout = model["dropout"]?.doubleValue, dropout > 0 {
                throw ModelFileError.unsupportedComponent(path: path, component: "BPE dropout \(dropout) (random merges)", supported: ["BPE without dropout"])
            }
            return try bpeTokenizer(name: name) { byteLevel, escapesSpaces in
                let built = try bpeTables(model, byteLevel: byteLevel, escapesSpaces: escapesSpaces)
                if let file { cache.store(built, for: file) }
                return built
            }
        }

        /// A BPE tokenizer: the normalizer and pre-tokenizer from `root`, the
        /// tables from `tables` (given whether the vocabulary is byte-level and
        /// whether the normalizer writes spaces as `▁`).
        private func bpeTokenizer(name: String, tables: (_ byteLevel: Bool, _ escapesSpaces: Bool) throws -> PreparedMergeList) throws -> Tokenizer {
            var normalizers: [Normalizer] = []
            if let n = root["normalizer"], n != .null { normalizers.append(try normalizer(n)) }
            var pre = PreTokenizerParts()
            if let p = root["pre_tokenizer"], p != .null { try preTokenizer(p, into: &pre) }
            normalizers += pre.normalizers
            let byteLevel = pre.byteLevel
            let escapesSpaces = normalizers.contains(where: \.escapesSpaces)

            let prepared = try tables(byteLevel, escapesSpaces)
            let normalizer: Normalizer? = normalizers.isEmpty ? nil : normalizers.count == 1 ? normalizers[0] : .sequence(normalizers)
            let pipeline = OpenModelPipeline(
                model: .mergeList(prepared.encoder), normalizer: normalizer, steps: pre.steps,
                addedTokens: AddedTokenMatcher(prepared.addedTokens),
                decoder: prepared.decoder.droppingLeadingSpace(normalizers.contains(where: \.prependsMetaSpace)),
                summary: "Hugging Face BPE, " + (byteLevel ? "byte-level" : "characters with byte fallback"))
            return Tokenizer(
                name: name, vocabulary: prepared.encoder.vocabulary, preTokenizer: try informationalPreTokenizer(pre.steps),
                specialTokens: prepared.specialTokens, pipeline: pipeline, inputSpecials: InputSpecials(postProcessor: root["post_processor"]))
        }

        /// What `model`'s vocabulary and merges make.
        private func bpeTables(_ model: OrderedJSON, byteLevel: Bool, escapesSpaces: Bool) throws -> PreparedMergeList {
            guard let vocab = model["vocab"]?.members else { throw ModelFileError.missing(path: path, key: "model.vocab") }
            var builder = VocabularyBuilder(path: path, capacity: vocab.count)
            var text: [UInt8] = [], scratch: [UInt8] = []
            var byteFallbackIDs = [UInt32](repeating: .max, count: 256)
            for member in vocab {
                text.removeAll(keepingCapacity: true)
                text.append(contentsOf: member.key.utf8)
                guard let id = member.value.intValue, id >= 0 else {
                    throw ModelFileError.malformed(path: path, reason: "the vocabulary entry \(String(decoding: text, as: UTF8.self).debugDescription) has no id")
                }
                // Checked before any table is sized by the id (Vocabulary.build only sees mergeable tokens).
                guard id <= VocabularyBuilder.maximumID else {
                    throw ModelFileError.malformed(
                        path: path,
                        reason: "the vocabulary entry \(String(decoding: text, as: UTF8.self).debugDescription) has id \(id); ids go up to \(VocabularyBuilder.maximumID)")
                }
                text.withUnsafeBytes { raw in
                    if byteLevel {
                        scratch.removeAll(keepingCapacity: true)
                        if ByteLevelAlphabet.decode(raw, into: &scratch) {
                            builder.addMergeable(id, bytes: scratch)
                        } else {
                            builder.addDecodeOnly(id, bytes: text)
                        }
                    } else if let b = GGUFFile.byteTokenValue(raw) {
                        byteFallbackIDs[Int(b)] = UInt32(id)
                        builder.addMergeable(id, bytes: text, decodesTo: [b])
                    } else {
                        builder.addMergeable(id, bytes: text, decodesTo: escapesSpaces ? GGUFFile.unescapingSpaces(raw) : nil)
                    }
                }
            }
            try HuggingFaceTokenizerFile.addAddedTokens(root, path: path, into: &builder)
            let vocabulary = try builder.vocabulary()
            let pairs = try merges(model["merges"], vocabulary, byteLevel: byteLevel)

            var byteIDs = byteFallbackIDs
            if byteLevel {
                byteIDs = (0..<256).map { b -> UInt32 in
                    var byte = UInt8(b)
                    return vocabulary.id(of: &byte, count: 1) ?? .max
                }
            }
            var unknownID = UInt32.max
            if let unk = model["unk_token"]?.stringValue {
                var unk = unk
                unknownID = unk.withUTF8 { vocabulary.id(of: $0.baseAddress!, count: $0.count) } ?? .max
            }
            let encoder = MergeListEncoder(
                vocabulary: vocabulary, pairs: pairs, byteLevel: byteLevel,
                ignoreMerges: model["ignore_merges"]?.boolValue ?? false, byteIDs: byteIDs,
                unknownID: unknownID, fuseUnknown: model["fuse_unk"]?.boolValue ?? false,
                byteFallback: model["byte_fallback"]?.boolValue ?? false)
            return PreparedMergeList(
                encoder: encoder, decoder: TokenDecoder(pieces: builder.decoded, dropsLeadingSpace: false),
                specialTokens: builder.specialTokens, addedTokens: builder.addedTokens)
        }

        /// `merges`: `"a b"` strings or `["a", "b"]` pairs; rank = position.
        private func merges(_ value: OrderedJSON?, _ vocabulary: Vocabulary, byteLevel: Bool) throws -> PairTable {
            guard let list = value?.elements else { throw ModelFileError.missing(path: path, key: "model.merges") }
            let pairs = PairTable(capacity: list.count)
            var text: [UInt8] = [], merged: [UInt8] = []
            for (rank, merge) in list.enumerated() {
                text.removeAll(keepingCapacity: true)
                var split: Int
                switch merge {
                case .string(let s):
                    text.append(contentsOf: s.utf8)
                    guard let space = text.firstIndex(of: 0x20) else {
                        throw GGUFFile.mergeWithoutSeparator(path: path, rank: rank, merge: text)
                    }
                    text.remove(at: space)
                    split = space
                case .array(let pair) where pair.count == 2:
                    guard case .string(let a) = pair[0], case .string(let b) = pair[1] else { fallthrough }
                    text.append(contentsOf: a.utf8)
                    split = text.count
                    text.append(contentsOf: b.utf8)
                default:
                    throw ModelFileError.malformed(path: path, reason: "merge \(rank + 1) is neither \"a b\" nor [\"a\", \"b\"]")
                }
                if byteLevel {
                    merged.removeAll(keepingCapacity: true)
                    let ok = text.withUnsafeBytes { raw in
                        ByteLevelAlphabet.decode(UnsafeRawBufferPointer(rebasing: raw[..<split]), into: &merged)
                    }
                    let leftCount = merged.count
                    guard ok, text.withUnsafeBytes({ ByteLevelAlphabet.decode(UnsafeRawBufferPointer(rebasing: $0[split...]), into: &merged) }) else { continue }
                    split = leftCount
                    swap(&text, &merged)
                }
                text.withUnsafeBufferPointer { GGUFFile.insertMerge($0, split: split, rank: UInt32(rank), vocabulary, pairs) }
            }
            return pairs
        }

        /// The `normalizer` section as one normalizer.
        ///
        /// - Throws: `ModelFileError.malformed` beyond `maximumComponents`
        ///   components, or what a component that cannot be read throws.
        func normalizer(_ n: OrderedJSON) throws -> Normalizer {
            var components = 0
            return try normalizer(n, counting: &components)
        }

        /// The error for a section of more than `maximumComponents` components.
        private func tooManyComponents(_ section: String) -> ModelFileError {
            .malformed(
                path: path,
                reason:
                    "its \(section) has more than \(HuggingFaceTokenizerFile.maximumComponents) components (Sequence entries, nested ones counted), where real tokenizers have fewer than 10"
            )
        }

        private func normalizer(_ n: OrderedJSON, counting components: inout Int) throws -> Normalizer {
            components += 1
            guard components <= HuggingFaceTokenizerFile.maximumComponents else { throw tooManyComponents("normalizer") }
            let type = n["type"]?.stringValue ?? "?"
            switch type {
            case "NFC": return .nfc
            case "NFD": return .nfd
            case "NFKC": return .nfkc
            case "NFKD": return .nfkd
            case "Lowercase": return .lowercase
            case "Strip": return .strip(left: n["strip_left"]?.boolValue ?? true, right: n["strip_right"]?.boolValue ?? true)
            case "Prepend": return .prepend(Array((n["prepend"]?.stringValue ?? "").utf8))
            case "Replace" where n["pattern"]?["Regex"] != nil:
                return try regexReplace(n)
            case "Precompiled":
                return try precompiled(n)
            case "Replace":
                guard let literal = n["pattern"]?["String"]?.stringValue else {
                    throw unsupported("the Replace normalizer with a regex pattern", Normalizer.supportedNames)
                }
                return .replace(pattern: Array(literal.utf8), content: Array((n["content"]?.stringValue ?? "").utf8))
            case "Sequence":
                return .sequence(try (n["normalizers"]?.elements ?? []).map { try normalizer($0, counting: &components) })
            case "BertNormalizer":
                return .bert(
                    BertNormalizer(
                        cleanText: n["clean_text"]?.boolValue ?? true, handleChineseChars: n["handle_chinese_chars"]?.boolValue ?? true,
                        stripAccents: n["strip_accents"]?.boolValue, lowercase: n["lowercase"]?.boolValue ?? true))
            default:
                throw unsupported("the \(type) normalizer", Normalizer.supportedNames)
            }
        }

        /// What the pre-tokenizer section amounts to.
        struct PreTokenizerParts {
            var steps: [SplitStep] = []
            /// Text rewrites that HF does inside the pre-tokenizer but that act on
            /// the whole text when they come first (prefix space, `▁` for spaces).
            var normalizers: [Normalizer] = []
            var byteLevel = false
            /// The components read so far, `Sequence` entries included.
            var components = 0
        }

        /// Adds what the `pre_tokenizer` component `p` does to `parts`.
        ///
        /// - Throws: `ModelFileError.malformed` beyond `maximumComponents`
        ///   components, or what a component that cannot be read throws.
        func preTokenizer(_ p: OrderedJSON, into parts: inout PreTokenizerParts) throws {
            parts.components += 1
            guard parts.components <= HuggingFaceTokenizerFile.maximumComponents else { throw tooManyComponents("pre_tokenizer") }
            let type = p["type"]?.stringValue ?? "?"
            let first = parts.steps.isEmpty
            switch type {
            case "Sequence":
                for inner in p["pretokenizers"]?.elements ?? [] { try preTokenizer(inner, into: &parts) }
            case "Split":
                let regex: String
                if let r = p["pattern"]?["Regex"]?.stringValue {
                    regex = r
                } else if let s = p["pattern"]?["String"]?.stringValue {
                    regex = NSRegularExpression.escapedPattern(for: s)
                } else {
                    throw ModelFileError.missing(path: path, key: "pre_tokenizer Split pattern")
                }
                let behaviorName = p["behavior"]?.stringValue ?? "Isolated"
                guard let behavior = SplitBehavior(rawValue: behaviorName) else {
                    throw unsupported("the Split behaviour \(behaviorName)", SplitBehavior.allCases.map(\.rawValue))
                }
                parts.steps.append(try SplitStep.split(pattern: regex, behavior: behavior, invert: p["invert"]?.boolValue ?? false))
            case "ByteLevel":
                parts.byteLevel = true
                if p["add_prefix_space"]?.boolValue ?? true {
                    guard first else { throw unsupported("ByteLevel with add_prefix_space after another pre-tokenizer", ["ByteLevel add_prefix_space as the first pre-tokenizer"]) }
                    parts.normalizers.append(.prefixSpace)
                }
                if p["use_regex"]?.boolValue ?? true { parts.steps.append(.scanner(.gpt2)) }
            case "Digits":
                parts.steps.append(.characters(.number, p["individual_digits"]?.boolValue ?? false ? .isolated : .contiguous))
            case "Punctuation":
                let behaviorName = p["behavior"]?.stringValue ?? "Isolated"
                guard let behavior = SplitBehavior(rawValue: behaviorName) else {
                    throw unsupported("the Punctuation behaviour \(behaviorName)", SplitBehavior.allCases.map(\.rawValue))
                }
                parts.steps.append(.characters(.punctuation, behavior))
            case "Metaspace":
                guard first else { throw unsupported("Metaspace after another pre-tokenizer", ["Metaspace as the first pre-tokenizer"]) }
                let replacement = Array((p["replacement"]?.stringValue ?? "\u{2581}").utf8)
                let scheme = p["prepend_scheme"]?.stringValue ?? ((p["add_prefix_space"]?.boolValue ?? true) ? "always" : "never")
                parts.normalizers.append(.replace(pattern: [0x20], content: replacement))
                // tokenizers prepends only to text that does not start with the replacement already.
                if scheme != "never" { parts.normalizers.append(.prefixUnlessPresent(replacement)) }
                if p["split"]?.boolValue ?? true {
                    let escaped = NSRegularExpression.escapedPattern(for: String(decoding: replacement, as: UTF8.self))
                    parts.steps.append(try SplitStep.split(pattern: escaped, behavior: .mergedWithNext))
                }
            case "Whitespace":
                parts.steps.append(try SplitStep.split(pattern: #"\w+|[^\w\s]+"#, behavior: .removed, invert: true))
            case "BertPreTokenizer":
                parts.steps += BertPreTokenizer.steps
            case "WhitespaceSplit":
                parts.steps.append(try SplitStep.split(pattern: #"\s+"#, behavior: .removed))
            default:
                throw unsupported("the \(type) pre-tokenizer", HuggingFaceTokenizerFile.supportedPreTokenizers)
            }
        }

        private func unsupported(_ component: String, _ supported: [String]) -> ModelFileError {
            .unsupportedComponent(path: path, component: component, supported: supported)
        }
    }
}

extension Normalizer {
    /// Whether the normalizer puts SentencePiece's `▁` before the text.
    var prependsMetaSpace: Bool {
        switch self {
        case .prepend(let p), .prefixUnlessPresent(let p): return p == GGUFFile.metaSpace
        case .sequence(let steps): return steps.contains(where: \.prependsMetaSpace)
        default: return false
        }
    }

    /// Whether the normalizer writes spaces as SentencePiece's `▁`.
    var escapesSpaces: Bool {
        switch self {
        case let .replace(pattern, content): return pattern == [0x20] && content == GGUFFile.metaSpace
        case .sequence(let steps): return steps.contains(where: \.escapesSpaces)
        default: return false
        }
    }
}
