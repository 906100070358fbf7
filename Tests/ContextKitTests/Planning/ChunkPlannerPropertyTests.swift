import Foundation
import Testing
import TestSupport
@testable import ContextKit

/// The planner's invariants on random documents and budgets: every chunk's
/// count is the exact count of its bytes and within the room, the chunks tile
/// the text byte for byte (without overlap), and no cut falls inside a
/// grapheme cluster or a UTF-8 sequence.
struct ChunkPlannerPropertyTests {
    static let encodings = ["cl100k_base", "o200k_base", "r50k_base"]
    static let apple = TokenEstimate(method: "test", factor: 1.216, proxyTokensPerCJKCharacter: 1.35, tokensPerCJKCharacter: 1, errorBar: 0.15)

    func check(_ bytes: [UInt8], planner: ChunkPlanner, budget: TokenBudget, label: String) throws {
        let plan = try bytes.withUnsafeBufferPointer { try planner.plan(utf8: $0, budget: budget) }
        let graphemes = PlanningTexts.graphemeBoundaries(bytes)
        var expectedStart = 0
        for chunk in plan.chunks {
            let part = bytes[chunk.bytes]
            let proxy = part.withUnsafeBufferPointer { planner.tokenizer.count(utf8: $0) }
            let cjk = part.withUnsafeBufferPointer { TextStats(scanning: $0).cjkCharacters }
            let tokens = planner.estimate?.tokens(proxyTokens: proxy, cjkCharacters: cjk) ?? proxy
            #expect(chunk.proxyTokens == proxy, "\(label): chunk \(chunk.index) proxy count")
            #expect(chunk.tokens == tokens, "\(label): chunk \(chunk.index) count")
            #expect(chunk.tokens <= budget.room, "\(label): chunk \(chunk.index) over budget")
            #expect(chunk.newTextStart == expectedStart, "\(label): chunk \(chunk.index) does not continue the previous one")
            #expect(
                graphemes.contains(chunk.bytes.lowerBound) && graphemes.contains(chunk.bytes.upperBound),
                "\(label): chunk \(chunk.index) cut inside a grapheme cluster")
            if budget.overlap == 0 { #expect(chunk.bytes.lowerBound == chunk.newTextStart) }
            expectedStart = chunk.bytes.upperBound
        }
        #expect(expectedStart == bytes.count, "\(label): chunks do not reach the end")
        if budget.overlap == 0 {
            #expect(Array(plan.chunks.map { bytes[$0.bytes] }.joined()) == bytes, "\(label): not an exact tiling")
        }
    }

    @Test(arguments: 0..<40)
    func randomDocumentsAndBudgets(seed: Int) throws {
        var random = PlanningTexts(seed: UInt64(seed) + 1)
        let text = random.document(paragraphs: 2 + random.below(40))
        let bytes = seed % 5 == 4 ? random.corrupted(text) : Array(text.utf8)
        let encoding = Self.encodings[seed % Self.encodings.count]
        let planner = ChunkPlanner(tokenizer: try Tokenizer.named(encoding), estimate: seed % 3 == 0 ? Self.apple : nil)
        for _ in 0..<4 {
            let room = [8, 16, 40, 100, 300, 1000][random.below(6)] + random.below(20)
            let overlap = random.below(3) == 0 ? random.below(room / 2) : 0
            let budget = TokenBudget(window: room, overlap: overlap)
            do {
                try check(bytes, planner: planner, budget: budget, label: "seed \(seed) \(encoding) room \(room) overlap \(overlap)")
            } catch let PlanError.graphemeTooLarge(offset, length, tokens, limit) {
                // Allowed only when that grapheme really does not fit.
                #expect(tokens > limit && length > 0 && offset < bytes.count)
            }
        }
    }

    @Test(arguments: 0..<12)
    func fuzzFragments(seed: Int) throws {
        var fuzz = TextFuzz(seed: UInt64(seed) + 100)
        let bytes = fuzz.text(fragments: 50 + seed * 40)
        let planner = ChunkPlanner(tokenizer: try Tokenizer.named(Self.encodings[seed % 3]))
        for room in [6, 25, 120] {
            try check(bytes, planner: planner, budget: TokenBudget(window: room), label: "fuzz \(seed) room \(room)")
        }
    }

    /// Swift's own `Character`s (Unicode 16) agree with the cuts on texts
    /// without Indic conjuncts (GB9c is newer than utf8proc 2.8's Unicode 15).
    @Test(arguments: 0..<8)
    func cutsFallOnSwiftCharacterBoundaries(seed: Int) throws {
        var random = PlanningTexts(seed: UInt64(seed) + 500)
        let text = random.document(paragraphs: 30).filter { !$0.unicodeScalars.contains { (0x0900...0x097F).contains($0.value) } }
        var characterEnds: Set<Int> = [0]
        var offset = 0
        for character in text { offset += character.utf8.count; characterEnds.insert(offset) }
        let plan = try ChunkPlanner(tokenizer: try Tokenizer.named("cl100k_base")).plan(text, budget: TokenBudget(window: 24 + seed * 9))
        for chunk in plan.chunks { #expect(characterEnds.contains(chunk.bytes.upperBound)) }
    }
}
