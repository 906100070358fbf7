/// The size of one summary a map-reduce plan assumes, and where it comes
/// from. In order of preference:
///
/// 1. the size the caller gives (`ctxkit plan --summary-tokens`);
/// 2. the size expected from the output schema (`SummarySizeEstimate`),
///    when it is within the reserve;
/// 3. the reserve: only an upper bound on a summary, so a text shorter than
///    it still deserves a call (`MapReducePlan`'s `shortText` is 0 then).
public struct SummarySize: Equatable, Sendable {
    /// Where the size comes from.
    public enum Source: Equatable, Sendable {
        /// The caller gave it.
        case given
        /// Expected from the output schema.
        case schema
        /// The reserve; `schemaSuggests` is the schema's expectation when it
        /// was larger than the reserve, nil without a schema to expect from.
        case reserve(schemaSuggests: Int?)
    }

    /// Tokens of one summary (at least 1).
    public var tokens: Int
    /// Where `tokens` comes from.
    public var source: Source

    /// A size from its parts (at least 1 token).
    public init(tokens: Int, source: Source) {
        self.tokens = max(1, tokens)
        self.source = source
    }

    /// The size the policy above picks.
    ///
    /// - Parameters:
    ///   - given: the caller's size; nil to expect one from the schema or take the reserve.
    ///   - schema: the output schema; a tool list sets no expectation.
    ///   - reserve: the tokens each answer may take (`TokenBudget.reserve`).
    ///   - planner: counts the expected answer in the profile's tokens.
    public init(given: Int?, schema: SchemaDocument?, reserve: Int, planner: ChunkPlanner) {
        if let given {
            self.init(tokens: given, source: .given)
            return
        }
        guard let schema, !schema.format.isToolList, let root = schema.entries.first?.schema else {
            self.init(tokens: reserve, source: .reserve(schemaSuggests: nil))
            return
        }
        let expected = SummarySizeEstimate(scale: planner.estimate?.factor ?? 1) { planner.tokens($0) }.tokens(for: root)
        self = expected <= reserve ? SummarySize(tokens: expected, source: .schema) : SummarySize(tokens: reserve, source: .reserve(schemaSuggests: expected))
    }

    /// Whether `tokens` is an expectation of the summary's size, not only
    /// the reserve that bounds it.
    public var isExpectation: Bool {
        if case .reserve = source { return false }
        return true
    }
}
