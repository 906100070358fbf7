import ContextKit
import ContextKitServing
import Foundation
import Summariser

/// A summariser as a user asks for one, built: the backend that writes the
/// summaries (the built-in extractive one, or an OpenAI-compatible server),
/// the profile the engine plans with (for a server and no profile named, the
/// model the server runs) and the engine's configuration.
///
/// `make(backend:profile:responseReserve:sampling:)` is the one place these
/// choices are made, for `ctxkit summarise` and for an app that offers the
/// same choice; `engine()` then gives the `SummaryEngine`. An app that only
/// summarises offline needs none of it: `ExtractiveBackend` and
/// `SummaryEngine` are in `Summariser`, which links no HTTP.
public struct SummariserSetup: Sendable {
    /// Who writes the summaries.
    public enum Backend: Sendable {
        /// `ExtractiveBackend`: offline and deterministic, no model needed.
        case extractive
        /// `OpenAICompatibleBackend` for the server described.
        case openAICompatible(Server)
    }

    /// An OpenAI-compatible server, as a user names it: its address, and
    /// whatever else is set after `init(baseURL:)`.
    public struct Server: Sendable {
        /// The server's base URL (`http://127.0.0.1:8080`; a trailing `/v1` is accepted).
        public var baseURL: URL
        /// Sent as the request's `model`; nil (the default) lets the server use the one it has loaded (llama-server).
        public var model: String?
        /// Sent as `Authorization: Bearer KEY`; nil (the default) sends no credentials.
        public var apiKey: String?
        /// Seconds one answer may take, including the silence while a local
        /// server reads a long prompt: both the backend's `requestTimeout` and
        /// its `totalTimeout`. 600 by default (a long prompt on a local CPU).
        public var timeout: TimeInterval = 600
        /// The server's model file (GGUF), to plan with its exact tokenizer and
        /// chat template when no profile is named; nil (the default): the path
        /// the server reports (llama.cpp's `/props`), when it is readable here.
        public var gguf: String?

        /// The server at `baseURL`, with no model, no key, a 600-second time-out and no model file.
        public init(baseURL: URL) {
            self.baseURL = baseURL
        }
    }

    /// The profile to plan with, and whether a server's own model may replace it.
    public enum Profile: Sendable {
        /// Named by the user: used as it is with every backend, and each call
        /// is counted with it.
        case named(ModelProfile)
        /// A default. With a server, the profile of the model the server runs
        /// replaces it: its GGUF (`Server.gguf`, else the file the server
        /// reports) gives the tokenizer, chat template and the server's window,
        /// counted exactly before each call; a llama.cpp server whose file is
        /// elsewhere keeps this profile at its window and counts each call
        /// itself; any other server keeps this profile. With the extractive
        /// backend it is used as it is.
        case fallback(ModelProfile)
    }

    /// The backend the engine calls.
    public let backend: any LanguageModelBackend
    /// What the engine plans with: the profile chosen, the response reserve
    /// and the sampling options; the rest are `SummaryEngine.Configuration`'s defaults.
    public let configuration: SummaryEngine.Configuration
    /// Where the profile came from when it was chosen for a server; nil when it was used as given.
    package let profileSource: ServerProfile.Source?

    /// The profile the engine plans with.
    public var profile: ModelProfile { configuration.profile }

    /// Chooses and builds the backend, and the profile and configuration the
    /// engine plans with. Only a server with a `.fallback` profile is asked
    /// anything (what it runs, its window); no backend is checked for
    /// availability (the engine does that when it runs).
    ///
    /// - Parameters:
    ///   - responseReserve: tokens kept for each answer, also its token limit;
    ///     nil for the profile's (see `SummaryEngine.Configuration`).
    ///   - sampling: how answers are sampled (`SamplingOptions(greedy:topK:topP:temperature:seed:)`
    ///     maps a user's separate choices).
    /// - Throws: only for a server with a `.fallback` profile
    ///   (`ServerProfile.Failure`): `Server.gguf` missing or not readable, or
    ///   the model file (that one, or the one the server reports) not
    ///   readable as a GGUF profile.
    public static func make(backend: Backend, profile: Profile, responseReserve: Int?, sampling: SamplingOptions) async throws -> SummariserSetup {
        let chosen: ModelProfile
        let source: ServerProfile.Source?
        let languageModel: any LanguageModelBackend
        switch backend {
        case .extractive:
            switch profile {
            case .named(let given), .fallback(let given): chosen = given
            }
            source = nil
            languageModel = ExtractiveBackend()
        case .openAICompatible(let server):
            var counting = OpenAICompatibleBackend.PromptCounting.none
            switch profile {
            case .named(let given):
                chosen = given
                source = nil
            case .fallback(let fallback):
                let resolved = try await ServerProfile.resolve(
                    url: server.baseURL, apiKey: server.apiKey, serverModel: server.model, gguf: server.gguf, fallback: { fallback })
                chosen = resolved.profile
                counting = OpenAICompatibleBackend.PromptCounting(resolved.counting)
                source = resolved.source
            }
            languageModel = OpenAICompatibleBackend(
                configuration: .init(
                    baseURL: server.baseURL, model: server.model, apiKey: server.apiKey,
                    requestTimeout: server.timeout, totalTimeout: server.timeout, promptCounting: counting))
        }
        return SummariserSetup(
            backend: languageModel,
            configuration: SummaryEngine.Configuration(profile: chosen, responseReserve: responseReserve, options: sampling),
            profileSource: source)
    }

    /// The engine for this backend and configuration; loads the profile's
    /// tokenizer (throws `TokenKitError` when it cannot).
    public func engine() throws -> SummaryEngine {
        try SummaryEngine(backend: backend, configuration: configuration)
    }
}
