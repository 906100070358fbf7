/// What a conversation costs a model, message by message, as the model sees it.
public struct ConversationCount: Equatable, Sendable {
    /// One message's share of the prompt.
    public struct Message: Equatable, Sendable {
        /// The message's place in the conversation (0-based).
        public var index: Int
        /// Who speaks.
        public var role: ChatMessage.Role
        /// Its tokens, its framing included (role markers, the per-message constant).
        public var tokens: Int
        /// Where its tokens start among the prompt's tokens (0-based).
        public var firstToken: Int
        /// Where it sits in the rendered prompt, as UTF-8 byte offsets; nil
        /// when the model has no rendered prompt (OpenAI, Apple) or the
        /// template does not render it as a prefix of the whole.
        public var promptBytes: Range<Int>?
    }

    /// The messages, in order.
    public var messages: [Message]
    /// Tokens of the tool definitions as the model sees them.
    public var tools: Int
    /// Tokens that belong to no message: BOS, a default system prompt the
    /// template adds, the opened assistant turn (OpenAI's reply priming, Apple's session framing).
    public var overhead: Int
    /// What the overhead is made of, for this model, in a few words.
    public var overheadSource: String
    /// Whether the counts are estimates (the model's tokenizer is not public).
    public var isEstimate: Bool
    /// How the numbers were made, in a line a user can check.
    public var method: String
    /// What the counting could not cover.
    public var notes: [String]
    /// The rendered prompt, when the model has a chat template.
    public var renderedPrompt: String?

    /// A count from its parts.
    public init(messages: [Message], tools: Int, overhead: Int, overheadSource: String, isEstimate: Bool, method: String, notes: [String] = [], renderedPrompt: String? = nil) {
        self.messages = messages
        self.tools = tools
        self.overhead = overhead
        self.overheadSource = overheadSource
        self.isEstimate = isEstimate
        self.method = method
        self.notes = notes
        self.renderedPrompt = renderedPrompt
    }

    /// Tokens of the messages alone.
    public var messageTokens: Int { messages.reduce(0) { $0 + $1.tokens } }
    /// The prompt's tokens: messages, tools and overhead (`usage.prompt_tokens`).
    public var total: Int { messageTokens + tools + overhead }

    /// The budget this conversation is sent under: the window, with tools and
    /// overhead as the fixed request cost and `reserve` kept for the answer
    /// (as `source` decided it: `TokenBudget.reserve(given:profileReserve:window:)`).
    public func budget(window: Int, reserve: Int, source: TokenBudget.ReserveSource = .given) -> TokenBudget {
        TokenBudget(window: window, requestOverhead: tools + overhead, reserve: reserve, isEstimate: isEstimate, reserveSource: source)
    }

    /// Whether the conversation, with `reserve` tokens for the answer, fits `window`.
    public func fit(window: Int, reserve: Int, source: TokenBudget.ReserveSource = .given) -> FitReport {
        FitReport(textTokens: messageTokens, budget: budget(window: window, reserve: reserve, source: source))
    }
}
