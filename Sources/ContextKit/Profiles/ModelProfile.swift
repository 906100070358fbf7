/// What a model makes of tokens: how many fit, which tokenizer counts them,
/// and what every request costs on top of the text.
///
/// Built-in profiles live in `Resources/profiles.json`; users add their own
/// in the same format (see `ProfileCatalog`).
public struct ModelProfile: Equatable, Sendable, Codable {
    /// The name users type (`gpt-4o`, `apple-on-device`).
    public var name: String
    /// One line for humans: who makes the model and what the numbers rest on.
    public var summary: String
    /// Tokens per request, shared by instructions, prompt, schema and answer.
    public var contextWindow: Int
    /// The tokenizer that counts for this model, or the proxy that estimates it.
    public var tokenizer: TokenizerSpec
    /// Present when the model's own tokenizer is not public and counts are an
    /// estimate from `tokenizer`; nil when counts are exact.
    public var estimate: TokenEstimate?
    /// Fixed costs on top of the text.
    public var overheads: Overheads
    /// Tokens to keep free for the answer unless the user says otherwise.
    public var defaultReserve: Int
    /// Where the window and overheads came from, one note each, for a profile
    /// read from a model file (`init(gguf:)`); empty for one from a profiles file.
    public var provenance: [String] = []

    /// Whether counts for this model are estimates (`estimate` is set).
    public var isEstimate: Bool { estimate != nil }

    /// A profile from its parts; only the name, window and tokenizer are required.
    public init(
        name: String, summary: String = "", contextWindow: Int, tokenizer: TokenizerSpec,
        estimate: TokenEstimate? = nil, overheads: Overheads = .init(), defaultReserve: Int = 0
    ) {
        self.name = name
        self.summary = summary
        self.contextWindow = contextWindow
        self.tokenizer = tokenizer
        self.estimate = estimate
        self.overheads = overheads
        self.defaultReserve = defaultReserve
    }

    /// Fixed token costs, as measured or documented for the model.
    public struct Overheads: Equatable, Sendable, Codable {
        /// Charged once per request (Apple's session: 22; OpenAI's reply priming: 3).
        public var perRequest: Int
        /// Charged for each message in the request (OpenAI chat: 3).
        public var perMessage: Int
        /// Charged around an output schema beyond its compact JSON (Apple: about 6).
        public var schemaFraming: Int

        /// Overheads from their parts, in tokens (none by default).
        public init(perRequest: Int = 0, perMessage: Int = 0, schemaFraming: Int = 0) {
            self.perRequest = perRequest
            self.perMessage = perMessage
            self.schemaFraming = schemaFraming
        }

        /// The fixed cost, in tokens, of a request that sends `messages` messages.
        public func request(messages: Int) -> Int { perRequest + perMessage * messages }
    }

    private enum CodingKeys: String, CodingKey {
        case name, summary, contextWindow, tokenizer, estimate, overheads, defaultReserve
    }

    /// Reads a profile from the JSON of a profiles file. Only `name`,
    /// `contextWindow` and `tokenizer` are required, so a user profile can be
    /// three lines long.
    ///
    /// - Throws: `DecodingError` when a required key is missing or
    ///   `contextWindow` is not a positive number of tokens.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        summary = try c.decodeIfPresent(String.self, forKey: .summary) ?? ""
        contextWindow = try c.decode(Int.self, forKey: .contextWindow)
        tokenizer = try c.decode(TokenizerSpec.self, forKey: .tokenizer)
        estimate = try c.decodeIfPresent(TokenEstimate.self, forKey: .estimate)
        overheads = try c.decodeIfPresent(Overheads.self, forKey: .overheads) ?? .init()
        defaultReserve = try c.decodeIfPresent(Int.self, forKey: .defaultReserve) ?? 0
        guard contextWindow > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .contextWindow, in: c, debugDescription: "contextWindow must be a positive number of tokens")
        }
    }
}

extension ModelProfile.Overheads {
    private enum CodingKeys: String, CodingKey { case perRequest, perMessage, schemaFraming }

    /// Reads overheads from JSON; a missing key is 0.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        perRequest = try c.decodeIfPresent(Int.self, forKey: .perRequest) ?? 0
        perMessage = try c.decodeIfPresent(Int.self, forKey: .perMessage) ?? 0
        schemaFraming = try c.decodeIfPresent(Int.self, forKey: .schemaFraming) ?? 0
    }
}

/// How a count is estimated for a model whose tokenizer is not public: the
/// proxy tokenizer's count scaled by a factor fitted on measurements, with
/// CJK characters (which the proxy and the model may cut very differently)
/// priced separately.
///
///     estimate = factor × max(0, proxyTokens − proxyTokensPerCJKCharacter × cjk)
///              + tokensPerCJKCharacter × cjk
public struct TokenEstimate: Equatable, Sendable, Codable {
    /// How the numbers were obtained, in a sentence a user can check.
    public var method: String
    /// Model tokens per proxy token, for text other than CJK.
    public var factor: Double
    /// Proxy tokens per CJK character (measured on the proxy).
    public var proxyTokensPerCJKCharacter: Double
    /// Model tokens per CJK character.
    public var tokensPerCJKCharacter: Double
    /// Relative error bar of the estimate for non-CJK text (0.15 = ±15%).
    public var errorBar: Double
    /// Relative error bar for CJK text.
    public var cjkErrorBar: Double

    /// An estimate from its figures; `cjkErrorBar` defaults to `errorBar`, and
    /// CJK characters are not priced apart when both CJK rates are 0.
    public init(
        method: String, factor: Double, proxyTokensPerCJKCharacter: Double = 0, tokensPerCJKCharacter: Double = 0,
        errorBar: Double, cjkErrorBar: Double? = nil
    ) {
        self.method = method
        self.factor = factor
        self.proxyTokensPerCJKCharacter = proxyTokensPerCJKCharacter
        self.tokensPerCJKCharacter = tokensPerCJKCharacter
        self.errorBar = errorBar
        self.cjkErrorBar = cjkErrorBar ?? errorBar
    }

    /// The estimated model tokens of a text the proxy counts as `proxyTokens`,
    /// holding `cjkCharacters` CJK characters.
    public func tokens(proxyTokens: Int, cjkCharacters: Int) -> Int {
        guard cjkCharacters > 0, proxyTokensPerCJKCharacter > 0 else {
            return Int((factor * Double(proxyTokens)).rounded())
        }
        let cjk = Double(cjkCharacters)
        let rest = max(0, Double(proxyTokens) - proxyTokensPerCJKCharacter * cjk)
        return Int((factor * rest + tokensPerCJKCharacter * cjk).rounded())
    }

    /// The most proxy tokens a text holding `cjkCharacters` CJK characters
    /// may count for its estimate to stay within `limit`, or -1 when even no
    /// token is over it: the limit to give `Tokenizer.count(utf8:limit:allowedSpecial:)`.
    /// The estimate grows with the proxy count, so a binary search finds it.
    package func proxyTokens(within limit: Int, cjkCharacters: Int) -> Int {
        guard tokens(proxyTokens: 0, cjkCharacters: cjkCharacters) <= limit else { return -1 }
        var low = 0, high = 1 << 40  // more tokens than any text holds
        while low < high {
            let mid = (low + high + 1) >> 1
            if tokens(proxyTokens: mid, cjkCharacters: cjkCharacters) <= limit { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The error bar that applies to a text, weighted by how much of it is CJK.
    public func errorBar(characters: Int, cjkCharacters: Int) -> Double {
        guard characters > 0 else { return errorBar }
        let share = Double(cjkCharacters) / Double(characters)
        return errorBar * (1 - share) + cjkErrorBar * share
    }
}

extension TokenEstimate {
    private enum CodingKeys: String, CodingKey {
        case method, factor, proxyTokensPerCJKCharacter, tokensPerCJKCharacter, errorBar, cjkErrorBar
    }

    /// Reads an estimate from JSON: `method`, `factor` and `errorBar` are required.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            method: try c.decode(String.self, forKey: .method),
            factor: try c.decode(Double.self, forKey: .factor),
            proxyTokensPerCJKCharacter: try c.decodeIfPresent(Double.self, forKey: .proxyTokensPerCJKCharacter) ?? 0,
            tokensPerCJKCharacter: try c.decodeIfPresent(Double.self, forKey: .tokensPerCJKCharacter) ?? 0,
            errorBar: try c.decode(Double.self, forKey: .errorBar),
            cjkErrorBar: try c.decodeIfPresent(Double.self, forKey: .cjkErrorBar))
    }
}
