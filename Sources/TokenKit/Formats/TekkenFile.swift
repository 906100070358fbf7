import ContextKitJSON
import Foundation

/// Reads Mistral's tekken tokenizer files (`tekken.json`: Mistral NeMo, Pixtral,
/// Mistral Small 3 and later), as mistral-common's `Tekkenizer.from_file` does.
///
/// A tekken file is a tiktoken vocabulary written as JSON: `config` gives the
/// pre-tokenizer pattern, the number of special tokens (`default_num_special_tokens`,
/// which come first, ids 0 up) and the size of the vocabulary actually used
/// (`default_vocab_size`: the `vocab` list is cut to that size minus the
/// special tokens); each `vocab` entry is a rank and its bytes in base64;
/// `special_tokens` lists the special tokens by rank (files of version v7 and
/// earlier may leave it out and get mistral-common's twenty defaults). The
/// special tokens the file does not list are `<SPECIAL_n>` fillers. An
/// ordinary token's id is its rank plus the number of special tokens.
///
/// Ids are those of `Tekkenizer.encode(text, bos=False, eos=False)`. That
/// method never reads special tokens out of the text (`<s>` or `[INST]` in
/// a text are plain text), so neither does this tokenizer, whatever special
/// token policy it is given; the special tokens only decode.
enum TekkenFile {
    /// The `config.version` values this reader implements: the tekken versions
    /// mistral-common 1.13 knows (v1 and v2 were SentencePiece-only releases).
    static let supportedVersions = ["v3", "v7", "v11", "v13", "v15"]

    /// Versions after which a file must list its special tokens (mistral-common refuses it otherwise).
    static let lastVersionWithDefaultSpecials = 7

    /// mistral-common's `Tekkenizer.DEPRECATED_SPECIAL_TOKENS`: the special
    /// tokens of a v3 or v7 file that does not list its own, ranks 0 to 19.
    static let defaultSpecialTokens = [
        "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
        "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]",
        "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]"
    ]

    /// Whether a JSON document is a tekken file: an object with a `config`
    /// object and a `vocab` array (a Hugging Face tokenizer.json has `model`).
    static func isTekken(_ root: OrderedJSON) -> Bool {
        root["config"]?.members != nil && root["vocab"]?.elements != nil
    }

    /// Builds the tokenizer of a parsed tekken file; `path` names it in errors.
    ///
    /// - Throws: `ModelFileError` naming the file and the JSON path of what is
    ///   wrong: an unsupported version, a missing or ill-typed field, sizes
    ///   that do not fit together, a vocabulary entry out of rank order or
    ///   with invalid base64, a repeated token or special token.
    static func tokenizer(root: OrderedJSON, path: String, name: String) throws -> Tokenizer {
        try Reader(path: path, root: root).tokenizer(name: name)
    }

    private struct Reader {
        let path: String
        let root: OrderedJSON

        func malformed(_ reason: String) -> ModelFileError { .malformed(path: path, reason: reason) }

        func integer(_ value: OrderedJSON?, _ key: String, atLeast minimum: Int) throws -> Int {
            guard let value, value != .null else { throw ModelFileError.missing(path: path, key: key) }
            guard let n = value.intValue, n >= minimum else {
                throw malformed("\(key) is not a whole number of at least \(minimum)")
            }
            return n
        }

        func tokenizer(name: String) throws -> Tokenizer {
            let config = root["config"]!
            guard let version = config["version"]?.stringValue else { throw ModelFileError.missing(path: path, key: "config.version") }
            guard TekkenFile.supportedVersions.contains(version) else {
                throw ModelFileError.unsupportedComponent(
                    path: path, component: "tekken version '\(version)'",
                    supported: TekkenFile.supportedVersions.map { "tekken \($0)" })
            }
            guard let pattern = config["pattern"]?.stringValue else { throw ModelFileError.missing(path: path, key: "config.pattern") }
            let vocabSize = try integer(config["default_vocab_size"], "config.default_vocab_size", atLeast: 1)
            let specialCount = try integer(config["default_num_special_tokens"], "config.default_num_special_tokens", atLeast: 0)
            let vocab = root["vocab"]!.elements!
            guard vocabSize <= VocabularyBuilder.maximumID else {
                throw malformed("config.default_vocab_size is \(vocabSize); ids go up to \(VocabularyBuilder.maximumID)")
            }
            guard vocabSize <= vocab.count + specialCount else {
                throw malformed("config.default_vocab_size (\(vocabSize)) is more than the \(vocab.count) vocab entries and the \(specialCount) special tokens")
            }
            let ordinaryCount = vocabSize - specialCount
            guard ordinaryCount >= 256 else {
                throw malformed(
                    "config.default_vocab_size (\(vocabSize)) leaves \(ordinaryCount) ordinary tokens after the \(specialCount) special tokens; a byte-level vocabulary needs the 256 bytes"
                )
            }

            let specials = try specialTokens(version: version, count: specialCount)
            let vocabulary = try ordinaryTokens(vocab.prefix(ordinaryCount), offset: specialCount)
            let preTokenizer: PreTokenizer
            if pattern == PreTokenizer.tekken.pattern {
                preTokenizer = .tekken
            } else {
                do {
                    preTokenizer = .regex(try RegexPreTokenizer(pattern: pattern))
                } catch {
                    throw malformed("config.pattern does not compile (\(error))")
                }
            }
            return try Tokenizer(name: name, vocabulary: vocabulary, preTokenizer: preTokenizer, specialTokens: [:], controlTokens: specials)
        }

        /// The special tokens by id: the file's list (or the defaults) and fillers up to `count`.
        func specialTokens(version: String, count: Int) throws -> [Int: String] {
            var texts: [String]
            if let list = root["special_tokens"], list != .null {
                guard let entries = list.elements else { throw malformed("special_tokens is a \(list.kindName), not a list") }
                texts = []
                for (index, entry) in entries.enumerated() {
                    guard let text = entry["token_str"]?.stringValue else { throw ModelFileError.missing(path: path, key: "special_tokens[\(index)].token_str") }
                    let rank = try integer(entry["rank"], "special_tokens[\(index)].rank", atLeast: 0)
                    guard rank == index else {
                        throw malformed("special_tokens[\(index)] (\(text.debugDescription)) has rank \(rank); tekken files list special tokens in rank order from 0")
                    }
                    texts.append(text)
                }
            } else {
                guard Int(version.dropFirst()) ?? 0 <= TekkenFile.lastVersionWithDefaultSpecials else {
                    throw ModelFileError.missing(path: path, key: "special_tokens (a tekken \(version) file must list its special tokens)")
                }
                texts = TekkenFile.defaultSpecialTokens
            }
            guard texts.count <= count else {
                throw malformed("special_tokens lists \(texts.count) tokens but config.default_num_special_tokens is \(count)")
            }
            var seen: [String: Int] = [:]
            for (rank, text) in texts.enumerated() {
                if let earlier = seen.updateValue(rank, forKey: text) {
                    throw malformed("special_tokens[\(rank)] repeats \(text.debugDescription), the special token of rank \(earlier)")
                }
            }
            // mistral-common's fillers, `<SPECIAL_{rank}>`, must not repeat a listed token either.
            for rank in texts.count..<count {
                let filler = "<SPECIAL_\(rank)>"
                if let earlier = seen[filler] {
                    throw malformed("special_tokens[\(earlier)] is \(filler.debugDescription), the name of the filler for rank \(rank)")
                }
                texts.append(filler)
            }
            return Dictionary(uniqueKeysWithValues: texts.enumerated().map { ($0.offset, $0.element) })
        }

        /// The ordinary tokens, rank `i` at id `offset + i`: entry `i` must have
        /// rank `i`, valid base64, and for the first 256 the byte `i` itself.
        func ordinaryTokens(_ entries: ArraySlice<OrderedJSON>, offset: Int) throws -> Vocabulary {
            var storage: [UInt8] = []
            storage.reserveCapacity(entries.count * 7)
            var table: [(offset: Int, length: Int, id: Int)] = []
            table.reserveCapacity(entries.count)
            for (i, entry) in entries.enumerated() {
                let rank = try integer(entry["rank"], "vocab[\(i)].rank", atLeast: 0)
                guard rank == i else { throw malformed("vocab[\(i)] has rank \(rank); tekken files list the vocabulary in rank order from 0") }
                guard var base64 = entry["token_bytes"]?.stringValue else { throw ModelFileError.missing(path: path, key: "vocab[\(i)].token_bytes") }
                let start = storage.count
                let valid = base64.withUTF8 { TiktokenFile.decodeBase64($0, 0..<$0.count, into: &storage) }
                guard valid, storage.count > start else { throw malformed("vocab[\(i)].token_bytes \(base64.debugDescription) is not base64 of at least one byte") }
                if i < 256, storage.count - start != 1 || storage[start] != UInt8(i) {
                    throw malformed("vocab[\(i)] is not the single byte \(i); the first 256 tekken tokens are the bytes in order")
                }
                table.append((start, storage.count - start, offset + i))
            }
            switch Vocabulary.build(storage: storage, entries: table) {
            case .success(let vocabulary):
                return vocabulary
            case .failure(let duplicate):
                throw malformed("vocab[\(duplicate.index)]: \(duplicate.reason)")
            }
        }
    }
}
