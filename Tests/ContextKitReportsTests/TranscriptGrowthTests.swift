import Foundation
import Testing
import TestSupport
import ContextKit
@testable import ContextKitReports

@Suite("Transcript growth")
struct TranscriptGrowthTests {
    static let apple = ModelProfile.Overheads(perRequest: 22, perMessage: 0)

    @Test("700-token documents with 150-token answers overflow 4,096 tokens at turn 5")
    func overflowTurn() {
        let growth = TranscriptGrowth(instructions: 50, prompt: 700, answer: 150, turns: 8, window: 4096, overheads: Self.apple)
        #expect(growth.overflowTurn == 5)
        #expect(growth.promptOverflowTurn == 5)
        #expect(growth.freshOverflowTurn == nil)
        // Turn 4: 50 + 3 × (700 + 150) + 700 + 22 = 3,322 sent; with its answer 3,472.
        #expect(growth.turns[3].reusedPrompt == 3322 && growth.turns[3].reusedWindow == 3472)
        #expect(growth.turns[4].reusedWindow == 4322)
        #expect(growth.turns.allSatisfy { $0.freshPrompt == 772 && $0.freshWindow == 922 })
    }

    @Test("request n resends every earlier prompt and answer; totals accumulate")
    func growth() {
        let exchanges = [TranscriptGrowth.Exchange(prompt: 100, answer: 10), .init(prompt: 200, answer: 20), .init(prompt: 300, answer: 30)]
        let growth = TranscriptGrowth(instructions: 0, exchanges: exchanges, window: 1000, overheads: .init(perRequest: 3, perMessage: 4))
        #expect(growth.turns.map(\.messages) == [1, 3, 5])
        #expect(growth.turns.map(\.reusedPrompt) == [100 + 3 + 4, 110 + 200 + 3 + 12, 110 + 220 + 300 + 3 + 20])
        #expect(growth.turns.map(\.freshPrompt) == [107, 207, 307])
        #expect(growth.turns.map(\.reusedCumulative) == [107, 107 + 325, 107 + 325 + 653])
        #expect(growth.turns.map(\.freshCumulative) == [107, 314, 621])
        #expect(growth.overflowTurn == nil)
    }

    @Test("after six requests a reused session's transcript holds 13 entries (field notes)")
    func entries() {
        let growth = TranscriptGrowth(instructions: 40, prompt: 300, answer: 60, turns: 6, window: 4096, overheads: Self.apple)
        #expect(growth.turns.last?.transcriptEntries == 13)
        #expect(growth.turns.last?.messages == 12)
    }

    @Test("an answer that no longer fits is an overflow even when the request does")
    func answerOverflow() {
        let growth = TranscriptGrowth(instructions: 0, prompt: 100, answer: 900, turns: 3, window: 1500, overheads: .init())
        #expect(growth.overflowTurn == 2)  // 100 + 900 + 100 = 1,100 sent, + 900 answer
        #expect(growth.promptOverflowTurn == 3)  // 2 × 1,000 + 100 sent
    }

    @Test("a chat transcript is read as User/Assistant pairs")
    func chat() throws {
        let chat = try ChatTranscript(parsing: "User: Hi there.\n\nAssistant: Hello!\n\nUser: Bye.\n\nAssistant: Goodbye.\n")
        #expect(chat.exchanges == [.init(user: "Hi there.", assistant: "Hello!"), .init(user: "Bye.", assistant: "Goodbye.")])
        #expect(throws: MeasurementError.self) { try ChatTranscript(parsing: "User: a\nUser: b\n") }
        #expect(throws: MeasurementError.self) { try ChatTranscript(parsing: "Assistant: a\n") }
        #expect(throws: MeasurementError.self) { try ChatTranscript(parsing: "User: a\n") }
        #expect(throws: MeasurementError.self) { try ChatTranscript(parsing: "Someone: a\n") }
    }

    @Test("synthetic documents have the size asked for and differ by number")
    func synthetic() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let first = try SyntheticDocument.text(tokens: 300, number: 1, tokenizer: tokenizer)
        let second = try SyntheticDocument.text(tokens: 300, number: 2, tokenizer: tokenizer)
        #expect(first != second)
        #expect(abs(tokenizer.count(first) - 300) <= 1)
        let instructions = try SyntheticDocument.instructions(tokens: 50, tokenizer: tokenizer)
        #expect(instructions.hasPrefix("Summarise"))
        #expect(abs(tokenizer.count(instructions) - 50) <= 1)
    }
}
