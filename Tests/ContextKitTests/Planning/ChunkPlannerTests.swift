import Foundation
import Testing
@testable import ContextKit

struct ChunkPlannerTests {
    let cl100k = try! Tokenizer.named("cl100k_base")

    func plan(_ text: String, room: Int, overlap: Int = 0, estimate: TokenEstimate? = nil) throws -> ChunkPlan {
        try ChunkPlanner(tokenizer: cl100k, estimate: estimate).plan(text, budget: TokenBudget(window: room, overlap: overlap))
    }

    func slice(_ text: String, _ range: Range<Int>) -> String {
        String(decoding: Array(text.utf8)[range], as: UTF8.self)
    }

    @Test func emptyTextIsAnEmptyPlan() throws {
        let plan = try plan("", room: 100)
        #expect(plan.chunks.isEmpty)
        #expect(try MapReducePlan(chunks: plan, summaryTokens: 50).totalCalls == 0)
    }

    @Test func aTextThatFitsIsOneChunk() throws {
        let text = "The rain had stopped by the time Mira reached the pier."
        let plan = try plan(text, room: 100)
        #expect(plan.chunks.count == 1)
        #expect(plan.chunks[0].tokens == cl100k.count(text))
        #expect(plan.chunks[0].endLevel == nil)
    }

    @Test func cutsAtParagraphsBeforeSentences() throws {
        let paragraph = "The lamp turns slowly. Sailors count the flashes. Every light has its own signature.\n\n"
        let text = String(repeating: paragraph, count: 12)
        let tokensPerParagraph = cl100k.count(paragraph)
        let plan = try plan(text, room: tokensPerParagraph * 3 + 5)
        #expect(plan.chunks.count == 4)
        for chunk in plan.chunks.dropLast() { #expect(chunk.endLevel == .paragraph) }
        #expect(plan.chunks.map { slice(text, $0.bytes) }.joined() == text)
    }

    @Test(arguments: [9, 16, 40, 128, 500])
    func neverInsideAWordWhenAWordBoundaryIsInReach(room: Int) throws {
        var random = PlanningTexts(seed: UInt64(room))
        let text = (0..<3000).map { _ in PlanningTexts.words[0][random.below(PlanningTexts.words[0].count)] }.joined(separator: " ")
        let plan = try plan(text, room: room)
        #expect(plan.chunks.dropLast().allSatisfy { $0.endLevel == .word })
        #expect(plan.chunks.allSatisfy { $0.tokens <= room })
    }

    @Test func aWordLongerThanTheRoomFallsToGraphemes() throws {
        let text = "short " + String(repeating: "abcdefghij", count: 40) + " end"
        let plan = try plan(text, room: 20)
        #expect(plan.chunks.allSatisfy { $0.tokens <= 20 })
        #expect(plan.chunks.contains { $0.endLevel == .grapheme })
        #expect(plan.chunks.map { slice(text, $0.bytes) }.joined() == text)
    }

    @Test func aGraphemeThatCannotFitIsAnError() {
        let family = "👨‍👩‍👧‍👦"
        #expect(throws: PlanError.self) { try plan("a " + family + " b", room: 3) }
        do {
            _ = try plan("a " + family + " b", room: 3)
        } catch let error as PlanError {
            guard case let .graphemeTooLarge(offset, bytes, tokens, room) = error else { Issue.record("\(error)"); return }
            #expect(offset == 2 && bytes == family.utf8.count && tokens > 3 && room == 3)
        } catch { Issue.record("\(error)") }
    }

    @Test func noRoomPrintsTheArithmetic() {
        let budget = TokenBudget(window: 4096, requestOverhead: 22, instructions: 2000, schema: 119, reserve: 2000)
        #expect(throws: PlanError.noRoom(budget)) { try ChunkPlanner(tokenizer: cl100k).plan("text", budget: budget) }
        let message = PlanError.noRoom(budget).description
        #expect(message.contains("context window") && message.contains("4,096") && message.contains("-45"))
    }

    @Test func overlapRepeatsTheEndOfThePreviousChunk() throws {
        let text = (1...60).map { "Sentence number \($0) is here." }.joined(separator: " ")
        let plan = try plan(text, room: 60, overlap: 12)
        #expect(plan.chunks.count > 2)
        for (previous, chunk) in zip(plan.chunks, plan.chunks.dropFirst()) {
            #expect(chunk.newTextStart == previous.bytes.upperBound)
            #expect(chunk.bytes.lowerBound < chunk.newTextStart)
            #expect(chunk.bytes.lowerBound >= previous.newTextStart)
            #expect(chunk.overlapTokens <= 12)
            #expect(chunk.tokens <= 60)
        }
        #expect(plan.chunks.map { slice(text, $0.newBytes) }.joined() == text)
    }

    @Test func chunksAreBalanced() throws {
        let text = (1...200).map { "Word\($0) follows." }.joined(separator: " ")
        let plan = try plan(text, room: 100)
        let sizes = plan.chunks.map(\.tokens)
        #expect(sizes.count == (cl100k.count(text) + 99) / 100)
        #expect(sizes.min()! * 2 >= sizes.max()!)
    }

    @Test func estimatedCountsApplyTheProfilesFactor() throws {
        let estimate = TokenEstimate(method: "test", factor: 1.216, proxyTokensPerCJKCharacter: 1.35, tokensPerCJKCharacter: 1, errorBar: 0.15)
        let text = String(repeating: "灯台の光が海を照らす。The lamp turns. ", count: 40)
        let plan = try plan(text, room: 90, estimate: estimate)
        let bytes = Array(text.utf8)
        for chunk in plan.chunks {
            let part = String(decoding: bytes[chunk.bytes], as: UTF8.self)
            var copy = part
            let cjk = copy.withUTF8 { TextStats(scanning: $0).cjkCharacters }
            #expect(chunk.proxyTokens == cl100k.count(part))
            #expect(chunk.tokens == estimate.tokens(proxyTokens: chunk.proxyTokens, cjkCharacters: cjk))
            #expect(chunk.tokens <= 90)
        }
    }

    @Test func charactersAreUnicodeScalars() throws {
        let text = String(repeating: "héllo wörld. ", count: 30)
        let plan = try plan(text, room: 20)
        #expect(plan.textCharacters == text.unicodeScalars.count)
        #expect(plan.chunks.last!.characters.upperBound == text.unicodeScalars.count)
        let bytes = Array(text.utf8)
        for chunk in plan.chunks {
            #expect(String(decoding: bytes[0..<chunk.bytes.lowerBound], as: UTF8.self).unicodeScalars.count == chunk.characters.lowerBound)
        }
    }
}
