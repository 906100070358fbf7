import Testing
@testable import ContextKit

struct TokenBudgetTests {
    func profile(_ name: String) throws -> ModelProfile { try ProfileCatalog.builtIn().profile(named: name) }

    @Test func roomIsTheWindowLessEveryPart() throws {
        let apple = TokenBudget(profile: try profile("apple-on-device"), instructions: 40, schema: 119, reserve: 300)
        #expect(apple.room == 4096 - 22 - 40 - 119 - 300)
    }

    @Test func theReserveRuleTakesTheGivenThenTheProfilesThenAQuarterOfTheWindowUpTo512() {
        #expect(TokenBudget.reserve(given: 0, profileReserve: 200, window: 4096) == (0, .given))
        #expect(TokenBudget.reserve(given: nil, profileReserve: 200, window: 4096) == (200, .profile))
        #expect(TokenBudget.reserve(given: nil, profileReserve: 0, window: 4096) == (512, .defaultRule))
        #expect(TokenBudget.reserve(given: nil, profileReserve: 0, window: 1000) == (250, .defaultRule))
    }

    @Test func aProfileBudgetSaysWhichRuleSetItsReserve() throws {
        let gpt = try profile("gpt-4o")
        #expect(TokenBudget(profile: gpt).reserveSource == .defaultRule)
        #expect(TokenBudget(profile: gpt, reserve: 10).reserveSource == .given)
        var local = gpt
        local.defaultReserve = 200
        #expect(TokenBudget(profile: local).reserve == 200 && TokenBudget(profile: local).reserveSource == .profile)
    }

    @Test func anEstimatedProfileGivesAnEstimatedBudget() throws {
        #expect(TokenBudget(profile: try profile("apple-on-device")).isEstimate)
    }

    @Test func instructionsAreASecondMessage() throws {
        let gpt = TokenBudget(profile: try profile("gpt-4o"), instructions: 10)
        #expect(gpt.requestOverhead == 3 + 3 * 2)
    }

    @Test func fixedIsOverheadInstructionsAndSchema() {
        #expect(TokenBudget(window: 1000, requestOverhead: 22, instructions: 40, schema: 119, reserve: 300).fixed == 181)
    }

    @Test func newTextPerChunkIsTheRoomLessTheOverlap() throws {
        let gpt = TokenBudget(profile: try profile("gpt-4o"), overlap: 100)
        #expect(gpt.newTextPerChunk == gpt.room - 100)
    }

    @Test func availableIsTheRoomNeverNegative() {
        #expect(TokenBudget(window: 100, requestOverhead: 80, reserve: 50).available == 0)
    }

    @Test func theDefaultReserveIs512() throws {
        #expect(TokenBudget(profile: try profile("gpt-4o")).reserve == 512)
    }

    @Test func theDefaultReserveIsAtMostAQuarterOfTheWindow() throws {
        #expect(TokenBudget(profile: try profile("gpt-2")).reserve == 256)
    }

    @Test func theDefaultReserveFollowsASmallerWindowInEffect() throws {
        let budget = TokenBudget(profile: try profile("gpt-4o"), window: 1000)
        #expect(budget.reserve == 250)
    }

    @Test func aProfilesOwnReserveIsTheDefault() {
        let profile = ModelProfile(name: "local", contextWindow: 1024, tokenizer: .encoding("cl100k_base"), defaultReserve: 200)
        #expect(TokenBudget.defaultReserve(for: profile) == 200)
    }

    @Test func aReserveThatTakesTheRoomIsRefused() {
        #expect(throws: PlanError.self) { try TokenBudget(window: 100, reserve: 100).validate() }
    }

    @Test func anOverlapThatTakesTheRoomIsRefused() {
        #expect(throws: PlanError.self) { try TokenBudget(window: 100, overlap: 100).validate() }
    }

    @Test func anOverlapBelowTheRoomIsAccepted() {
        #expect(throws: Never.self) { try TokenBudget(window: 100, reserve: 50, overlap: 49).validate() }
    }

    @Test func arithmeticShowsEveryPart() {
        let text = TokenBudget(window: 4096, requestOverhead: 22, instructions: 40, schema: 119, reserve: 512, overlap: 64, isEstimate: true).arithmeticText
        for part in [
            "context window", "4,096", "− request overhead", "− instructions", "≈ 40", "− output schema", "− response reserve", "= room for text", "≈ 3,403", "− overlap",
            "= new text per chunk", "≈ 3,339"
        ] {
            #expect(text.contains(part), "\(part) missing from\n\(text)")
        }
    }

    @Test func aSourceFrameIsPartOfTheFixedCostAndShownOnlyWhenThere() throws {
        let framed = TokenBudget(window: 4096, requestOverhead: 22, instructions: 40, schema: 119, reserve: 512, frame: 13)
        #expect(framed.fixed == 22 + 40 + 119 + 13)
        #expect(framed.room == 4096 - 22 - 40 - 119 - 13 - 512)
        let lines = framed.arithmetic.map(\.label)
        #expect(lines == ["context window", "− request overhead", "− instructions", "− output schema", "− source frame", "− response reserve", "= room for text"])
        #expect(!TokenBudget(window: 4096, reserve: 512).arithmetic.map(\.label).contains("− source frame"))
    }

    @Test func requestCostPricesEachDelimiterOnItsOwn() throws {
        let profile = try profile("gpt-4o")
        let tokenizer = try Tokenizer.named("o200k_base")
        let delimiters = ["[BEGIN SOURCE TEXT]\n", "\n[END SOURCE TEXT]"]
        let cost = RequestCost(profile: profile, tokenizer: tokenizer, instructions: "Summarise.", schema: nil, frame: delimiters)
        #expect(cost.frame == tokenizer.count(delimiters[0]) + tokenizer.count(delimiters[1]))
        #expect(RequestCost(profile: profile, tokenizer: tokenizer, instructions: "Summarise.", schema: nil).frame == 0)
        #expect(TokenBudget(profile: profile, cost: cost).frame == cost.frame)
    }
}
