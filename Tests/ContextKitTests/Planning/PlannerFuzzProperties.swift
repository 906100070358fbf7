import Foundation
@testable import ContextKit

/// The chunk planner's invariants on any bytes and budget, checked by the
/// `chunk-planner` libFuzzer target in `scripts/fuzz` (which compiles this
/// file with `Planning/PlanningTexts.swift`) and replayed by
/// `FuzzRegressionTests`. No `Testing` import: the fuzzer builds it outside
/// the test runner.
enum PlannerFuzzProperties {
    static let planners: [ChunkPlanner] = {
        let apple = TokenEstimate(method: "fuzz", factor: 1.216, proxyTokensPerCJKCharacter: 1.35, tokensPerCJKCharacter: 1, errorBar: 0.15)
        return ["cl100k_base", "o200k_base", "r50k_base"].map { ChunkPlanner(tokenizer: try! Tokenizer.named($0)) }
            + [ChunkPlanner(tokenizer: try! Tokenizer.named("cl100k_base"), estimate: apple)]
    }()

    /// The first three bytes pick the planner, the room (4 to 1024 tokens) and
    /// the overlap; the rest is the text. Every chunk's count is the exact
    /// count of its bytes and fits the room, the new text of the chunks tiles
    /// the text, and no cut falls inside a grapheme cluster; or the planner
    /// refuses because one grapheme cluster really does not fit.
    static func plan(_ input: [UInt8]) -> String? {
        guard input.count >= 3 else { return nil }
        let planner = planners[Int(input[0]) % planners.count]
        let room = 4 + Int(input[1]) * 4
        let overlap = input[2] & 3 == 0 ? Int(input[2] >> 2) % max(1, room / 2) : 0
        let bytes = Array(input.dropFirst(3))
        let budget = TokenBudget(window: room, overlap: overlap)
        let plan: ChunkPlan
        do {
            plan = try bytes.withUnsafeBufferPointer { try planner.plan(utf8: $0, budget: budget) }
        } catch let PlanError.graphemeTooLarge(offset, length, tokens, limit) {
            return tokens > limit && length > 0 && offset < bytes.count ? nil : "refused a grapheme of \(tokens) tokens for a room of \(limit)"
        } catch {
            return "unexpected refusal: \(error)"
        }
        let graphemes = PlanningTexts.graphemeBoundaries(bytes)
        var expectedStart = 0
        for chunk in plan.chunks {
            let part = Array(bytes[chunk.bytes])
            let proxy = part.withUnsafeBufferPointer { planner.tokenizer.count(utf8: $0) }
            let cjk = part.withUnsafeBufferPointer { TextStats(scanning: $0).cjkCharacters }
            let tokens = planner.estimate?.tokens(proxyTokens: proxy, cjkCharacters: cjk) ?? proxy
            if chunk.proxyTokens != proxy || chunk.tokens != tokens { return "chunk \(chunk.index): counted \(chunk.tokens), its bytes are \(tokens)" }
            if chunk.tokens > budget.room { return "chunk \(chunk.index): \(chunk.tokens) tokens for a room of \(budget.room)" }
            if chunk.newTextStart != expectedStart { return "chunk \(chunk.index) starts its new text at \(chunk.newTextStart), not \(expectedStart)" }
            if chunk.bytes.lowerBound > chunk.newTextStart { return "chunk \(chunk.index): overlap after its new text" }
            if !graphemes.contains(chunk.bytes.lowerBound) || !graphemes.contains(chunk.bytes.upperBound) {
                return "chunk \(chunk.index) cut inside a grapheme cluster"
            }
            expectedStart = chunk.bytes.upperBound
        }
        if expectedStart != bytes.count { return "the chunks end at \(expectedStart) of \(bytes.count) bytes" }
        return nil
    }
}
