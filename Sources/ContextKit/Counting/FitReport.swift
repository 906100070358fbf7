/// A place in a text, the way an editor shows it.
public struct TextPosition: Equatable, Sendable {
    /// Bytes before it (0-based).
    public var byteOffset: Int
    /// Characters before it (0-based; see `TextStats` for what a character is).
    public var characterOffset: Int
    /// 1-based line (lines end with a line feed).
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int

    /// A position from its four coordinates (offsets 0-based, line and column 1-based).
    public init(byteOffset: Int, characterOffset: Int, line: Int, column: Int) {
        self.byteOffset = byteOffset
        self.characterOffset = characterOffset
        self.line = line
        self.column = column
    }

    /// The start of a text.
    public static let start = TextPosition(byteOffset: 0, characterOffset: 0, line: 1, column: 1)

    /// The position just after a stretch of text with these statistics.
    public func advanced(over stats: TextStats) -> TextPosition {
        TextPosition(byteOffset: byteOffset + stats.bytes,
                     characterOffset: characterOffset + stats.characters,
                     line: line + stats.newlines,
                     column: stats.newlines > 0 ? stats.charactersAfterLastNewline + 1 : column + stats.characters)
    }
}

/// The room a text has: the window less the request's fixed cost and the
/// tokens kept for the answer.
///
/// All figures are tokens. `PlanBudget` is the fuller form the chunk planner
/// uses (instructions, schema and overlap as separate parts).
public struct TokenBudget: Equatable, Sendable {
    /// The model's context window, in tokens.
    public var window: Int
    /// Fixed cost of the request (per-request and per-message overheads).
    public var overhead: Int
    /// Tokens kept free for the answer.
    public var reserve: Int

    /// A budget of `window` tokens less `overhead` and `reserve`.
    public init(window: Int, overhead: Int = 0, reserve: Int = 0) {
        self.window = window
        self.overhead = overhead
        self.reserve = reserve
    }

    /// Tokens of text that fit (never negative).
    public var available: Int { max(0, window - overhead - reserve) }
}

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

    /// Tokens the request takes from the window: text, overheads and reserve.
    public var used: Int { textTokens + budget.overhead + budget.reserve }
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
    /// - Parameter estimate: when the profile's counts are estimated from a
    ///   proxy, how to scale `tokenizer`'s counts.
    /// - Parameter special: how special-token text is counted; plain text by default.
    /// - Throws: `TokenKitError.disallowedSpecialToken` when `special`
    ///   refuses special-token text found in `text`.
    public static func measure(utf8 text: UnsafeBufferPointer<UInt8>, tokenizer: Tokenizer, budget: TokenBudget,
                               special: SpecialTokenPolicy = .plainText, estimate: TokenEstimate? = nil) throws -> FitReport {
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

/// Finds the first token whose count (exact or estimated) goes past a limit,
/// in a text that may come in pieces: each call continues from the running
/// totals of the pieces before it.
package struct OverflowLocator: Sendable {
    package let tokenizer: Tokenizer
    package let special: SpecialTokenPolicy
    package let estimate: TokenEstimate?
    /// Tokens of text that fit.
    package let limit: Int

    package init(tokenizer: Tokenizer, special: SpecialTokenPolicy, estimate: TokenEstimate?, limit: Int) {
        self.tokenizer = tokenizer
        self.special = special
        self.estimate = estimate
        self.limit = limit
    }

    /// Running totals of the text before a piece.
    package struct Progress: Sendable {
        package var proxyTokens = 0
        package var cjkCharacters = 0
        package var position = TextPosition.start
        package init() {}
        package init(proxyTokens: Int, cjkCharacters: Int, position: TextPosition) {
            self.proxyTokens = proxyTokens
            self.cjkCharacters = cjkCharacters
            self.position = position
        }
    }

    func measured(_ proxyTokens: Int, _ cjk: Int) -> Int {
        estimate?.tokens(proxyTokens: proxyTokens, cjkCharacters: cjk) ?? proxyTokens
    }

    /// The first token of `text` past the limit, given the totals before it;
    /// nil if the limit is not passed inside `text`.
    ///
    /// The text is cut at safe piece boundaries into blocks that are counted
    /// without building arrays; only the block where the limit is passed is
    /// walked token by token with positions, so memory stays small on any input.
    package func firstTokenPast(in text: UnsafeBufferPointer<UInt8>, after before: Progress) throws -> OverflowPoint? {
        var progress = before
        return try firstTokenPast(in: text, advancing: &progress)
    }

    /// As `firstTokenPast(in:after:)`, and when the limit is not passed,
    /// `progress` is moved past `text` so the next piece can continue from it.
    package func firstTokenPast(in text: UnsafeBufferPointer<UInt8>, advancing progress: inout Progress) throws -> OverflowPoint? {
        guard let base = text.baseAddress else { return nil }
        var start = 0
        let boundary = tokenizer.pieceBoundary(allowedSpecial: special)
        while start < text.count {
            var end = text.count
            if let boundary, text.count - start > 2 * Self.blockSize {
                end = boundary.firstSafe(in: text, from: start + Self.blockSize) ?? text.count
            }
            let block = UnsafeBufferPointer(start: base + start, count: end - start)
            // The last block is walked without being counted first: the walk
            // counts it too, and callers look here because the limit is passed
            // in this text, most often in its last block (all of it, when the
            // text is one giant piece).
            if end < text.count {
                let stats = TextStats(scanning: block)
                let count = try tokenizer.count(utf8: block, allowedSpecial: special).tokens
                if measured(progress.proxyTokens + count, progress.cjkCharacters + stats.cjkCharacters) <= limit {
                    progress.proxyTokens += count
                    progress.cjkCharacters += stats.cjkCharacters
                    progress.position = progress.position.advanced(over: stats)
                    start = end
                    continue
                }
            }
            return try walk(block, advancing: &progress)
        }
        return nil
    }

    static let blockSize = 1 << 18

    /// The first token of `block` past the limit, token by token; when there
    /// is none, `progress` is moved past the block.
    private func walk(_ block: UnsafeBufferPointer<UInt8>, advancing progress: inout Progress) throws -> OverflowPoint? {
        var position = progress.position
        var cursor = 0  // bytes of the block already folded into `position`
        var cjk = progress.cjkCharacters
        var k = 0
        var found: OverflowPoint?
        let before = progress
        // Token by token, never an array of them: one takes 24 bytes a token,
        // three times the text when the block is one long piece of one letter.
        try tokenizer.forEachToken(utf8: block, allowedSpecial: special) { token in
            let tokenStart = token.bytes.lowerBound
            guard found == nil else { return }
            let at = characterStart(containing: tokenStart, in: block)
            if at > cursor {
                let stats = TextStats(scanning: UnsafeBufferPointer(rebasing: block[cursor..<at]))
                position = position.advanced(over: stats)
                cjk += stats.cjkCharacters
                cursor = at
            }
            k += 1
            if measured(before.proxyTokens + k, cjk) > limit {
                var point = position
                point.byteOffset = before.position.byteOffset + tokenStart
                // Token `limit + 1` in the count's own units: for an estimate, the
                // estimated position where the text stops fitting.
                found = OverflowPoint(token: limit + 1, position: point)
            }
        }
        if found == nil {
            let rest = TextStats(scanning: UnsafeBufferPointer(rebasing: block[cursor...]))
            progress.proxyTokens += k
            progress.cjkCharacters = cjk + rest.cjkCharacters
            progress.position = position.advanced(over: rest)
        }
        return found
    }

    /// Backs up from a byte inside a multi-byte character to the character's first byte.
    private func characterStart(containing i: Int, in block: UnsafeBufferPointer<UInt8>) -> Int {
        let p = block.baseAddress!
        guard i < block.count, p[i] & 0xC0 == 0x80 else { return i }
        var back = 1
        while back <= 3 && i - back >= 0 {
            let lead = i - back
            if p[lead] & 0xC0 != 0x80 {
                let (_, length) = TextStats.decode(p, lead, block.count)
                return length > back ? lead : i
            }
            back += 1
        }
        return i
    }
}
