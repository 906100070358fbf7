import ContextKit

/// Everything one summarisation run produced: the summary, how the text was
/// cut at each level, what every call cost, and what went wrong on the way.
public struct SummaryRun: Equatable, Sendable {
    /// The final summary.
    public var summary: Summary
    /// The levels in order: level 0 maps the text, each later one reduces the summaries before it.
    /// Empty when the text was too short for a model call.
    public var levels: [Level]
    /// What every call cost, and the run's totals.
    public var metrics: RunMetrics
    /// Answers that were still copies after their retry.
    public var copies: [Copy]
    /// Levels planned again after an overflow, in order.
    public var replans: [Replan]
    /// The window planned for: the profile's, or the backend's when smaller.
    public var window: Int
    /// The text was shorter than the minimum and is its own summary.
    public var isInputItsOwnSummary: Bool

    /// A run from its parts (the engine makes them).
    public init(
        summary: Summary, levels: [Level] = [], metrics: RunMetrics = .init(), copies: [Copy] = [],
        replans: [Replan] = [], window: Int = 0, isInputItsOwnSummary: Bool = false
    ) {
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
        /// 0 for the map level; 1, 2, … for the reduce levels.
        public var level: Int
        /// Map or reduce.
        public var stage: CallMetrics.Stage
        /// How the level's input was cut, in the profile's tokens.
        public var plan: ChunkPlan
    }

    /// An answer kept although it still copied its input after the retry.
    public struct Copy: Equatable, Sendable {
        /// The call whose answer was kept although it copied.
        public var call: Int
        /// The phrase from the middle of the input found in the answer.
        public var phrase: String
    }

    /// A level planned again because the backend counted more than the plan.
    public struct Replan: Equatable, Sendable {
        /// The level planned again.
        public var level: Int
        /// The call that overflowed, or, when the backend's exact count caught
        /// the overflow before sending, the index the call would have had.
        public var call: Int
        /// The prompt tokens the plan expected for that call.
        public var plannedTokens: Int
        /// The prompt tokens the backend said it counted (nil when it did not say).
        public var reportedTokens: Int?
        /// Room for text, in tokens, before the replan.
        public var roomBefore: Int
        /// Room for text, in tokens, after it.
        public var roomAfter: Int
    }
}
