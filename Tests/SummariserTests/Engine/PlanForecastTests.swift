import Testing
import ContextKit
@testable import Summariser

/// `ctxkit plan` forecasts the calls the engine makes: the same budget, the
/// same map chunks, and — where the summaries fit one reduce call — the same
/// number of reduce levels. The plan is made here as the command makes it.
@Suite struct PlanForecastTests {
    /// One profile per way a schema reaches the model: Apple's JSON with
    /// framing (estimated counts), OpenAI's compact JSON, and a decoding grammar.
    static let profiles = ["apple-on-device", "gpt-2", "llama-test"]

    static func profile(_ name: String) throws -> ModelProfile {
        if name == "llama-test" { return ModelProfile(name: name, contextWindow: 2048, tokenizer: .encoding("cl100k_base")) }
        return try ProfileCatalog.builtIn().profile(named: name)
    }

    /// What `ctxkit plan FILE -m PROFILE --instructions MAP --schema SUMMARY --source-frame` computes.
    func forecast(_ text: String, for configuration: SummaryEngine.Configuration) throws -> (chunks: ChunkPlan, calls: MapReducePlan) {
        let profile = configuration.profile
        let planner = try ChunkPlanner(profile: profile)
        let schema = configuration.schema.document
        let cost = RequestCost(
            profile: profile, tokenizer: planner.tokenizer, instructions: configuration.mapInstructions, schema: schema,
            frame: SourceFraming.standard.delimiters)
        let budget = TokenBudget(profile: profile, cost: cost, reserve: configuration.responseReserve)
        let chunks = try planner.plan(text, budget: budget)
        let summary = SummarySize(given: nil, schema: schema, reserve: budget.reserve, planner: planner)
        return (chunks, try MapReducePlan(chunks: chunks, summary: summary))
    }

    /// A run with the default instructions, schema and reserve, against a backend of the profile's window.
    func run(_ text: String, profile: String) async throws -> (run: SummaryRun, backend: FakeBackend, configuration: SummaryEngine.Configuration) {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let configuration = SummaryEngine.Configuration(profile: try Self.profile(profile))
        let run = try await SummaryEngine(backend: backend, configuration: configuration).summarise(text)
        return (run, backend, configuration)
    }

    @Test(arguments: profiles) func theMapBudgetIsThePlannedBudget(profile: String) async throws {
        let text = Fakes.text(paragraphs: 60)
        let (run, _, configuration) = try await run(text, profile: profile)
        #expect(run.levels[0].plan.budget == (try forecast(text, for: configuration)).chunks.budget)
    }

    @Test(arguments: profiles) func theMapCallsAreThePlannedChunks(profile: String) async throws {
        let text = Fakes.text(paragraphs: 60)
        let (run, _, configuration) = try await run(text, profile: profile)
        let planned = try forecast(text, for: configuration).calls.levels[0].calls.count
        #expect(run.metrics.calls.filter { $0.stage == .map }.count == planned)
    }

    @Test(arguments: profiles) func theMapChunksHaveThePlannedBytes(profile: String) async throws {
        let text = Fakes.text(paragraphs: 60)
        let (run, _, configuration) = try await run(text, profile: profile)
        let planned = try forecast(text, for: configuration).chunks.chunks
        try #require(planned.count > 1, "the text needs several chunks")
        #expect(run.levels[0].plan.chunks.map(\.bytes) == planned.map(\.bytes))
    }

    @Test(arguments: profiles) func theMapPromptsAreThePlannedTexts(profile: String) async throws {
        let text = Fakes.text(paragraphs: 60)
        let (run, backend, configuration) = try await run(text, profile: profile)
        let bytes = Array(text.utf8)
        let planned = try forecast(text, for: configuration).chunks.chunks.map { String(decoding: bytes[$0.bytes], as: UTF8.self) }
        #expect(Array(backend.log.prompts.prefix(run.levels[0].plan.chunks.count)) == planned)
    }

    @Test func theReduceLevelsAreThePlannedOnesWhenTheSummariesFitOneCall() async throws {
        let text = Fakes.text(paragraphs: 80)
        let (run, _, configuration) = try await run(text, profile: "apple-on-device")
        let calls = try forecast(text, for: configuration).calls
        try #require(calls.levels[0].calls.count > 1, "the text needs a reduce")
        #expect(run.levels.count - 1 == calls.reduceLevels)
    }
}
