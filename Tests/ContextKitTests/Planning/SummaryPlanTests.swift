import Testing
@testable import ContextKit

/// `SummaryPlan` is the budget, the chunks, the summary size and the calls
/// the parts give when assembled by hand: one entry point, the same answer.
struct SummaryPlanTests {
    let profile = ModelProfile(name: "small", contextWindow: 1024, tokenizer: .encoding("cl100k_base"))
    let text = Array(String(repeating: "The keeper wound the clockwork every four hours, as his father had done. ", count: 120).utf8)

    @Test func theEntryPointIsThePartsAssembled() throws {
        let planner = try ChunkPlanner(profile: profile)
        let plan = try SummaryPlan(text: text, profile: profile, planner: planner, instructions: "Summarise the text.", reserve: 200, overlap: 16)
        let cost = RequestCost(profile: profile, tokenizer: planner.tokenizer, instructions: "Summarise the text.", schema: nil)
        let budget = TokenBudget(profile: profile, cost: cost, reserve: 200, overlap: 16)
        #expect(plan.budget == budget)
        #expect(plan.summary == SummarySize(given: nil, schema: nil, reserve: 200, planner: planner))
        let chunks = try planner.plan(String(decoding: text, as: UTF8.self), budget: budget)
        #expect(plan.chunks == chunks)
        #expect(try plan.calls.get() == MapReducePlan(chunks: chunks, summary: plan.summary))
        #expect(plan.chunks.chunks.count > 1)
    }

    @Test func summariesThatCannotBeCombinedStillGiveTheChunks() throws {
        let planner = try ChunkPlanner(profile: profile)
        // A summary as large as the room: each reduce call could hold only one.
        let plan = try SummaryPlan(text: text, profile: profile, planner: planner, reserve: 200, summaryTokens: 900)
        #expect(!plan.chunks.chunks.isEmpty)
        guard case .failure(.summariesDoNotShrink) = plan.calls else { Issue.record("\(plan.calls)"); return }
    }

    @Test func aBudgetWithNoRoomIsAPlanError() {
        let planner = try! ChunkPlanner(profile: profile)
        #expect(throws: PlanError.self) { try SummaryPlan(text: text, profile: profile, planner: planner, reserve: 1024) }
    }
}
