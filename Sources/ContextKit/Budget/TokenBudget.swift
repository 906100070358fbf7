import Render

/// The tokens one request has for text: the window, less everything else
/// the request carries. Every part is shown so a user sees where the window
/// went:
///
///     room            = window − request overhead − instructions − tools − schema − source frame − reserve
///     new text/chunk  = room − overlap
///
/// One budget serves every question ContextKit answers about a window: a fit
/// report (does this text fit, `FitReport`), a chunk plan (`ChunkPlanner`)
/// and the summariser's calls, so they share one reserve rule
/// (`defaultReserve(for:window:)`) and one way of pricing the instructions
/// and schema (`RequestCost`), and print the same lines (`arithmetic`).
///
/// The request overhead is the profile's per-request cost plus its
/// per-message cost for each message sent (the text, and the instructions
/// when there are any). All figures are in the profile's tokens, so for a
/// profile whose counts are estimated they are estimates too (`isEstimate`).
public struct TokenBudget: Equatable, Sendable {
    /// The model's context window.
    public var window: Int
    /// The profile's fixed cost of the request: per request, plus per message sent.
    public var requestOverhead: Int
    /// The instructions (system prompt) sent with every request.
    public var instructions: Int
    /// The output schema as the model sees it, framing included (`RequestCost`).
    public var schema: Int
    /// The session's tool definitions as the model sees them, framing included
    /// (`SessionSchemaCost`); sent with every request of the session, 0 without tools.
    public var tools: Int
    /// The delimiters sent around each chunk of text to mark it as data
    /// (the summariser's `SourceFraming`); 0 when the text is sent bare.
    public var frame: Int
    /// Tokens kept free for the answer.
    public var reserve: Int
    /// Which rule set `reserve`, said beside it in every tool's output.
    public var reserveSource: ReserveSource
    /// Tokens of the previous chunk repeated at the start of the next one.
    public var overlap: Int
    /// The counts are estimates (the profile's tokenizer is a proxy).
    public var isEstimate: Bool

    /// A budget from its parts, all in tokens.
    public init(
        window: Int, requestOverhead: Int = 0, instructions: Int = 0, schema: Int = 0,
        reserve: Int = 0, overlap: Int = 0, isEstimate: Bool = false, frame: Int = 0, tools: Int = 0,
        reserveSource: ReserveSource = .given
    ) {
        self.window = window
        self.requestOverhead = requestOverhead
        self.instructions = instructions
        self.schema = schema
        self.tools = tools
        self.frame = frame
        self.reserve = reserve
        self.reserveSource = reserveSource
        self.overlap = overlap
        self.isEstimate = isEstimate
    }

    /// The budget of one request to `profile`: its window, its overheads for
    /// one message (two with instructions) and its estimate flag.
    ///
    /// - Parameters:
    ///   - profile: the model the request is for.
    ///   - instructions: tokens of the instructions, 0 for none.
    ///   - schema: tokens of the output schema as the model sees it (`RequestCost`).
    ///   - reserve: tokens kept for the answer; nil takes `defaultReserve(for:window:)`.
    ///   - overlap: tokens each chunk repeats from the one before.
    ///   - window: the window in effect when it is smaller than the profile's
    ///     (a backend that reports its own); nil for the profile's.
    ///   - frame: tokens of the delimiters around each chunk of text, 0 for none.
    public init(profile: ModelProfile, instructions: Int = 0, schema: Int = 0, reserve: Int? = nil, overlap: Int = 0, window: Int? = nil, frame: Int = 0) {
        let window = window ?? profile.contextWindow
        let reserve = Self.reserve(given: reserve, profileReserve: profile.defaultReserve, window: window)
        self.init(
            window: window,
            requestOverhead: profile.overheads.request(messages: instructions > 0 ? 2 : 1),
            instructions: instructions, schema: schema,
            reserve: reserve.tokens,
            overlap: overlap, isEstimate: profile.isEstimate, frame: frame, reserveSource: reserve.source)
    }

    /// The budget of one request to `profile` carrying `cost`'s instructions,
    /// schema and source frame; the other parameters are those of
    /// `init(profile:instructions:schema:reserve:overlap:window:frame:)`.
    public init(profile: ModelProfile, cost: RequestCost, reserve: Int? = nil, overlap: Int = 0, window: Int? = nil) {
        self.init(
            profile: profile, instructions: cost.instructions, schema: cost.schema, reserve: reserve, overlap: overlap, window: window,
            frame: cost.frame)
    }

    /// The profile's own reserve when it has one; otherwise 512 tokens (about
    /// 1,900 characters of English answer, room for a summary), but never
    /// more than a quarter of the window (`window`, else the profile's).
    public static func defaultReserve(for profile: ModelProfile, window: Int? = nil) -> Int {
        reserve(given: nil, profileReserve: profile.defaultReserve, window: window ?? profile.contextWindow).tokens
    }

    /// The one reserve rule every tool applies (fit, probe, plan, summarise,
    /// schema-cost): the reserve `given` (`--reserve`) when there is one; else
    /// the profile's own (`profileReserve` > 0); else 512 tokens, at most a
    /// quarter of `window`. Returns the tokens and which rule gave them.
    public static func reserve(given: Int?, profileReserve: Int, window: Int) -> (tokens: Int, source: ReserveSource) {
        if let given { return (given, .given) }
        if profileReserve > 0 { return (profileReserve, .profile) }
        return (min(512, window / 4), .defaultRule)
    }

    /// Where a budget's reserve came from (`reserve(given:profileReserve:window:)`).
    public enum ReserveSource: Equatable, Sendable, CustomStringConvertible {
        /// Given by the caller (`--reserve`).
        case given
        /// The profile's own default reserve.
        case profile
        /// The default rule: 512 tokens, at most a quarter of the window.
        case defaultRule

        /// In words, for the line that shows the reserve: as given, the
        /// profile's, or the default rule and how to change it.
        public var description: String {
            switch self {
            case .given: return "given with --reserve"
            case .profile: return "the profile's"
            case .defaultRule: return "the default: 512, at most a quarter of the window; --reserve N to change"
            }
        }
    }

    /// Tokens every request carries besides its text and the reserve:
    /// request overhead, instructions, tools, schema and source frame.
    public var fixed: Int { requestOverhead + instructions + tools + schema + frame }

    /// Tokens of text one request can carry, overlap included; negative when
    /// the other parts exceed the window (`validate()` throws then).
    public var room: Int { window - fixed - reserve }

    /// The room, never negative: the tokens of text that fit.
    public var available: Int { max(0, room) }

    /// Tokens of text a chunk adds beyond the overlap it repeats.
    public var newTextPerChunk: Int { room - overlap }

    /// Checks that the budget can plan anything.
    ///
    /// - Throws: `PlanError.noRoom` when the parts leave no room for text,
    ///   `.overlapTooLarge` when the overlap is negative or leaves no room for new text.
    public func validate() throws(PlanError) {
        if room < 1 { throw .noRoom(self) }
        if overlap < 0 || newTextPerChunk < 1 { throw .overlapTooLarge(self) }
    }

    /// The arithmetic as aligned lines (`  context window   4,096`), with ≈
    /// on estimated figures; what the CLI prints and what errors quote.
    package var arithmetic: [(label: String, value: String)] {
        let approx = isEstimate ? "≈ " : ""
        var lines: [(String, String)] = [
            ("context window", NumberFormat.grouped(window)),
            ("− request overhead", NumberFormat.grouped(requestOverhead)),
            ("− instructions", approx + NumberFormat.grouped(instructions))
        ]
        if tools > 0 { lines.append(("− tools", approx + NumberFormat.grouped(tools))) }
        lines.append(("− output schema", approx + NumberFormat.grouped(schema)))
        if frame > 0 { lines.append(("− source frame", approx + NumberFormat.grouped(frame))) }
        lines += [
            ("− response reserve", NumberFormat.grouped(reserve)),
            ("= room for text", approx + NumberFormat.grouped(room))
        ]
        if overlap > 0 {
            lines.append(("− overlap", NumberFormat.grouped(overlap)))
            lines.append(("= new text per chunk", approx + NumberFormat.grouped(newTextPerChunk)))
        }
        return lines
    }

    /// The arithmetic as one block of text.
    var arithmeticText: String {
        let lines = arithmetic
        let labelWidth = lines.map(\.label.count).max() ?? 0
        let valueWidth = lines.map(\.value.count).max() ?? 0
        return lines.map { line in
            "  " + line.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: valueWidth - line.value.count) + line.value
        }.joined(separator: "\n")
    }
}
