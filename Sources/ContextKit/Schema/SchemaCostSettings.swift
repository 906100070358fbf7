/// What `SchemaCost` needs to know about a model: how it counts, how it is
/// given schemas, and the budget a schema competes for. A CLI builds this
/// from a `ModelProfile`; tests build it directly.
public struct SchemaCostSettings: Sendable {
    /// The profile's name, for reports.
    public var profileName: String
    /// The tokenizer that counts (the model's own, or a proxy).
    public var tokenizer: Tokenizer
    /// How the model's count is estimated from the tokenizer's; nil when the tokenizer is the model's own.
    public var estimate: TokenEstimate?
    /// How the estimate is made, said in reports ("cl100k_base × 1.16, proxy for Apple's tokenizer").
    public var method: String
    /// How output schemas (GenerationSchema, JSON Schema, response_format) reach the model.
    public var outputSchemas: SchemaPlacement
    /// How tool definitions reach the model.
    public var tools: SchemaPlacement
    /// Where the output-schema framing number comes from, said in reports.
    public var framingSource: String
    /// Where the tool framing numbers come from.
    public var toolFramingSource: String
    /// Said with every output-schema report (e.g. that a format is unpublished).
    public var outputSchemaNote: String?
    /// Said with every tool-list report.
    public var toolNote: String?
    /// Tokens the model holds in total (input and output).
    public var contextWindow: Int
    /// Tokens charged per request besides the content (Apple: 22).
    public var requestOverhead: Int
    /// Tokens charged per message sent (OpenAI: 3); the request's overhead for
    /// a schema priced with instructions is that of two messages, as `TokenBudget` charges.
    public var messageOverhead: Int
    /// Tokens to keep free for the answer.
    public var responseReserve: Int
    /// Which rule set `responseReserve` (`TokenBudget.reserve(given:profileReserve:window:)`).
    public var reserveSource: TokenBudget.ReserveSource
    /// Whether the runtime can constrain output to a schema without putting it
    /// in the prompt (Apple's `includeSchemaInPrompt: false`).
    public var canLeaveSchemaOutOfPrompt: Bool

    /// Settings from their parts; `SchemaCostSettings(profile:tokenizer:runtime:responseReserve:)`
    /// builds them for a profile. `toolFramingSource` defaults to `framingSource`.
    public init(
        profileName: String, tokenizer: Tokenizer, estimate: TokenEstimate? = nil, method: String,
        outputSchemas: SchemaPlacement, tools: SchemaPlacement, framingSource: String, toolFramingSource: String? = nil, outputSchemaNote: String? = nil, toolNote: String? = nil,
        contextWindow: Int, requestOverhead: Int = 0, messageOverhead: Int = 0, responseReserve: Int = 0, reserveSource: TokenBudget.ReserveSource = .given,
        canLeaveSchemaOutOfPrompt: Bool = false
    ) {
        self.profileName = profileName
        self.tokenizer = tokenizer
        self.estimate = estimate
        self.method = method
        self.outputSchemas = outputSchemas
        self.tools = tools
        self.framingSource = framingSource
        self.toolFramingSource = toolFramingSource ?? framingSource
        self.outputSchemaNote = outputSchemaNote
        self.toolNote = toolNote
        self.contextWindow = contextWindow
        self.requestOverhead = requestOverhead
        self.messageOverhead = messageOverhead
        self.responseReserve = responseReserve
        self.reserveSource = reserveSource
        self.canLeaveSchemaOutOfPrompt = canLeaveSchemaOutOfPrompt
    }

    /// True when counts are a proxy's, scaled: every number is then shown with ≈.
    public var isEstimate: Bool { estimate != nil }

    /// The model's tokens for `text`: the tokenizer's count, or the estimate made from it.
    public func tokens(_ text: String) -> Int {
        let raw = tokenizer.count(text)
        guard let estimate else { return raw }
        var text = text
        let cjk = text.withUTF8 { TextStats(scanning: $0).cjkCharacters }
        return estimate.tokens(proxyTokens: raw, cjkCharacters: cjk)
    }
}
