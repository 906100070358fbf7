import ContextKit
import ContextKitServing
import Foundation
import Render
import ToolSupport

/// `ctxkit summarise` and `ctxkit plan` with `--url` and no `-m` plan for the
/// model the server runs; `ServerProfile` (ContextKitServing) chooses the
/// profile (for summarise through `SummariserSetup`), and this says the
/// choice and its failures in the commands' words.
extension ServerProfile {
    /// `resolve`, its failures as the command reports them.
    static func resolveForCommand(
        url: URL, apiKey: String?, serverModel: String?, gguf: String?,
        fallback: () throws -> ModelProfile
    ) async throws -> ServerProfile {
        try await reportingFailures {
            try await resolve(url: url, apiKey: apiKey, serverModel: serverModel, gguf: gguf, fallback: fallback)
        }
    }

    /// `body`'s result; a `Failure` of the profile resolution it makes
    /// (`resolve`, or a library entry point that calls it, such as
    /// `SummariserSetup.make`) as the command reports it; other errors as they are.
    static func reportingFailures<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch Failure.givenFileNotReadable(let path) {
            throw CommandFailure("--gguf \(path): no such file, or not readable")
        } catch Failure.modelFile(_, let error) {
            throw CommandFailure("\(error)")
        }
    }

    /// Ends the command with exit status 5 when nothing answers at `url`:
    /// `plan` once planned for gpt-4o's window and `summarise` ran against a
    /// closed port as if the server had merely not said what it runs.
    static func requireReachable(_ url: URL, apiKey: String?) async throws {
        if let failure = await OpenAICompatibleClient(baseURL: url, apiKey: apiKey, timeout: 10).unreachable() {
            throw CommandFailure(
                "--url \(url.absoluteString): \(failure)",
                exitCode: .serverUnreachable)
        }
    }
}

extension ServerProfile.Source {
    /// Where the profile came from, for the user.
    var text: String {
        func window(_ n: Int?) -> String {
            n.map { "the server's window (\(NumberFormat.grouped($0)) tokens)" } ?? "the file's trained window"
        }
        switch self {
        case let .givenFile(path, serverWindow):
            return "\(path) (--gguf): its tokenizer and chat template, \(window(serverWindow))"
        case let .serverFile(path, serverWindow):
            return "the server's model file \(path) (from /props): its tokenizer and chat template, \(window(serverWindow))"
        case let .llamaCppCounting(profile, modelPath):
            let whereFile = modelPath.map { "its model file \($0) is not readable here" } ?? "it does not say where its model file is"
            return
                "\(profile) for planning (\(whereFile); give it with --gguf FILE for exact plans), every call counted by the server's /apply-template and /tokenize before it is sent"
        case let .unknownServer(profile):
            return "\(profile): the server does not say what it runs (no llama.cpp /props); name the model's profile with -m, or its GGUF with --gguf"
        }
    }
}
