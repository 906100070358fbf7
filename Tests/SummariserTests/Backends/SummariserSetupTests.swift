import ContextKit
import ContextKitServing
import Foundation
import Testing
import TestSupport
@testable import Summariser
@testable import SummariserServing

/// What `ctxkit summarise` (and an app offering the same choice) asks for,
/// built by the library: a user's sampling choices mapped to one mode, the
/// backend configured as asked, and the profile chosen for a server only
/// when none was named.
@Suite struct SummariserSetupTests {
    static let profile = Fakes.profile

    @Test func eachSamplingChoiceMapsToItsModeAndTheRestPassThrough() throws {
        #expect(try SamplingOptions(greedy: false, topK: nil, topP: nil, temperature: nil, seed: nil) == SamplingOptions())
        #expect(try SamplingOptions(greedy: true, topK: nil, topP: nil, temperature: nil, seed: nil) == SamplingOptions(mode: .greedy))
        #expect(try SamplingOptions(greedy: false, topK: 40, topP: nil, temperature: nil, seed: nil) == SamplingOptions(mode: .topK(40)))
        #expect(try SamplingOptions(greedy: false, topK: nil, topP: 0.9, temperature: nil, seed: nil) == SamplingOptions(mode: .probabilityThreshold(0.9)))
        let full = try SamplingOptions(greedy: false, topK: 8, topP: nil, temperature: 0.7, seed: 42)
        #expect(full == SamplingOptions(mode: .topK(8), temperature: 0.7, seed: 42))
        #expect(full.maximumResponseTokens == nil)  // the engine's reserve sets it
    }

    @Test func choosingTwoSamplingModesIsRefused() {
        #expect(throws: SamplingOptions.ConflictingModes(modes: [.greedy, .topK(5)])) {
            try SamplingOptions(greedy: true, topK: 5, topP: nil, temperature: nil, seed: nil)
        }
        #expect(throws: SamplingOptions.ConflictingModes(modes: [.topK(5), .probabilityThreshold(0.5)])) {
            try SamplingOptions(greedy: false, topK: 5, topP: 0.5, temperature: 0.2, seed: nil)
        }
    }

    @Test func theExtractiveBackendPlansWithTheProfileAsGivenAndTheChosenSampling() async throws {
        let sampling = SamplingOptions(mode: .greedy, seed: 7)
        for profile in [SummariserSetup.Profile.named(Self.profile), .fallback(Self.profile)] {
            let setup = try await SummariserSetup.make(backend: .extractive, profile: profile, responseReserve: 200, sampling: sampling)
            #expect(setup.backend is ExtractiveBackend)
            #expect(setup.profile == Self.profile)
            #expect(setup.profileSource == nil)
            #expect(setup.configuration.options == sampling)
            #expect(setup.configuration.responseReserve == 200)
            let engine = try setup.engine()
            #expect(engine.configuration.options == sampling && engine.configuration.profile == Self.profile)
        }
    }

    @Test func aNamedProfileGoesToTheServerAsGivenWithoutAskingIt() async throws {
        let server = try LocalHTTPServer.json(["/props": #"{"default_generation_settings":{"n_ctx":3000},"model_path":"/nowhere/model.gguf"}"#])
        let sampling = SamplingOptions(mode: .probabilityThreshold(0.8), temperature: 0.3)
        var asked = SummariserSetup.Server(baseURL: server.url)
        asked.model = "smol"
        asked.apiKey = "key"
        asked.timeout = 42
        let setup = try await SummariserSetup.make(backend: .openAICompatible(asked), profile: .named(Self.profile), responseReserve: nil, sampling: sampling)
        let backend = try #require(setup.backend as? OpenAICompatibleBackend)
        #expect(backend.configuration.baseURL == server.url)
        #expect(backend.configuration.model == "smol" && backend.configuration.apiKey == "key")
        #expect(backend.configuration.requestTimeout == 42 && backend.configuration.totalTimeout == 42)
        guard case .none = backend.configuration.promptCounting else { Issue.record("counted: \(backend.configuration.promptCounting)"); return }
        #expect(setup.profile == Self.profile && setup.profileSource == nil)
        #expect(setup.configuration.options == sampling && setup.configuration.responseReserve == nil)
        #expect(server.requests.isEmpty)
    }

    @Test func aServersTimeoutIsTenMinutesUnlessGiven() {
        let server = SummariserSetup.Server(baseURL: URL(string: "http://127.0.0.1:8080")!)
        #expect(server.timeout == 600 && server.model == nil && server.apiKey == nil && server.gguf == nil)
    }

    @Test func withoutANamedProfileTheServerDecidesTheWindowAndCountsEachCall() async throws {
        let server = try LocalHTTPServer.json(["/props": #"{"default_generation_settings":{"n_ctx":3000},"model_path":"/nowhere/model.gguf"}"#])
        let setup = try await SummariserSetup.make(
            backend: .openAICompatible(.init(baseURL: server.url)), profile: .fallback(Self.profile), responseReserve: 100, sampling: .greedy)
        #expect(setup.profile.name == Self.profile.name)
        #expect(setup.profile.contextWindow == 3000)
        #expect(setup.profileSource == .llamaCppCounting(profile: Self.profile.name, modelPath: "/nowhere/model.gguf"))
        let backend = try #require(setup.backend as? OpenAICompatibleBackend)
        #expect(backend.configuration.requestTimeout == 600 && backend.configuration.totalTimeout == 600)
        guard case .server = backend.configuration.promptCounting else { Issue.record("counted: \(backend.configuration.promptCounting)"); return }
        #expect(setup.configuration.options == .greedy && setup.configuration.responseReserve == 100)
    }

    @Test func aGivenModelFileThatIsMissingFailsTheSetup() async throws {
        let server = try LocalHTTPServer.json([:])
        var asked = SummariserSetup.Server(baseURL: server.url)
        asked.gguf = "/nowhere/model.gguf"
        await #expect {
            _ = try await SummariserSetup.make(backend: .openAICompatible(asked), profile: .fallback(Self.profile), responseReserve: nil, sampling: .init())
        } throws: { error in
            guard case ServerProfile.Failure.givenFileNotReadable(path: "/nowhere/model.gguf") = error else { return false }
            return true
        }
    }
}
