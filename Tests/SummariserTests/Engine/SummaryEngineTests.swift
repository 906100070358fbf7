import Foundation
import Testing
import ContextKit
@testable import Summariser

@Suite struct SummaryEngineTests {
    func engine(_ backend: FakeBackend, window: Int = 1024, reserve: Int = 150, configure: (inout SummaryEngine.Configuration) -> Void = { _ in }) throws -> SummaryEngine {
        var profile = Fakes.profile
        profile.contextWindow = window
        var configuration = SummaryEngine.Configuration(profile: profile, responseReserve: reserve)
        configure(&configuration)
        return try SummaryEngine(backend: backend, configuration: configuration)
    }

    @Test func shortInputIsItsOwnSummaryWithoutACall() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let run = try await engine(backend).summarise("The lamp was lit at dusk. The sea stayed calm all night.")
        #expect(run.isInputItsOwnSummary)
        #expect(run.summary == Summary(headline: "The lamp was lit at dusk.", points: ["The sea stayed calm all night."]))
        #expect(run.metrics.calls.isEmpty)
        #expect(backend.log.sessions == 0)
    }

    @Test func anUnavailableBackendStopsTheRunWithItsReason() async throws {
        let backend = FakeBackend(available: .unavailable(.notEnabled), behaviour: Fakes.stub)
        await #expect(throws: SummariserError.unavailable(.notEnabled)) {
            _ = try await engine(backend).summarise(Fakes.text(paragraphs: 10))
        }
        #expect(backend.log.prompts.isEmpty)
    }

    @Test func aTextThatFitsIsOneCall() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 1))
        #expect(run.metrics.calls.count == 1)
        #expect(run.levels.count == 1)
        #expect(run.summary.headline == "Part 0")
    }

    @Test func longTextIsMappedThenReducedToOneSummary() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let text = Fakes.text(paragraphs: 40)
        let run = try await engine(backend).summarise(text)
        let map = run.levels[0].plan
        #expect(map.chunks.count > 4)
        #expect(run.levels.count >= 2)
        #expect(run.levels.last!.plan.chunks.count == 1)
        // Every chunk of every level was one call, and the chunks tile the text.
        #expect(run.metrics.calls.count == run.levels.reduce(0) { $0 + $1.plan.chunks.count })
        #expect(backend.log.prompts.prefix(map.chunks.count).joined() == text)
        #expect(run.metrics.calls.filter { $0.stage == .map }.count == map.chunks.count)
        // The result is the last call's answer.
        #expect(run.summary.headline == "Part \(run.metrics.calls.count - 1)")
        // Every chunk fits its budget.
        for level in run.levels { for chunk in level.plan.chunks { #expect(chunk.tokens <= level.plan.budget.room) } }
        // Reduce prompts are the summaries before them, one paragraph each.
        let firstReduce = backend.log.prompts[map.chunks.count]
        #expect(firstReduce.hasPrefix("# Part 0\n\n- Numbers"))
    }

    @Test func everyRequestHasAFreshSessionAndTheNextIsPrewarmedDuringTheCurrent() async throws {
        let backend = FakeBackend(delay: .milliseconds(20), behaviour: Fakes.stub)
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 20))
        let entries = backend.log.entries
        #expect(!entries.contains { $0.hasPrefix("REUSED") })
        #expect(backend.log.sessions == run.metrics.calls.count)
        // Session k+1 is prewarmed before call k finishes.
        for k in 1..<run.metrics.calls.count {
            let prewarm = try #require(entries.firstIndex(of: "prewarm s\(k + 1)"))
            let finish = try #require(entries.firstIndex(of: "finish s\(k) r\(k - 1)"))
            #expect(prewarm < finish, "session \(k + 1) prewarmed after call \(k) finished: \(entries)")
        }
    }

    @Test func aCopyIsRetriedOnceInAFreshSession() async throws {
        let backend = FakeBackend(behaviour: { n, _, prompt in
            // Copies on the first try of each prompt, summarises on the retry.
            n == 0 ? Summary(headline: "Copy", points: [prompt]).json : Fakes.summaryJSON(for: prompt, request: n)
        })
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 3))
        #expect(run.metrics.copiesDetected == 1)
        #expect(run.metrics.copiesKept == 0)
        #expect(run.copies.isEmpty)
        #expect(run.metrics.calls.map(\.attempt) == [1, 2])
        #expect(run.metrics.calls.map(\.copied) == [true, false])
        #expect(backend.log.sessions == 2)
        #expect(run.summary.headline == "Part 1")
    }

    @Test func aSecondCopyIsKeptAndReported() async throws {
        let backend = FakeBackend(behaviour: { _, _, prompt in Summary(headline: "Copy", points: [prompt]).json })
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 3))
        #expect(run.metrics.copiesDetected == 2)
        #expect(run.metrics.copiesKept == 1)
        #expect(run.copies.count == 1)
        #expect(run.copies[0].call == 1)
        #expect(!run.copies[0].phrase.isEmpty)
    }

    @Test func anExtractiveBackendIsNeverACopy() async throws {
        let backend = FakeBackend(copies: true, behaviour: { _, _, prompt in Summary(headline: "Copy", points: [prompt]).json })
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 3))
        #expect(run.metrics.copiesDetected == 0)
        #expect(run.metrics.calls.count == 1)
    }

    /// A backend whose tokenizer counts 1.6× what the profile does, with a
    /// window of 1,024: chunks planned for the profile's count overflow.
    func overflowing(limit: Int = 1024, factor: Double = 1.6) -> FakeBackend {
        let tokenizer = try! Tokenizer.named("cl100k_base")
        return FakeBackend(behaviour: { n, instructions, prompt in
            let counted = Int(Double(tokenizer.count(prompt) + tokenizer.count(instructions) + 80) * factor)
            if counted > limit - 150 {
                throw GenerationError.contextOverflow(ContextOverflow(dialect: .llamaCpp, promptTokens: counted, contextWindow: limit))
            }
            return Fakes.summaryJSON(for: prompt, request: n)
        })
    }

    @Test func anOverflowReplansWithTheReportedCount() async throws {
        let backend = overflowing()
        let text = Fakes.text(paragraphs: 20)
        let run = try await engine(backend).summarise(text)
        #expect(run.replans.count >= 1)
        #expect(run.replans.count <= 3)
        let replan = run.replans[0]
        #expect(replan.reportedTokens! > replan.plannedTokens)
        #expect(replan.roomAfter < replan.roomBefore)
        // The failed call is in the metrics; the text was still covered once, in order.
        #expect(run.metrics.calls.contains { $0.failure != nil })
        let mapCalls = run.metrics.calls.filter { $0.stage == .map && $0.failure == nil }
        #expect(mapCalls.count == run.levels[0].plan.chunks.count)
        let succeeded = zip(backend.log.prompts, run.metrics.calls).filter { $0.1.failure == nil && $0.1.stage == .map }.map(\.0)
        #expect(succeeded.joined() == text)
    }

    @Test func aBackendThatCountsExactlyIsNeverSentAChunkThatOverflows() async throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        // The backend's tokenizer makes 1.6× the profile's tokens, and says so before any call.
        let exact: @Sendable (String) -> Int = { Int(Double(tokenizer.count($0)) * 1.6) }
        var backend = FakeBackend(behaviour: Fakes.stub)
        backend.exactCount = exact
        let text = Fakes.text(paragraphs: 20)
        let run = try await engine(backend, window: 1024, reserve: 150).summarise(text)
        // One replan, caught before the first call was made: it names that call.
        #expect(run.replans.count == 1)
        #expect(run.replans.first?.call == 0)
        #expect(run.replans.first.map { $0.reportedTokens! > $0.plannedTokens } == true)
        // Every request sent was planned with the backend's own count, and fits the window by it.
        let fixed = try #require(run.levels.first?.plan.budget.fixed)
        for (prompt, call) in zip(backend.log.prompts, run.metrics.calls) where call.stage == .map {
            #expect(call.tokensPlannedByBackend)
            #expect(call.tokensPlanned == exact(prompt) + fixed)
            #expect(call.tokensPlanned <= 1024 - 150)
        }
        let mapPrompts = zip(backend.log.prompts, run.metrics.calls).filter { $0.1.stage == .map }.map(\.0)
        #expect(mapPrompts.joined() == text)
    }

    @Test func aBackendThatCountsWholeRequestsPlansEveryCallWithItsCount() async throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        // A template that adds 7 tokens around the instructions and the prompt.
        let count: @Sendable (String, String) -> Int = { tokenizer.count($0) + tokenizer.count($1) + 7 }
        var backend = FakeBackend(behaviour: Fakes.stub)
        backend.requestCount = { instructions, prompt, schema in
            #expect(schema == Summary.schema, "the request's schema is counted with it")
            return count(instructions, prompt)
        }
        backend.exactCount = { _ in
            Issue.record("a backend that counts requests is not asked for text counts"); return 0
        }
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 20))
        #expect(run.levels.count >= 2, "map and reduce calls are both checked")
        #expect(run.replans.isEmpty)
        // The count is of the request as sent: its instructions, and the chunk inside its source frame.
        for ((instructions, prompt), call) in zip(backend.log.sent, run.metrics.calls) {
            #expect(call.tokensPlannedByBackend)
            #expect(call.tokensPlanned == count(instructions, prompt))
        }
    }

    @Test func overflowsThatNeverStopAreBounded() async throws {
        let backend = FakeBackend(behaviour: { _, _, _ in
            throw GenerationError.contextOverflow(ContextOverflow(dialect: .apple, promptTokens: nil, contextWindow: nil))
        })
        await #expect(throws: SummariserError.self) {
            _ = try await engine(backend).summarise(Fakes.text(paragraphs: 10))
        }
        #expect(backend.log.prompts.count == 4)  // the first try and three replans
    }

    @Test(arguments: [
        GenerationError.refusal(explanation: "I can't help with that."),
        .guardrailViolation("unsafe"),
        .unsupportedLanguage("xx"),
        .transport("connection reset", status: 502)
    ])
    func aFailedCallStopsTheRunWithItsError(error: GenerationError) async throws {
        let backend = FakeBackend(behaviour: { n, _, prompt in
            if n == 1 { throw error }
            return Fakes.summaryJSON(for: prompt, request: n)
        })
        await #expect(throws: SummariserError.generation(error, call: 1)) {
            _ = try await engine(backend).summarise(Fakes.text(paragraphs: 20))
        }
        #expect(backend.log.prompts.count == 2)
    }

    @Test func anUnreadableAnswerIsRetriedOnceInAFreshSession() async throws {
        let backend = FakeBackend(behaviour: { n, _, prompt in n == 0 ? "{\"headline\": \"cut off" : Fakes.summaryJSON(for: prompt, request: n) })
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 3))
        #expect(run.metrics.calls.map(\.attempt) == [1, 2])
        #expect(run.metrics.calls[0].failure == .decodingFailure("the JSON answer is incomplete or malformed: {\"headline\": \"cut off"))
        #expect(backend.log.sessions == 2)
        #expect(run.summary.headline == "Part 1")
    }

    @Test func aSecondUnreadableAnswerStopsTheRun() async throws {
        let backend = FakeBackend(behaviour: { _, _, _ in "{\"headline\": \"cut off" })
        await #expect(throws: SummariserError.generation(.decodingFailure("the JSON answer is incomplete or malformed: {\"headline\": \"cut off"), call: 1)) {
            _ = try await engine(backend).summarise(Fakes.text(paragraphs: 3))
        }
        #expect(backend.log.prompts.count == 2)
    }

    @Test func cancellationStopsTheRunPromptly() async throws {
        let backend = FakeBackend(pieces: 20, delay: .milliseconds(50), behaviour: Fakes.stub)
        let engine = try engine(backend)
        let text = Fakes.text(paragraphs: 40)
        let task = Task { try await engine.summarise(text) }
        try await Task.sleep(for: .milliseconds(300))
        let clock = ContinuousClock()
        let cancelledAt = clock.now
        task.cancel()
        await #expect(throws: SummariserError.cancelled) { _ = try await task.value }
        // A hang guard, not a timing: the uncancelled run makes dozens of 1 s calls.
        #expect(clock.now - cancelledAt < .seconds(60))
        let requests = backend.log.prompts.count
        try await Task.sleep(for: .milliseconds(200))
        #expect(backend.log.prompts.count == requests, "no call starts after cancellation")
        #expect(requests < 4)
    }

    @Test func metricsTimeEveryCall() async throws {
        let backend = FakeBackend(pieces: 4, delay: .milliseconds(30), reportsUsage: true, behaviour: Fakes.stub)
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 12))
        for call in run.metrics.calls {
            let ttft = try #require(call.timeToFirstToken)
            #expect(ttft >= .milliseconds(30))
            #expect(call.totalTime >= ttft)
            #expect(call.totalTime >= .milliseconds(120))
            #expect(call.tokensSentReported)
            #expect(call.tokensSent == 1000 + call.index)
            #expect(call.tokensReceived == 50)
            #expect(call.tokensPlanned > 0)
            #expect(call.charactersReceived > 0)
            #expect((call.charactersPerSecond ?? 0) > 0)
        }
        #expect(run.metrics.tokensSent == run.metrics.calls.reduce(0) { $0 + 1000 + $1.index })
        #expect(run.metrics.totalTime >= run.metrics.callTime)
    }

    @Test func withoutReportedUsageTheProfileCounts() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 3))
        let call = try #require(run.metrics.calls.first)
        #expect(!call.tokensSentReported)
        #expect(call.tokensSent == call.tokensPlanned)
        #expect(call.tokensReceived == (try Tokenizer.named("cl100k_base")).count(Fakes.summaryJSON(for: backend.log.prompts[0], request: 0)))
    }

    @Test func theBackendsSmallerWindowWins() async throws {
        let backend = FakeBackend(window: 600, behaviour: Fakes.stub)
        let run = try await engine(backend, window: 4096).summarise(Fakes.text(paragraphs: 20))
        #expect(run.window == 600)
        #expect(run.levels[0].plan.budget.window == 600)
    }

    @Test func theFinalCallStreamsAGrowingSummary() async throws {
        let backend = FakeBackend(pieces: 8, behaviour: Fakes.stub)
        let seen = CallLog()
        let run = try await engine(backend).summarise(Fakes.text(paragraphs: 20)) { event in
            if case let .snapshot(_, isFinal, partial) = event, isFinal { seen.add(partial.text) }
        }
        let texts = seen.entries
        #expect(texts.count >= 4)
        for (a, b) in zip(texts, texts.dropFirst()) { #expect(b.hasPrefix(a)) }
        #expect(texts.last == run.summary.text)
    }

    @Test func summariesThatDoNotShrinkStopTheReduce() async throws {
        let long = String(repeating: "A point that goes on and on without end. ", count: 12)
        let backend = FakeBackend(behaviour: { _, _, _ in Summary(headline: "Long", points: [long, long + "2", long + "3"]).json })
        await #expect(throws: SummariserError.self) {
            _ = try await engine(backend, reserve: 400).summarise(Fakes.text(paragraphs: 20))
        }
    }
}
