/// Totals over one summarisation run.
public struct RunMetrics: Equatable, Sendable {
    /// Every call made, in order, failed ones and copy retries included.
    public var calls: [CallMetrics]
    /// Wall time of the whole run, planning included.
    public var totalTime: Duration
    /// Answers that reproduced their input (each retried once in a fresh session).
    public var copiesDetected: Int
    /// Copies still there after the retry, kept and reported.
    public var copiesKept: Int
    /// Times a level was planned again after the backend reported an overflow.
    public var replans: Int

    /// Totals from their parts (the engine fills them in).
    public init(calls: [CallMetrics] = [], totalTime: Duration = .zero, copiesDetected: Int = 0, copiesKept: Int = 0, replans: Int = 0) {
        self.calls = calls
        self.totalTime = totalTime
        self.copiesDetected = copiesDetected
        self.copiesKept = copiesKept
        self.replans = replans
    }

    /// Prompt tokens over all calls (each the backend's count where it reported one).
    public var tokensSent: Int { calls.reduce(0) { $0 + $1.tokensSent } }
    /// Answer tokens over all calls (each the backend's count where it reported one).
    public var tokensReceived: Int { calls.reduce(0) { $0 + $1.tokensReceived } }
    /// Characters of answer (Unicode scalars) over all calls.
    public var charactersReceived: Int { calls.reduce(0) { $0 + $1.charactersReceived } }
    /// Time spent inside model calls (the rest of `totalTime` is planning and bookkeeping).
    public var callTime: Duration { calls.reduce(.zero) { $0 + $1.totalTime } }

    /// Mean time to first token over the calls that produced one.
    public var meanTimeToFirstToken: Duration? {
        let times = calls.compactMap(\.timeToFirstToken)
        guard !times.isEmpty else { return nil }
        return times.reduce(.zero, +) / times.count
    }
}
