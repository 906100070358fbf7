import Foundation

/// The OpenAI encodings shipped inside TokenKit, with tiktoken's definitions.
public enum OpenAIEncoding: String, CaseIterable, Sendable {
    /// GPT-4 and GPT-3.5-turbo's encoding (100,256 ranks).
    case cl100k_base
    /// GPT-4o, GPT-4.1 and o-series models' encoding (199,998 ranks).
    case o200k_base
    /// GPT-2 and GPT-3's encoding (50,256 ranks), also called `gpt2`.
    case r50k_base
    /// Codex and `text-davinci-002/003`'s encoding: r50k's split with 50,280 ranks.
    case p50k_base
    /// gpt-oss's encoding: o200k_base's ranks and split with the harmony chat
    /// format's special tokens (`<|start|>`, `<|message|>`, `<|channel|>`, …).
    case o200k_harmony
    /// The `*-edit-001` models' encoding: p50k_base's ranks with three fill-in-the-middle tokens.
    case p50k_edit

    /// Accepts the canonical names and tiktoken's alias `gpt2` (r50k_base's ranks).
    public init?(name: String) {
        if name == "gpt2" { self = .r50k_base; return }
        self.init(rawValue: name)
    }

    /// Every name `Tokenizer.named` accepts.
    public static var knownNames: [String] { allCases.map(\.rawValue) + ["gpt2"] }

    /// The pre-tokenizer tiktoken pairs with these ranks (p50k_base shares r50k's).
    public var preTokenizer: PreTokenizer {
        switch self {
        case .cl100k_base: return .cl100k
        case .o200k_base, .o200k_harmony: return .o200k
        case .r50k_base, .p50k_base, .p50k_edit: return .r50k
        }
    }

    /// The encoding whose shipped `.tiktoken` file holds these ranks: itself,
    /// or for o200k_harmony and p50k_edit the base they extend with special tokens.
    public var ranks: OpenAIEncoding {
        switch self {
        case .o200k_harmony: return .o200k_base
        case .p50k_edit: return .p50k_base
        default: return self
        }
    }

    /// The encodings that ship a `.tiktoken` file of their own.
    static var withOwnRanks: [OpenAIEncoding] { allCases.filter { $0.ranks == $0 } }

    /// tiktoken's special tokens for the encoding: text → id.
    public var specialTokens: [String: Int] {
        switch self {
        case .cl100k_base:
            return [
                "<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276
            ]
        case .o200k_base:
            return ["<|endoftext|>": 199999, "<|endofprompt|>": 200018]
        case .r50k_base, .p50k_base:
            return ["<|endoftext|>": 50256]
        case .o200k_harmony:
            // tiktoken 0.14's o200k_harmony(): o200k_base's two, these, and a
            // reserved token for every id up to 201087, so 200018 has two
            // texts, <|endofprompt|> and <|reserved_200018|>.
            var tokens = OpenAIEncoding.o200k_base.specialTokens
            let named = [
                "<|startoftext|>": 199998, "<|endoftext|>": 199999, "<|reserved_200000|>": 200000,
                "<|reserved_200001|>": 200001, "<|return|>": 200002, "<|constrain|>": 200003,
                "<|reserved_200004|>": 200004, "<|channel|>": 200005, "<|start|>": 200006, "<|end|>": 200007,
                "<|message|>": 200008, "<|reserved_200009|>": 200009, "<|reserved_200010|>": 200010,
                "<|reserved_200011|>": 200011, "<|call|>": 200012
            ]
            tokens.merge(named) { _, new in new }
            for id in 200013..<201088 { tokens["<|reserved_\(id)|>"] = id }
            return tokens
        case .p50k_edit:
            return ["<|endoftext|>": 50256, "<|fim_prefix|>": 50281, "<|fim_middle|>": 50282, "<|fim_suffix|>": 50283]
        }
    }

    /// The file's checksum (`Vocabulary.hash` of its bytes) when it was shipped;
    /// its SHA-256 is in Resources/PROVENANCE.md and checked by the tests.
    var shippedChecksum: UInt64 {
        switch self {
        case .cl100k_base: return 0xba3e_f859_7b4d_4f5e
        case .o200k_base: return 0xc354_7c74_9412_120a
        case .r50k_base: return 0xfacd_abd9_3c1a_0bee
        case .p50k_base: return 0xf222_c22f_f6d4_d4f0
        case .o200k_harmony, .p50k_edit: return ranks.shippedChecksum
        }
    }

    /// TokenKit's resource bundle, which holds the `.tiktoken` files.
    #if canImport(Darwin)
        private static let resources = ResourceBundle(module: .module)
    #else
        private static let resources = ResourceBundle(target: "TokenKit")
    #endif

    /// The shipped vocabulary file (the base's, for an encoding that extends one).
    ///
    /// - Throws: `ResourceBundle.Missing` saying where it looked and how to install.
    func resourceLocation() throws(ResourceBundle.Missing) -> URL {
        try Self.resources.url(for: "Resources/\(ranks.rawValue).tiktoken")
    }

    /// The shipped vocabulary file, or nil when it is missing.
    var resourceURL: URL? { try? resourceLocation() }

    private static let cache = TokenizerCache()

    /// Refuses a shipped file that was altered after it was shipped. (A damaged
    /// line is also caught by the parser, with its line number; a changed rank
    /// or a swapped line is caught only here.)
    func verifyShippedChecksum(of data: Data, path: String) throws {
        let checksum = data.withUnsafeBytes { Vocabulary.hash($0.bindMemory(to: UInt8.self).baseAddress!, $0.count) }
        guard checksum == shippedChecksum else {
            throw TokenKitError.alteredVocabulary(path: path, expected: String(shippedChecksum, radix: 16), actual: String(checksum, radix: 16))
        }
    }

    /// The tokenizer, loaded on first use and shared after: from the prepared
    /// binary form in the cache folder when there is a valid one
    /// (`VocabularyCache`), else parsed, prepared and stored there.
    ///
    /// - Throws: `TokenKitError.unreadableFile` when the vocabulary is
    ///   missing from the bundle, `.alteredVocabulary` when it does not match
    ///   its shipped checksum.
    public func tokenizer() throws -> Tokenizer {
        if ranks != self {
            // The base's vocabulary, shared in memory; only the special tokens
            // differ. Loaded before taking the cache's lock, which is not reentrant.
            let base = try ranks.tokenizer()
            return try Self.cache.tokenizer(for: self) {
                try Tokenizer(name: rawValue, vocabulary: base.vocabulary, preTokenizer: preTokenizer, specialTokens: specialTokens)
            }
        }
        return try Self.cache.tokenizer(for: self) {
            let url: URL
            do throws(ResourceBundle.Missing) {
                url = try resourceLocation()
            } catch {
                throw TokenKitError.unreadableFile(path: error.file, reason: error.reason)
            }
            // The shipped file is read and checked only when the prepared form
            // was not made from it as it is now (`VocabularyCache`).
            let source = FileIdentity(path: url.path)
            let prepared = VocabularyCache.load(name: rawValue, sourceChecksum: shippedChecksum)
            if let prepared, let source, prepared.verifiedSource == source {
                return try Tokenizer(name: rawValue, vocabulary: prepared.vocabulary, preTokenizer: preTokenizer, specialTokens: specialTokens)
            }
            let data = try TiktokenFile.readFile(url)
            try verifyShippedChecksum(of: data, path: url.path)
            let vocabulary: Vocabulary
            if let prepared {
                vocabulary = prepared.vocabulary
            } else {
                vocabulary = try data.withUnsafeBytes { try TiktokenFile.parse($0, path: url.path) }
                if let tables = MergeTables.build(for: vocabulary) { vocabulary.attach(tables) }
            }
            VocabularyCache.store(vocabulary, name: rawValue, sourceChecksum: shippedChecksum, verifiedSource: source)
            return try Tokenizer(name: rawValue, vocabulary: vocabulary, preTokenizer: preTokenizer, specialTokens: specialTokens)
        }
    }
}

/// Loads each built-in tokenizer once, even when many threads ask at the same time.
private final class TokenizerCache: @unchecked Sendable {
    // @unchecked Sendable: `loaded` is read and written only under `lock`.
    private let lock = NSLock()
    private var loaded: [OpenAIEncoding: Tokenizer] = [:]

    func tokenizer(for encoding: OpenAIEncoding, load: () throws -> Tokenizer) throws -> Tokenizer {
        lock.lock()
        defer { lock.unlock() }
        if let t = loaded[encoding] { return t }
        let t = try load()
        loaded[encoding] = t
        return t
    }
}
