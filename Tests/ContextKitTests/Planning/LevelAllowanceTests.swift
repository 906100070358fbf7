import Testing
@testable import ContextKit

struct LevelAllowanceTests {
    let cl100k = try! Tokenizer.named("cl100k_base")

    @Test func moreChunksBuyHigherLevelCuts() throws {
        let paragraph = "The keeper wound the clockwork by hand. The lamp turned all night long.\n\n"
        let text = String(repeating: paragraph, count: 40)
        let room = cl100k.count(paragraph) * 3 + 10
        let generous = try ChunkPlanner(tokenizer: cl100k, levelAllowance: 0.5).plan(text, budget: TokenBudget(window: room))
        #expect(generous.chunks.dropLast().allSatisfy { $0.endLevel == .paragraph })
        let strict = try ChunkPlanner(tokenizer: cl100k, levelAllowance: 0).plan(text, budget: TokenBudget(window: room))
        #expect(strict.chunks.count < generous.chunks.count)
        #expect(strict.chunks.count == (cl100k.count(text) + room - 1) / room)
        #expect(strict.chunks.dropLast().allSatisfy { $0.endLevel! >= .word })
    }
}
