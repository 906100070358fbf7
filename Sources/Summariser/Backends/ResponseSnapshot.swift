/// The answer so far. Snapshots are cumulative, as Foundation Models streams
/// them: each one holds everything generated up to that point, so a consumer
/// can always show the latest and throw the rest away.
public struct ResponseSnapshot: Equatable, Sendable {
    /// Everything generated so far (JSON text when a schema was requested).
    public var content: String
    /// True on the last snapshot of a response.
    public var isComplete: Bool
    /// What the backend reported about the request, on the last snapshot (when it reports anything).
    public var usage: ResponseUsage?

    /// A snapshot holding `content`.
    public init(content: String, isComplete: Bool = false, usage: ResponseUsage? = nil) {
        self.content = content
        self.isComplete = isComplete
        self.usage = usage
    }
}

/// Counts and timings a backend reports for one request (OpenAI's `usage`,
/// llama.cpp's `timings`); nil fields were not reported.
public struct ResponseUsage: Equatable, Sendable {
    /// Tokens the backend counted for the prompt (`usage.prompt_tokens`).
    public var promptTokens: Int?
    /// Tokens the backend generated (`usage.completion_tokens`).
    public var completionTokens: Int?
    /// Server-side time spent reading the prompt, in milliseconds (llama.cpp).
    public var promptMilliseconds: Double?
    /// Server-side time spent generating, in milliseconds (llama.cpp).
    public var generationMilliseconds: Double?

    /// Usage from what the backend reported; nil for what it did not.
    public init(promptTokens: Int? = nil, completionTokens: Int? = nil, promptMilliseconds: Double? = nil, generationMilliseconds: Double? = nil) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.promptMilliseconds = promptMilliseconds
        self.generationMilliseconds = generationMilliseconds
    }
}
