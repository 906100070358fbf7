/// The calls a summariser makes for a chunk plan: one map call per chunk,
/// then reduce levels that combine summaries until they fit one call.
///
/// Each call writes one summary of `summaryTokens` (expected). A reduce call
/// carries as many summaries as fit its room for text, `fanIn`, each with
/// `separatorTokens` between them; a level that cannot fit all of them in one
/// call splits them evenly over as few calls as it can, and the next level
/// combines those calls' summaries, until one call holds them all.
public struct MapReducePlan: Equatable, Sendable {
    /// What a level's calls do.
    public enum Kind: String, Sendable {
        /// Summarise chunks of the text.
        case map
        /// Combine summaries from the level before.
        case reduce
    }

    /// One model call.
    public struct Call: Equatable, Sendable {
        /// Chunk indices for a map call; indices of the previous level's calls for a reduce call.
        public var inputs: [Int]
        /// Tokens of the text the call summarises (a chunk, or summaries and separators).
        public var inputTokens: Int
        /// Everything the request carries: input, overhead, instructions and schema.
        public var tokensSent: Int
    }

    /// The calls of one level, which run after the level before has answered.
    public struct Level: Equatable, Sendable {
        /// Map (the first level) or reduce.
        public var kind: Kind
        /// The level's calls, in order.
        public var calls: [Call]
    }

    /// Tokens between two summaries in a reduce call (a blank line, with room to spare).
    public static let separatorTokens = 2

    /// The map level, then the reduce levels; empty for an empty text or a pass-through.
    public var levels: [Level]
    /// Expected tokens of one summary.
    public var summaryTokens: Int
    /// Summaries one reduce call can carry.
    public var fanIn: Int
    /// The text is no longer than a summary: it is its own summary, and no call is made.
    public var passThrough: Bool

    /// Plans the calls for `chunks`, each summary expected to be
    /// `summaryTokens` long. A text of at most `shortText` tokens (default:
    /// the summary size) is not worth a call; pass 0 when the summary size is
    /// only an upper bound, such as the reserve.
    ///
    /// - Throws: `PlanError.summariesDoNotShrink` when a reduce call has no
    ///   room for two summaries, so the summaries could never be combined.
    public init(chunks: ChunkPlan, summaryTokens: Int, shortText: Int? = nil) throws(PlanError) {
        let budget = chunks.budget
        let fixed = budget.fixed
        self.summaryTokens = summaryTokens
        self.fanIn = max(0, budget.room / (summaryTokens + Self.separatorTokens))
        self.passThrough = !chunks.chunks.isEmpty && chunks.textTokens <= (shortText ?? summaryTokens)
        self.levels = []
        guard !chunks.chunks.isEmpty, !passThrough else { return }
        levels.append(
            Level(
                kind: .map,
                calls: chunks.chunks.map {
                    Call(inputs: [$0.index], inputTokens: $0.tokens, tokensSent: fixed + $0.tokens)
                }))
        var count = chunks.chunks.count
        guard count > 1 else { return }
        guard fanIn >= 2 else { throw .summariesDoNotShrink(summaryTokens: summaryTokens, room: budget.room) }
        while count > 1 {
            let calls = (count + fanIn - 1) / fanIn
            var level = Level(kind: .reduce, calls: [])
            var next = 0
            for k in 0..<calls {
                let size = count / calls + (k < count % calls ? 1 : 0)
                let input = size * (summaryTokens + Self.separatorTokens)
                level.calls.append(Call(inputs: Array(next..<(next + size)), inputTokens: input, tokensSent: fixed + input))
                next += size
            }
            levels.append(level)
            count = calls
        }
    }

    /// Plans the calls for `chunks` with summaries of `summary`'s size: a
    /// text no longer than the size is its own summary only when the size is
    /// an expectation, not just the reserve (`SummarySize.isExpectation`).
    ///
    /// - Throws: as `init(chunks:summaryTokens:shortText:)`.
    public init(chunks: ChunkPlan, summary: SummarySize) throws(PlanError) {
        try self.init(chunks: chunks, summaryTokens: summary.tokens, shortText: summary.isExpectation ? nil : 0)
    }

    /// Model calls over all levels.
    public var totalCalls: Int { levels.reduce(0) { $0 + $1.calls.count } }
    /// Tokens sent by all calls (`Call.tokensSent` summed).
    public var tokensSent: Int { levels.reduce(0) { $0 + $1.calls.reduce(0) { $0 + $1.tokensSent } } }
    /// Expected tokens written by all calls.
    public var outputTokens: Int { totalCalls * summaryTokens }
    /// How many reduce levels follow the map level.
    public var reduceLevels: Int { levels.filter { $0.kind == .reduce }.count }
}
