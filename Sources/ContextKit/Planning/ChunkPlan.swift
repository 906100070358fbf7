/// A text cut into chunks that each fit one request.
public struct ChunkPlan: Equatable, Sendable {
    /// The budget every chunk was planned for.
    public var budget: TokenBudget
    /// The chunks in text order; empty for an empty text.
    public var chunks: [Chunk]
    /// Bytes of the whole text (UTF-8).
    public var textBytes: Int
    /// Unicode scalars, as `TextStats` counts them.
    public var textCharacters: Int
    /// The profile's tokens for the whole text sent at once.
    public var textTokens: Int
    /// The tokenizer's exact count of the whole text.
    public var textProxyTokens: Int

    /// A plan from its parts (the planner makes them).
    public init(budget: TokenBudget, chunks: [Chunk], textBytes: Int, textCharacters: Int, textTokens: Int, textProxyTokens: Int) {
        self.budget = budget
        self.chunks = chunks
        self.textBytes = textBytes
        self.textCharacters = textCharacters
        self.textTokens = textTokens
        self.textProxyTokens = textProxyTokens
    }

    /// The counts are estimates (the profile's tokenizer is a proxy).
    public var isEstimate: Bool { budget.isEstimate }

    /// Mean of tokens / room over the chunks, 0...1 (0 for an empty plan).
    public var meanFill: Double {
        guard !chunks.isEmpty, budget.room > 0 else { return 0 }
        return Double(chunks.reduce(0) { $0 + $1.tokens }) / Double(chunks.count * budget.room)
    }

    /// Characters per token of the text (the profile's tokens), for turning
    /// summary tokens into characters; nil for an empty text.
    public var charactersPerToken: Double? {
        textTokens > 0 ? Double(textCharacters) / Double(textTokens) : nil
    }
}
