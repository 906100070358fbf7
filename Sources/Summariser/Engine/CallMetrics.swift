/// What one model call cost and how fast it was.
///
/// Times come from a monotonic clock (`ContinuousClock`). The first token is
/// the first snapshot with non-empty content: for a typed answer that is the
/// JSON's first characters, as Foundation Models' snapshots give it.
public struct CallMetrics: Equatable, Sendable {
    /// What a call does in the map-reduce run.
    public enum Stage: String, Sendable {
        /// Summarising a chunk of the input.
        case map
        /// Combining summaries (the last reduce call gives the final summary).
        case reduce
    }

    /// 0-based, in the order calls were made during the run.
    public var index: Int
    /// Map or reduce.
    public var stage: Stage
    /// 0 for map calls; 1, 2, … for the reduce levels.
    public var level: Int
    /// Which chunk (map) or group (reduce) of its level.
    public var part: Int
    /// 1 for the first try; 2 for the retry after a copy.
    public var attempt: Int
    /// From sending the request to the first non-empty content; nil when none came.
    public var timeToFirstToken: Duration?
    /// From sending the request to the last snapshot (or the failure).
    public var totalTime: Duration
    /// Characters of the answer (Unicode scalars).
    public var charactersReceived: Int
    /// Prompt tokens: the backend's count when it reported one, else ContextKit's count for the profile.
    public var tokensSent: Int
    /// Whether `tokensSent` is the backend's own count.
    public var tokensSentReported: Bool
    /// Answer tokens: the backend's count when it reported one, else ContextKit's count for the profile.
    public var tokensReceived: Int
    /// Whether `tokensReceived` is the backend's own count.
    public var tokensReceivedReported: Bool
    /// The prompt tokens the plan expected for this call (text, instructions, schema, overheads).
    public var tokensPlanned: Int
    /// Whether `tokensPlanned` is the backend's own count of the whole
    /// request, made before sending it (else it is the plan's: chunk plus fixed part).
    public var tokensPlannedByBackend = false
    /// The backend's own timings, when it reported them.
    public var usage: ResponseUsage?
    /// The answer reproduced a phrase from the middle of its input.
    public var copied: Bool
    /// Why the call failed; nil when it succeeded.
    public var failure: GenerationError?

    /// Metrics from their parts (the engine fills them in as a call runs).
    public init(
        index: Int, stage: Stage, level: Int, part: Int, attempt: Int = 1, timeToFirstToken: Duration? = nil,
        totalTime: Duration = .zero, charactersReceived: Int = 0, tokensSent: Int = 0, tokensSentReported: Bool = false,
        tokensReceived: Int = 0, tokensReceivedReported: Bool = false, tokensPlanned: Int = 0,
        usage: ResponseUsage? = nil, copied: Bool = false, failure: GenerationError? = nil
    ) {
        self.index = index
        self.stage = stage
        self.level = level
        self.part = part
        self.attempt = attempt
        self.timeToFirstToken = timeToFirstToken
        self.totalTime = totalTime
        self.charactersReceived = charactersReceived
        self.tokensSent = tokensSent
        self.tokensSentReported = tokensSentReported
        self.tokensReceived = tokensReceived
        self.tokensReceivedReported = tokensReceivedReported
        self.tokensPlanned = tokensPlanned
        self.usage = usage
        self.copied = copied
        self.failure = failure
    }

    /// Characters of answer per second while it streamed (after the first
    /// token; over the whole call when the answer came in one piece).
    public var charactersPerSecond: Double? {
        let streaming = timeToFirstToken.map { totalTime - $0 } ?? totalTime
        let span = streaming > .milliseconds(1) ? streaming : totalTime
        let seconds = span.seconds
        return seconds > 0 && charactersReceived > 0 ? Double(charactersReceived) / seconds : nil
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
