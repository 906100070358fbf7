/// The first token of a text that no longer fits, and where it starts.
public struct OverflowPoint: Equatable, Sendable {
    /// 1-based number of the token among the text's tokens.
    public var token: Int
    /// Where the token starts: `byteOffset` is exact; line, column and
    /// character offset are those of the character it starts in (a byte-level
    /// token may start inside a multi-byte character).
    public var position: TextPosition
}

/// Whether a text fits a budget, by how much, and where it stops fitting.
public struct FitReport: Equatable, Sendable {
    /// Tokens of the text itself (an estimate when the profile's count is).
    public var textTokens: Int
    /// The budget the text was measured against.
    public var budget: TokenBudget
    /// The first token past the budget, and where it starts; nil when the text fits.
    public var firstTokenPast: OverflowPoint?

    /// A report from counts already made; `measure(utf8:tokenizer:budget:…)` counts for you.
    public init(textTokens: Int, budget: TokenBudget, firstTokenPast: OverflowPoint? = nil) {
        self.textTokens = textTokens
        self.budget = budget
        self.firstTokenPast = firstTokenPast
    }

    /// Tokens the request takes from the window: text, overheads, instructions, schema and reserve.
    public var used: Int { textTokens + budget.fixed + budget.reserve }
    /// Whether the request fits the window: `used <= budget.window`.
    public var fits: Bool { used <= budget.window }
    /// Tokens of the window left unused (0 when it does not fit).
    public var spare: Int { max(0, budget.window - used) }
    /// Tokens by which the request exceeds the window (0 when it fits).
    public var overflow: Int { max(0, used - budget.window) }

    /// Counts `text` and, when it overflows, finds the first token past the budget.
    ///
    /// A pure function of its arguments (the caller reads the file): the CLI's
    /// fit line and `ctxkit probe --where` both come from here.
    /// - Parameters:
    ///   - text: the request's text, as UTF-8.
    ///   - tokenizer: the profile's tokenizer (or its proxy).
    ///   - budget: the room the text must fit in.
    ///   - estimate: when the profile's counts are estimated from a
    ///     proxy, how to scale `tokenizer`'s counts.
    ///   - special: how special-token text is counted; plain text by default.
    /// - Throws: `TokenKitError.disallowedSpecialToken` when `special`
    ///   refuses special-token text found in `text`.
    public static func measure(
        utf8 text: UnsafeBufferPointer<UInt8>, tokenizer: Tokenizer, budget: TokenBudget,
        special: SpecialTokenPolicy = .plainText, estimate: TokenEstimate? = nil
    ) throws -> FitReport {
        let stats = TextStats(scanning: text)
        let proxy = try ParallelCounter(tokenizer: tokenizer, special: special).count(utf8: text)
        let tokens = estimate?.tokens(proxyTokens: proxy, cjkCharacters: stats.cjkCharacters) ?? proxy
        var report = FitReport(textTokens: tokens, budget: budget)
        if !report.fits {
            report.firstTokenPast = try OverflowLocator(tokenizer: tokenizer, special: special, estimate: estimate, limit: budget.available)
                .firstTokenPast(in: text, after: .init())
        }
        return report
    }
}
