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
        case .o200k_base: return .o200k
        case .r50k_base, .p50k_base: return .r50k
        }
    }

    /// tiktoken's special tokens for the encoding: text → id.
    public var specialTokens: [String: Int] {
        switch self {
        case .cl100k_base:
            return ["<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                    "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276]
        case .o200k_base:
            return ["<|endoftext|>": 199999, "<|endofprompt|>": 200018]
        case .r50k_base, .p50k_base:
            return ["<|endoftext|>": 50256]
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
        }
    }

    /// The shipped vocabulary file.
    var resourceURL: URL? {
        Bundle.module.url(forResource: rawValue, withExtension: "tiktoken", subdirectory: "Resources")
    }

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
        try Self.cache.tokenizer(for: self) {
            guard let url = resourceURL else {
                throw TokenKitError.unreadableFile(path: "\(rawValue).tiktoken", reason: "the resource is missing from the TokenKit bundle; reinstall ContextKit")
            }
            let data = try TiktokenFile.readFile(url)
            try verifyShippedChecksum(of: data, path: url.path)
            let vocabulary: Vocabulary
            if let prepared = VocabularyCache.load(name: rawValue, sourceChecksum: shippedChecksum) {
                vocabulary = prepared
            } else {
                vocabulary = try data.withUnsafeBytes { try TiktokenFile.parse($0, path: url.path) }
                if let tables = MergeTables.build(for: vocabulary) { vocabulary.attach(tables) }
                VocabularyCache.store(vocabulary, name: rawValue, sourceChecksum: shippedChecksum)
            }
            return try Tokenizer(name: rawValue, vocabulary: vocabulary, preTokenizer: preTokenizer, specialTokens: specialTokens)
        }
    }
}

/// Loads each built-in tokenizer once, even when many threads ask at the same time.
private final class TokenizerCache: @unchecked Sendable {
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
