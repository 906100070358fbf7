import Foundation
import Testing
import ContextKit
@testable import Summariser

/// `SummaryEngine.prepare()`: one fresh session made and prewarmed ahead of
/// the request, used by the next run's first call and never again.
@Suite struct PrepareTests {
    func engine(_ backend: FakeBackend) throws -> SummaryEngine {
        try SummaryEngine(backend: backend, configuration: .init(profile: Fakes.profile, responseReserve: 150))
    }

    /// Waits (a hang guard, not a timing) until the log holds `entry`.
    func waitFor(_ entry: String, in log: CallLog) async throws {
        for _ in 0..<2000 where !log.entries.contains(entry) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(log.entries.contains(entry), "never logged \(entry): \(log.entries)")
    }

    @Test func prepareMakesAndPrewarmsOneSessionWithTheMapInstructions() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        #expect(!engine.isPrepared)
        #expect(engine.prepare())
        #expect(engine.isPrepared)
        #expect(backend.log.sessions == 1)
        try await waitFor("prewarm s1", in: backend.log)
        // The first call is a map call: its session has the map instructions.
        _ = try await engine.summarise(Fakes.text(paragraphs: 1))
        #expect(backend.log.sent.map(\.instructions) == [engine.configuration.mapInstructions])
    }

    @Test func prepareIsIdempotent() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        #expect(engine.prepare())
        #expect(!engine.prepare())
        #expect(!engine.prepare())
        #expect(backend.log.sessions == 1)
        try await waitFor("prewarm s1", in: backend.log)
        #expect(backend.log.entries.filter { $0.hasPrefix("prewarm") } == ["prewarm s1"])
    }

    @Test func theNextRunsFirstCallUsesThePreparedSession() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        engine.prepare()
        let run = try await engine.summarise(Fakes.text(paragraphs: 1))
        #expect(run.metrics.calls.count == 1)
        #expect(backend.log.sessions == 1, "the run made no session of its own")
        #expect(backend.log.entries.contains("start s1 r0"))
        #expect(!engine.isPrepared)
    }

    @Test func thePreparedSessionIsNeverReusedAfterItAnswered() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        engine.prepare()
        _ = try await engine.summarise(Fakes.text(paragraphs: 1))
        _ = try await engine.summarise(Fakes.text(paragraphs: 1))
        #expect(!backend.log.entries.contains { $0.hasPrefix("REUSED") })
        #expect(backend.log.entries.filter { $0.hasPrefix("start") } == ["start s1 r0", "start s2 r1"])
        // Preparing again after the run makes a new one, for the run after.
        #expect(engine.prepare())
        _ = try await engine.summarise(Fakes.text(paragraphs: 1))
        #expect(backend.log.entries.contains("start s3 r2"))
        #expect(backend.log.sessions == 3)
    }

    @Test func onlyTheFirstCallOfAManyCallRunTakesIt() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        engine.prepare()
        let run = try await engine.summarise(Fakes.text(paragraphs: 20))
        #expect(run.metrics.calls.count > 2)
        #expect(backend.log.sessions == run.metrics.calls.count, "one session per call, the first the prepared one")
        #expect(backend.log.entries.contains("start s1 r0"))
        #expect(!backend.log.entries.contains { $0.hasPrefix("REUSED") })
    }

    @Test func aRunThatMakesNoCallLeavesItWaiting() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        engine.prepare()
        _ = try await engine.summarise("Too short to need a model.")
        #expect(engine.isPrepared)
        let unavailable = FakeBackend(available: .unavailable(.modelNotReady), behaviour: Fakes.stub)
        let waiting = try self.engine(unavailable)
        waiting.prepare()
        await #expect(throws: SummariserError.unavailable(.modelNotReady)) { _ = try await waiting.summarise(Fakes.text(paragraphs: 3)) }
        #expect(waiting.isPrepared)
        #expect(unavailable.log.prompts.isEmpty)
    }

    @Test func copiesOfTheEngineShareOnePreparedSession() async throws {
        let backend = FakeBackend(behaviour: Fakes.stub)
        let engine = try engine(backend)
        let copy = engine
        engine.prepare()
        #expect(copy.isPrepared)
        #expect(!copy.prepare())
        _ = try await copy.summarise(Fakes.text(paragraphs: 1))
        #expect(!engine.isPrepared)
        #expect(backend.log.sessions == 1)
    }

    @Test func twoRunsAtOnceNeverShareIt() async throws {
        let backend = FakeBackend(delay: .milliseconds(10), behaviour: Fakes.stub)
        let engine = try engine(backend)
        engine.prepare()
        async let a = engine.summarise(Fakes.text(paragraphs: 1))
        async let b = engine.summarise(Fakes.text(paragraphs: 1))
        _ = try await (a, b)
        #expect(backend.log.sessions == 2)
        #expect(!backend.log.entries.contains { $0.hasPrefix("REUSED") })
    }
}
