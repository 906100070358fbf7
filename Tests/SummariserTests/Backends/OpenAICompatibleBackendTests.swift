import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
import ContextKit
@testable import Summariser
@testable import SummariserServing

/// The HTTP backend against `scripts/fake-openai-server.py`, one scenario per test.
@Suite struct OpenAICompatibleBackendTests {
    func backend(_ scenario: String, apiKey: String? = nil, totalTimeout: TimeInterval = 30) throws -> OpenAICompatibleBackend {
        OpenAICompatibleBackend(
            configuration: .init(
                baseURL: try TestServers.fakeURL(), model: scenario, apiKey: apiKey,
                totalTimeout: totalTimeout, retryDelay: .milliseconds(10)))
    }

    func answer(_ scenario: String, prompt: String = "Some text.", options: SamplingOptions = .init(), totalTimeout: TimeInterval = 30) async throws -> [ResponseSnapshot] {
        let session = try backend(scenario, totalTimeout: totalTimeout).makeSession(instructions: "Summarise.")
        var snapshots: [ResponseSnapshot] = []
        for try await s in session.streamResponse(to: GenerationRequest(prompt: prompt, schema: Summary.schema, options: options)) {
            snapshots.append(s)
        }
        return snapshots
    }

    func failure(_ scenario: String, prompt: String = "Some text.", totalTimeout: TimeInterval = 30) async throws -> GenerationError? {
        do {
            _ = try await answer(scenario, prompt: prompt, totalTimeout: totalTimeout)
            return nil
        } catch {
            return try #require(error as? GenerationError)
        }
    }

    /// The body of the last request the fake received with this user message.
    func sentRequest(prompt: String) async throws -> [String: Any] {
        var components = URLComponents(url: try TestServers.fakeURL().appendingPathComponent("requests"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "prompt", value: prompt)]
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aStreamBecomesCumulativeSnapshotsWithUsageAndTimings() async throws {
        let snapshots = try await answer("ok")
        // Newest-only buffering: a busy consumer may see fewer snapshots than the server sent events.
        #expect(!snapshots.isEmpty)
        for (a, b) in zip(snapshots, snapshots.dropFirst()) { #expect(b.content.hasPrefix(a.content)) }
        let last = try #require(snapshots.last)
        #expect(last.isComplete)
        #expect(try Summary.decode(last.content).headline == "Keepers tend the northern light")
        #expect(last.usage == ResponseUsage(promptTokens: 321, completionTokens: 45, promptMilliseconds: 210.5, generationMilliseconds: 380.25))
    }

    @Test func theRequestCarriesInstructionsSchemaAndSampling() async throws {
        _ = try await answer("ok", prompt: "Sampling check.", options: SamplingOptions(mode: .topK(40), temperature: 0.7, seed: 42, maximumResponseTokens: 123))
        let body = try await sentRequest(prompt: "Sampling check.")
        let messages = try #require(body["messages"] as? [[String: String]])
        #expect(messages == [["role": "system", "content": "Summarise."], ["role": "user", "content": "Sampling check."]])
        #expect(body["stream"] as? Bool == true)
        #expect(body["max_tokens"] as? Int == 123)
        #expect(body["top_k"] as? Int == 40)
        #expect(body["temperature"] as? Double == 0.7)
        #expect(body["seed"] as? Int == 42)
        #expect((body["stream_options"] as? [String: Bool])?["include_usage"] == true)
        let format = try #require(body["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let schema = try #require((format["json_schema"] as? [String: Any])?["schema"] as? [String: Any])
        #expect(schema["required"] as? [String] == ["headline", "points"])
    }

    @Test func greedyIsTemperatureZero() async throws {
        _ = try await answer("ok", prompt: "Greedy check.", options: .greedy)
        let body = try await sentRequest(prompt: "Greedy check.")
        #expect(body["temperature"] as? Double == 0)
        #expect(body["top_k"] == nil)
    }

    @Test func serverErrorsAreRetriedWithBackoff() async throws {
        let snapshots = try await answer("flaky", prompt: "Retry me \(UUID()).")
        #expect(snapshots.last?.isComplete == true)
    }

    @Test func persistentServerErrorsEndAsTransport() async throws {
        #expect(try await failure("always-500") == .transport("internal error", status: 500))
    }

    @Test func failuresAreTheirGenerationErrorCases() async throws {
        #expect(try await failure("overflow") == .contextOverflow(ContextOverflow(dialect: .llamaCpp, promptTokens: 3012, contextWindow: 2048)))
        #expect(try await failure("openai-overflow") == .contextOverflow(ContextOverflow(dialect: .openAI, promptTokens: 9000, contextWindow: 8192)))
        #expect(try await failure("unauthorised") == .unavailable(.unauthorised(url: try TestServers.fakeURL().absoluteString)))
        #expect(try await failure("loading") == .unavailable(.modelNotLoaded(model: "loading", detail: "Loading model")))
        #expect(try await failure("bad-schema") == .unsupportedGuide("JSON schema conversion failed: unsupported keyword"))
        #expect(try await failure("refusal") == .refusal(explanation: "I can't summarise this."))
        #expect(try await failure("filtered") == .guardrailViolation("the server's content filter stopped the answer"))
        #expect(try await failure("length") == .decodingFailure("the answer reached its token limit before the JSON was complete"))
        #expect(try await failure("window-full") == .contextOverflow(ContextOverflow(dialect: .llamaCpp, promptTokens: 2000, completionTokens: 512, contextWindow: 2048)))
        #expect(try await failure("stream-error") == .transport("slot crashed", status: 500))
        #expect(try await failure("cut") == .transport("the server closed the stream before the answer was complete", status: nil))
    }

    @Test func theTotalTimeOutEndsASilentStream() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = try await failure("slow", totalTimeout: 1)
        #expect(error == .transport("no complete answer within 1 s (the total time-out)", status: nil))
        // The slow scenario holds its stream for 300 s: this catches a time-out that never fires.
        #expect(clock.now - start < .seconds(120))
    }

    @Test func cancellingTheConsumerStopsTheRequest() async throws {
        let backend = try backend("slow")
        let task = Task {
            var count = 0
            for try await _ in backend.makeSession(instructions: "").streamResponse(to: GenerationRequest(prompt: "x")) { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(500))
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        _ = try? await task.value
        // The slow scenario holds its stream for 300 s: this catches a request that outlives its consumer.
        #expect(clock.now - start < .seconds(120))
    }

    @Test func availabilityTellsWhatToDo() async throws {
        #expect(try await backend("fake-model").availability() == .available)
        #expect(
            try await backend("other-model").availability()
                == .unavailable(
                    .modelNotLoaded(
                        model: "other-model",
                        detail:
                            "the server serves fake-model, ok, flaky, always-500, loading, overflow, openai-overflow, unauthorised, bad-schema, refusal, filtered, length, window-full, stream-error, cut, slow"
                    )))
        #expect(try await backend("fake-model", apiKey: "bad").availability() == .unavailable(.unauthorised(url: try TestServers.fakeURL().absoluteString)))
        let nowhere = OpenAICompatibleBackend(configuration: .init(baseURL: URL(string: "http://127.0.0.1:1")!))
        guard case .unavailable(.unreachable(let url, _)) = await nowhere.availability() else {
            Issue.record("a closed port should be unreachable")
            return
        }
        #expect(url == "http://127.0.0.1:1")
    }

    @Test func theWindowComesFromTheServer() async throws {
        #expect(try await backend("ok").contextSize() == 2048)
    }

    @Test("a base URL ending in /v1 reaches the same server", arguments: ["/v1", "/v1/"])
    func baseURLWithV1(suffix: String) async throws {
        let backend = OpenAICompatibleBackend(configuration: .init(baseURL: URL(string: try TestServers.fakeURL().absoluteString + suffix)!, model: "ok"))
        #expect(await backend.availability() == .available)
        #expect(await backend.contextSize() == 2048, "/props is beside /v1, not under it")
        var last: ResponseSnapshot?
        for try await snapshot in backend.makeSession(instructions: "Summarise.").streamResponse(to: GenerationRequest(prompt: "Via /v1.", schema: Summary.schema)) {
            last = snapshot
        }
        #expect(try Summary.decode(last?.content ?? "").headline == "Keepers tend the northern light")
    }

    @Test func theEngineRunsOverHTTP() async throws {
        let engine = try SummaryEngine(backend: backend("ok"), configuration: .init(profile: Fakes.profile))
        let run = try await engine.summarise(Fakes.text(paragraphs: 12))
        #expect(run.summary.headline == "Keepers tend the northern light")
        #expect(run.window == 1024)
        #expect(run.metrics.calls.allSatisfy { $0.tokensSentReported && $0.tokensSent == 321 })
        #expect(run.metrics.calls.allSatisfy { ($0.timeToFirstToken ?? .zero) > .zero })
    }
}
