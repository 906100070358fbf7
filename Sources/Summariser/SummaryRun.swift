import ContextKit

/// Everything one summarisation run produced: the summary, how the text was
/// cut at each level, what every call cost, and what went wrong on the way.
public struct SummaryRun: Equatable, Sendable {
    public var summary: Summary
    /// The levels in order: level 0 maps the text, each later one reduces the summaries before it.
    /// Empty when the text was too short for a model call.
    public var levels: [Level]
    public var metrics: RunMetrics
    /// Answers that were still copies after their retry.
    public var copies: [Copy]
    public var replans: [Replan]
    /// The window planned for: the profile's, or the backend's when smaller.
    public var window: Int
    /// The text was shorter than the minimum and is its own summary.
    public var isInputItsOwnSummary: Bool

    public init(summary: Summary, levels: [Level] = [], metrics: RunMetrics = .init(), copies: [Copy] = [],
                replans: [Replan] = [], window: Int = 0, isInputItsOwnSummary: Bool = false) {
        self.summary = summary
        self.levels = levels
        self.metrics = metrics
        self.copies = copies
        self.replans = replans
        self.window = window
        self.isInputItsOwnSummary = isInputItsOwnSummary
    }

    /// One level's plan (the last one, if it was replanned).
    public struct Level: Equatable, Sendable {
        public var level: Int
        public var stage: CallMetrics.Stage
        public var plan: ChunkPlan
    }

    public struct Copy: Equatable, Sendable {
        /// The call whose answer was kept although it copied.
        public var call: Int
        /// The phrase from the middle of the input found in the answer.
        public var phrase: String
    }

    /// A level planned again because the backend counted more than the plan.
    public struct Replan: Equatable, Sendable {
        public var level: Int
        /// The call that overflowed, or, when the backend's exact count caught
        /// the overflow before sending, the index the call would have had.
        public var call: Int
        /// The prompt tokens the plan expected for that call.
        public var plannedTokens: Int
        /// The prompt tokens the backend said it counted (nil when it did not say).
        public var reportedTokens: Int?
        /// Room for text before and after.
        public var roomBefore: Int
        public var roomAfter: Int
    }
}
