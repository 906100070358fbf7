import Testing
@testable import ContextKit

struct MapReducePlanTests {
    func chunkPlan(chunks: Int, tokens: Int = 900, budget: TokenBudget) -> ChunkPlan {
        let list = (0..<chunks).map {
            Chunk(index: $0, bytes: ($0 * 10)..<($0 * 10 + 10), characters: 0..<0, newTextStart: $0 * 10, tokens: tokens, proxyTokens: tokens, endLevel: .paragraph)
        }
        return ChunkPlan(budget: budget, chunks: list, textBytes: chunks * 10, textCharacters: chunks * 10, textTokens: chunks * tokens, textProxyTokens: chunks * tokens)
    }

    @Test func oneChunkNeedsNoReduce() throws {
        let budget = TokenBudget(window: 1000, requestOverhead: 22, reserve: 100)
        let plan = try MapReducePlan(chunks: chunkPlan(chunks: 1, budget: budget), summaryTokens: 100)
        #expect(plan.totalCalls == 1 && plan.reduceLevels == 0)
        #expect(plan.tokensSent == 922)
    }

    @Test func reduceLevelsUntilOneCallHoldsEverything() throws {
        // room 878; a summary costs 100 + 2 → 8 per reduce call.
        let budget = TokenBudget(window: 1000, requestOverhead: 22, reserve: 100)
        let plan = try MapReducePlan(chunks: chunkPlan(chunks: 100, tokens: 800, budget: budget), summaryTokens: 100)
        #expect(plan.fanIn == 8)
        #expect(plan.levels.map(\.calls.count) == [100, 13, 2, 1])
        #expect(plan.totalCalls == 116)
        let second = plan.levels[1].calls.map(\.inputs.count)
        #expect(second.max()! - second.min()! <= 1 && second.reduce(0, +) == 100)
        #expect(plan.levels.last!.calls[0].inputs == [0, 1])
        #expect(plan.tokensSent == 100 * 822 + plan.levels.dropFirst().flatMap(\.calls).reduce(0) { $0 + 22 + $1.inputs.count * 102 })
    }

    @Test func summariesTooBigToCombineAreAnError() {
        let budget = TokenBudget(window: 1000, reserve: 600)
        #expect(throws: PlanError.summariesDoNotShrink(summaryTokens: 300, room: 400)) {
            try MapReducePlan(chunks: chunkPlan(chunks: 3, tokens: 400, budget: budget), summaryTokens: 300)
        }
    }

    @Test func aTextShorterThanASummaryIsItsOwnSummary() throws {
        let budget = TokenBudget(window: 1000, reserve: 200)
        let plan = try MapReducePlan(chunks: chunkPlan(chunks: 1, tokens: 40, budget: budget), summaryTokens: 100)
        #expect(plan.passThrough && plan.totalCalls == 0)
    }
}
