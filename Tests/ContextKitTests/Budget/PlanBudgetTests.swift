import Testing
@testable import ContextKit

struct PlanBudgetTests {
    @Test func partsFromAProfile() throws {
        let catalog = try ProfileCatalog.builtIn()
        let apple = PlanBudget(profile: try catalog.profile(named: "apple-on-device"), instructions: 40, schema: 119, reserve: 300)
        #expect(apple.requestOverhead == 22 && apple.room == 4096 - 22 - 40 - 119 - 300 && apple.isEstimate)
        let gpt = PlanBudget(profile: try catalog.profile(named: "gpt-4o"), instructions: 10, overlap: 100)
        #expect(gpt.requestOverhead == 3 + 3 * 2)   // instructions and text: two messages
        #expect(gpt.reserve == 512 && gpt.newTextPerChunk == gpt.room - 100 && !gpt.isEstimate)
        #expect(PlanBudget(profile: try catalog.profile(named: "gpt-2")).reserve == 256)  // a quarter of 1,024
    }

    @Test func validation() {
        #expect(throws: PlanError.self) { try PlanBudget(window: 100, reserve: 100).validate() }
        #expect(throws: PlanError.self) { try PlanBudget(window: 100, overlap: 100).validate() }
        #expect(throws: Never.self) { try PlanBudget(window: 100, reserve: 50, overlap: 49).validate() }
    }

    @Test func arithmeticShowsEveryPart() {
        let text = PlanBudget(window: 4096, requestOverhead: 22, instructions: 40, schema: 119, reserve: 512, overlap: 64, isEstimate: true).arithmeticText
        for part in ["context window", "4,096", "− request overhead", "− instructions", "≈ 40", "− output schema", "− response reserve", "= room for text", "≈ 3,403", "− overlap", "= new text per chunk", "≈ 3,339"] {
            #expect(text.contains(part), "\(part) missing from\n\(text)")
        }
    }
}
