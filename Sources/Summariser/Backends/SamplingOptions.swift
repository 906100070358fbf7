/// How a backend picks each next token, and how long the answer may be.
///
/// Mirrors Foundation Models' `GenerationOptions`, so the same settings mean
/// the same thing on every backend. Every field is optional: nil leaves the
/// backend's own default. The field notes found that sampling does not change
/// how often typed output copies its input; a fixed `seed` makes fresh
/// sessions reproducible, which is for tests and benchmarks, not for retries.
public struct SamplingOptions: Equatable, Sendable {
    /// How the next token is chosen.
    public enum Mode: Equatable, Sendable {
        /// Always the most likely token: the same prompt gives the same answer.
        case greedy
        /// Sample among the `k` most likely tokens.
        case topK(Int)
        /// Sample among the most likely tokens whose probabilities add up to
        /// the threshold (nucleus sampling, `top_p`).
        case probabilityThreshold(Double)
    }

    /// Greedy, top-k or nucleus sampling; nil for the backend's default.
    public var mode: Mode?
    /// Higher is more varied; 0 is as good as greedy.
    public var temperature: Double?
    /// Fixes the random choices of `topK` and `probabilityThreshold`.
    public var seed: UInt64?
    /// The longest answer allowed, in the model's tokens.
    public var maximumResponseTokens: Int?

    /// Options from their parts; all nil (the backend's defaults) by default.
    public init(mode: Mode? = nil, temperature: Double? = nil, seed: UInt64? = nil, maximumResponseTokens: Int? = nil) {
        self.mode = mode
        self.temperature = temperature
        self.seed = seed
        self.maximumResponseTokens = maximumResponseTokens
    }

    /// Greedy decoding, everything else the backend's default.
    public static let greedy = SamplingOptions(mode: .greedy)
}
