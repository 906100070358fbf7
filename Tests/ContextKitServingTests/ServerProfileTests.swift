import ContextKit
import Foundation
import Testing
import TestSupport
import ContextKitServing

/// The profile chosen for a server when none is named: the given model file,
/// else the server's own file when readable here, else the fallback with the
/// server's window, counted by the server when it is llama.cpp's.
@Suite struct ServerProfileTests {
    /// A vocabulary-only GGUF: a tokenizer, no chat template, no context length.
    static let vocabulary = TestRepository.path("Tests/Fixtures/llama-vocab/ggml-vocab-phi-3.gguf").path

    static func fallback() throws -> ModelProfile { try ProfileCatalog.standard(extraFiles: [], environment: [:]).defaultProfile() }

    /// A server answering `routes[path]` with 200 and that JSON, anything else with 404.
    func server(_ routes: [String: String]) throws -> LocalHTTPServer { try LocalHTTPServer.json(routes) }

    @Test func aServerThatSaysNothingGetsTheFallbackUncounted() async throws {
        let server = try server([:])
        let fallback = try Self.fallback()
        let chosen = try await ServerProfile.resolve(url: server.url, apiKey: nil, serverModel: nil, gguf: nil, fallback: Self.fallback)
        #expect(chosen.profile.name == fallback.name)
        #expect(chosen.profile.contextWindow == fallback.contextWindow)
        #expect(chosen.source == .unknownServer(profile: fallback.name))
        guard case .none = chosen.counting else { Issue.record("counted: \(chosen.counting)"); return }
    }

    @Test func aLlamaCppServerWhoseFileIsElsewhereCountsEachCallWithItsWindow() async throws {
        let server = try server(["/props": #"{"default_generation_settings":{"n_ctx":3000},"model_path":"/nowhere/model.gguf"}"#])
        let fallback = try Self.fallback()
        let chosen = try await ServerProfile.resolve(url: server.url, apiKey: nil, serverModel: nil, gguf: nil, fallback: Self.fallback)
        #expect(chosen.profile.name == fallback.name)
        #expect(chosen.profile.contextWindow == 3000)
        #expect(chosen.source == .llamaCppCounting(profile: fallback.name, modelPath: "/nowhere/model.gguf"))
        guard case .server = chosen.counting else { Issue.record("counted: \(chosen.counting)"); return }
    }

    @Test func theServersOwnFileWhenReadableHereGivesTheProfileAtTheServersWindow() throws {
        let info = ServerModel(contextWindow: 2048, modelPath: Self.vocabulary, isLlamaCpp: true)
        let chosen = try ServerProfile.choose(
            for: info, gguf: nil,
            fallback: {
                Issue.record("fell back"); return try Self.fallback()
            })
        #expect(chosen.source == .serverFile(path: Self.vocabulary, serverWindow: 2048))
        #expect(chosen.profile.contextWindow == 2048)
        #expect(chosen.profile.tokenizer == .file(Self.vocabulary))
    }

    @Test func theGivenFileWinsOverTheServers() throws {
        let info = ServerModel(contextWindow: 4096, modelPath: "/nowhere/model.gguf", isLlamaCpp: true)
        let chosen = try ServerProfile.choose(
            for: info, gguf: Self.vocabulary,
            fallback: {
                Issue.record("fell back"); return try Self.fallback()
            })
        #expect(chosen.source == .givenFile(path: Self.vocabulary, serverWindow: 4096))
        #expect(chosen.profile.contextWindow == 4096)
    }

    @Test func aGivenFileThatCannotBeReadIsAFailureNotAFallback() throws {
        #expect {
            _ = try ServerProfile.choose(for: ServerModel(), gguf: "/nowhere/model.gguf", fallback: Self.fallback)
        } throws: { error in
            guard case ServerProfile.Failure.givenFileNotReadable(path: "/nowhere/model.gguf") = error else { return false }
            return true
        }
    }

    @Test func aGivenFileThatIsNotAModelSaysWhy() throws {
        let scratch = try TempDir()
        let path = try scratch.write("notes.txt", "not a model")
        #expect {
            _ = try ServerProfile.choose(for: ServerModel(contextWindow: 2048), gguf: path, fallback: Self.fallback)
        } throws: { error in
            guard case ServerProfile.Failure.modelFile(path: path, underlying: let underlying) = error else { return false }
            return "\(underlying)".contains("not a GGUF model")
        }
    }
}
