import Foundation

/// What summarising a text will take, before any call is made: the budget of
/// one request, the chunks the text is cut into, the size of one summary and
/// the map-reduce calls that combine the summaries (what `ctxkit plan` shows).
///
/// ```swift
/// let profile = try ProfileCatalog.standard().profile(named: "apple-on-device")
/// let planner = try ChunkPlanner(profile: profile)
/// let plan = try SummaryPlan(text: Array(text.utf8), profile: profile, planner: planner,
///                            instructions: "Summarise the text.")
/// print(plan.chunks.chunks.count, try plan.calls.get().totalCalls)
/// ```
public struct SummaryPlan: Sendable {
    /// The budget of one request: window, overhead, instructions, schema,
    /// source frame, reserve, overlap and the room left for text.
    public let budget: TokenBudget
    /// The schema's framing tokens (already part of `budget.schema`).
    public let schemaFraming: Int
    /// The text cut into chunks that each fit `budget`'s room.
    public let chunks: ChunkPlan
    /// The expected size of one summary, and where it comes from.
    public let summary: SummarySize
    /// The map and reduce calls, or why the summaries cannot be combined
    /// (the chunks are worth showing even then).
    public let calls: Result<MapReducePlan, PlanError>
    /// Seconds the cutting took, on the wall clock and of this thread's CPU
    /// (which other processes on a busy machine do not inflate).
    public let planningSeconds: (wall: Double, cpu: Double)

    /// Plans summarising `text` (UTF-8) for `profile`, cut by `planner`.
    ///
    /// - Parameters:
    ///   - text: the text to summarise, as UTF-8 bytes.
    ///   - profile: the model: its window, overheads and reserve.
    ///   - planner: cuts the text, counting with the profile's tokenizer.
    ///   - instructions: the instructions sent with every call; nil for none.
    ///   - schema: the output schema, priced as `RequestCost` prices it; it
    ///     also sets the expected summary size.
    ///   - runtime: how the schema reaches the model; nil infers it from the profile.
    ///   - frame: the fixed strings sent around each chunk; empty for text sent bare.
    ///   - reserve: tokens kept free for the answer; nil for the one reserve rule
    ///     (`TokenBudget.defaultReserve(for:)`).
    ///   - overlap: tokens repeated from the end of each chunk at the start of the next.
    ///   - summaryTokens: the expected tokens of one summary; nil for
    ///     `SummarySize`'s choice (from the schema, else the reserve).
    /// - Throws: `PlanError` when the text cannot be cut (`ChunkPlanner.plan(utf8:budget:)`:
    ///   no room for text, an overlap as large as the room, a character larger than a chunk).
    public init(
        text: [UInt8], profile: ModelProfile, planner: ChunkPlanner, instructions: String? = nil,
        schema: SchemaDocument? = nil, runtime: SchemaRuntime? = nil, frame: [String] = [],
        reserve: Int? = nil, overlap: Int = 0, summaryTokens: Int? = nil
    ) throws(PlanError) {
        let cost = RequestCost(profile: profile, tokenizer: planner.tokenizer, instructions: instructions, schema: schema, runtime: runtime, frame: frame)
        let budget = TokenBudget(profile: profile, cost: cost, reserve: reserve, overlap: overlap)
        let summary = SummarySize(given: summaryTokens, schema: schema, reserve: budget.reserve, planner: planner)
        let started = (wall: DispatchTime.now().uptimeNanoseconds, cpu: Self.threadCPUSeconds())
        let chunks = try text.withUnsafeBufferPointer { buffer in Result { () throws(PlanError) in try planner.plan(utf8: buffer, budget: budget) } }.get()
        planningSeconds = (wall: Double(DispatchTime.now().uptimeNanoseconds - started.wall) / 1e9, cpu: Self.threadCPUSeconds() - started.cpu)
        self.budget = budget
        schemaFraming = cost.schemaFraming
        self.chunks = chunks
        self.summary = summary
        calls = Result { () throws(PlanError) in try MapReducePlan(chunks: chunks, summary: summary) }
    }

    /// CPU seconds this thread has run.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
