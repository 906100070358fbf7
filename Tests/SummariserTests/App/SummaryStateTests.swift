import Foundation
import Testing
import ContextKit
@testable import Summariser

/// `SummaryEngine.states(for:cache:)`: every branch an app renders, driven by fakes.
@Suite struct SummaryStateTests {
    func engine(_ backend: FakeBackend, minimum: Int = 300) throws -> SummaryEngine {
        try SummaryEngine(backend: backend, configuration: .init(profile: Fakes.profile, responseReserve: 150, minimumCharacters: minimum))
    }

    func states(_ engine: SummaryEngine, _ text: String, cache: SummaryCache? = nil) async -> [SummaryState] {
        var seen: [SummaryState] = []
        for await state in engine.states(for: text, cache: cache) { seen.append(state) }
        return seen
    }

    @Test func aShortTextIsTooShortWithoutAModel() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        #expect(await states(try engine(backend, minimum: 40), "Fast shot, sour.") == [.tooShort("Fast shot, sour.")])
        #expect(backend.log.sessions == 0)
    }

    @Test func paddingDoesNotGetPastTheLengthRule() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let padded = "   Fast shot, sour.   " + String(repeating: "\n", count: 40) + "   "
        #expect(padded.unicodeScalars.count >= 40)
        #expect(await states(try engine(backend, minimum: 40), padded) == [.tooShort("Fast shot, sour.")])
        #expect(backend.log.sessions == 0)
    }

    @Test func aLongTextStreamsToItsSummary() async throws {
        let backend = FakeBackend(pieces: 8, behaviour: Fakes.stub)
        let engine = try engine(backend)
        let text = Fakes.text(paragraphs: 20)
        let seen = await states(engine, text)
        #expect(seen.first == .summarising(partial: nil))
        guard case .summarised(let summary)? = seen.last else { Issue.record("ended with \(String(describing: seen.last))"); return }
        #expect(summary.headline == "Part \(backend.log.prompts.count - 1)", "the final call's answer")
        #expect(seen.dropLast().allSatisfy { !$0.isFinal })
        // Snapshots are cumulative: each partial is the start of the answer, never two answers glued together.
        let partials = seen.compactMap { state -> PartialSummary? in
            if case .summarising(let partial?) = state { return partial }
            return nil
        }
        #expect(!partials.isEmpty)
        for partial in partials { #expect(summary.text.hasPrefix(partial.text), "\(partial.text) is not a prefix of \(summary.text)") }
    }

    @Test func aFailedCallIsAFailedStateWithTheTextAsFallback() async throws {
        let backend = FakeBackend(behaviour: { _, _, _ in throw GenerationError.guardrailViolation("unsafe") })
        let text = Fakes.text(paragraphs: 3)
        let seen = await states(try engine(backend), text)
        #expect(seen.last == .failed(UserMessage(GenerationError.guardrailViolation("unsafe")), fallback: text))
        #expect(seen.last.map { if case .failed(let message, _) = $0 { message.action == .showText } else { false } } == true)
    }

    @Test func anUnavailableBackendIsAFailedStateThatSaysWhatToDo() async throws {
        let backend = FakeBackend(available: .unavailable(.notEnabled), behaviour: Fakes.stub)
        let text = Fakes.text(paragraphs: 3)
        let seen = await states(try engine(backend), text)
        #expect(seen == [.summarising(partial: nil), .failed(UserMessage(.notEnabled), fallback: text)])
    }

    @Test func aCachedSummaryIsSummarisedAtOnceAndANewOneIsStored() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        let cache = SummaryCache()
        let text = Fakes.text(paragraphs: 3)
        let first = await states(engine, text, cache: cache)
        let sessions = backend.log.sessions
        guard case .summarised(let summary)? = first.last else { Issue.record("not summarised: \(first)"); return }
        #expect(cache.summary(for: engine.cacheKey(for: text)) == summary)
        #expect(await states(engine, text, cache: cache) == [.summarised(summary)])
        #expect(backend.log.sessions == sessions, "the cached summary made no call")
    }

    @Test func aFailureIsNotCached() async throws {
        let backend = FakeBackend(behaviour: { _, _, _ in throw GenerationError.transport("reset", status: nil) })
        let engine = try engine(backend)
        let cache = SummaryCache()
        let text = Fakes.text(paragraphs: 3)
        _ = await states(engine, text, cache: cache)
        #expect(cache.summary(for: engine.cacheKey(for: text)) == nil)
    }

    @Test func leavingTheStreamCancelsTheRun() async throws {
        let backend = FakeBackend(pieces: 20, delay: .milliseconds(20), behaviour: Fakes.stub)
        let engine = try engine(backend)
        for await state in engine.states(for: Fakes.text(paragraphs: 40)) {
            #expect(state == .summarising(partial: nil))
            break
        }
        // A hang guard, not a timing: let a run that was not cancelled start its next calls.
        try await Task.sleep(for: .milliseconds(300))
        let requests = backend.log.prompts.count
        try await Task.sleep(for: .milliseconds(300))
        #expect(backend.log.prompts.count == requests, "no call starts after the stream ended")
        #expect(requests <= 2)
    }

    @Test func isFinalMarksTheLastStates() {
        let message = UserMessage(.modelNotReady)
        #expect(!SummaryState.idle.isFinal)
        #expect(!SummaryState.summarising(partial: nil).isFinal)
        #expect(SummaryState.tooShort("x").isFinal)
        #expect(SummaryState.summarised(Summary(headline: "h", points: [])).isFinal)
        #expect(SummaryState.failed(message, fallback: "x").isFinal)
    }
}
