import Testing
@testable import ContextKit

struct SummarySizeTests {
    let planner = try! ChunkPlanner(tokenizer: Tokenizer.named("cl100k_base"))
    /// One string of at most eight words: its answer is expected at 4 + ⌈8 × 1.3⌉ tokens, about 15.
    let schema = try! SchemaDocument.load(#"{"type":"object","properties":{"headline":{"type":"string","description":"at most eight words"}}}"#)
    let tools = try! SchemaDocument.load(#"[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]"#)

    func expected() -> Int {
        let planner = self.planner
        return SummarySizeEstimate { planner.tokens($0) }.tokens(for: schema.entries[0].schema)
    }

    @Test func aGivenSizeWins() {
        #expect(SummarySize(given: 70, schema: schema, reserve: 500, planner: planner) == SummarySize(tokens: 70, source: .given))
    }

    @Test func theSchemaSetsTheSizeWithinTheReserve() {
        #expect(SummarySize(given: nil, schema: schema, reserve: 500, planner: planner) == SummarySize(tokens: expected(), source: .schema))
    }

    @Test func aSchemaExpectingMoreThanTheReserveGivesTheReserve() {
        let size = SummarySize(given: nil, schema: schema, reserve: 5, planner: planner)
        #expect(size == SummarySize(tokens: 5, source: .reserve(schemaSuggests: expected())))
    }

    @Test func withoutASchemaTheReserveIsTheSize() {
        #expect(SummarySize(given: nil, schema: nil, reserve: 300, planner: planner) == SummarySize(tokens: 300, source: .reserve(schemaSuggests: nil)))
    }

    @Test func aToolListSetsNoExpectation() {
        #expect(SummarySize(given: nil, schema: tools, reserve: 300, planner: planner).source == .reserve(schemaSuggests: nil))
    }

    @Test func theReserveIsNotAnExpectation() {
        #expect(!SummarySize(tokens: 300, source: .reserve(schemaSuggests: nil)).isExpectation)
    }

    @Test func aSizeIsAtLeastOneToken() {
        #expect(SummarySize(given: nil, schema: nil, reserve: 0, planner: planner).tokens == 1)
    }

    @Test func aTextWithinAnExpectedSummaryIsItsOwnSummary() throws {
        let plan = try planner.plan("A short text.", budget: TokenBudget(window: 1000))
        #expect(try MapReducePlan(chunks: plan, summary: SummarySize(tokens: 50, source: .schema)).passThrough)
    }

    @Test func aTextWithinTheReserveStillGetsACall() throws {
        let plan = try planner.plan("A short text.", budget: TokenBudget(window: 1000))
        #expect(try MapReducePlan(chunks: plan, summary: SummarySize(tokens: 50, source: .reserve(schemaSuggests: nil))).totalCalls == 1)
    }
}
