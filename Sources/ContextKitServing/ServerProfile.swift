import ContextKit
import Foundation

/// The profile to plan with for an OpenAI-compatible server when no profile
/// is named, so a plan is made for the model the server runs: the model's
/// GGUF (given by the caller, or the path llama.cpp's `/props` reports when it
/// is readable here) gives its exact tokenizer, chat template and the
/// server's window; a llama.cpp server whose file is elsewhere counts each
/// call itself (`/apply-template` + `/tokenize`); any other server gets the
/// fallback profile, and `source` says why.
package struct ServerProfile: Sendable {
    /// How each call's prompt is counted before it is sent.
    package enum Counting: Sendable {
        /// Not at all: the profile's count is trusted.
        case none
        /// By the model's own tokenizer and chat template, on this machine.
        case predictor(PromptPredictor)
        /// By the server's `/apply-template` and `/tokenize` (llama.cpp), once per call.
        case server
    }

    /// Where the profile came from: what a tool tells its user.
    package enum Source: Equatable, Sendable {
        /// The model file the caller gave (`path` as given), with the server's
        /// window when it reports one (else the file's trained window).
        case givenFile(path: String, serverWindow: Int?)
        /// The model file the server reports in `/props`, readable here.
        case serverFile(path: String, serverWindow: Int?)
        /// A llama.cpp server whose model file is not readable here (or that
        /// does not say where it is): the fallback profile for planning, every
        /// call counted by the server.
        case llamaCppCounting(profile: String, modelPath: String?)
        /// A server that does not say what it runs: the fallback profile.
        case unknownServer(profile: String)
    }

    /// Why no profile could be chosen (the fallback's own errors pass through as they are).
    package enum Failure: Error {
        /// The model file the caller gave does not exist or cannot be read.
        case givenFileNotReadable(path: String)
        /// The model file could not be read as a GGUF profile.
        case modelFile(path: String, underlying: any Error)
    }

    /// What to plan with.
    package var profile: ModelProfile
    /// How each call's prompt is counted before it is sent.
    package var counting: Counting
    /// Where the profile came from.
    package var source: Source

    /// Asks the server at `url` what it runs and chooses as `choose` does.
    ///
    /// - Parameters:
    ///   - serverModel: the model to ask `/v1/models` about, when the server serves several.
    ///   - gguf: the server's model file, given by the caller; wins over what the server reports.
    ///   - fallback: the profile to use when the model's own tokenizer is out of reach.
    package static func resolve(
        url: URL, apiKey: String?, serverModel: String?, gguf: String?,
        fallback: () throws -> ModelProfile
    ) async throws -> ServerProfile {
        let client = OpenAICompatibleClient(baseURL: url, apiKey: apiKey, timeout: 10)
        let info = await client.serverModel(model: serverModel)
        return try choose(for: info, gguf: gguf, fallback: fallback)
    }

    /// The policy, on what the server said: the given file, else the server's
    /// file when readable here, else the fallback profile with the server's
    /// window, counted by the server when it is llama.cpp's.
    package static func choose(
        for info: ServerModel, gguf: String?,
        fallback: () throws -> ModelProfile
    ) throws -> ServerProfile {
        if let gguf {
            guard FileManager.default.isReadableFile(atPath: gguf) else { throw Failure.givenFileNotReadable(path: gguf) }
            return try fromFile(
                URL(fileURLWithPath: gguf), window: info.contextWindow,
                source: .givenFile(path: gguf, serverWindow: info.contextWindow))
        }
        if let file = info.localModelFile {
            return try fromFile(
                file, window: info.contextWindow,
                source: .serverFile(path: file.path, serverWindow: info.contextWindow))
        }
        var profile = try fallback()
        if let n = info.contextWindow { profile.contextWindow = n }
        if info.isLlamaCpp {
            return ServerProfile(
                profile: profile, counting: .server,
                source: .llamaCppCounting(profile: profile.name, modelPath: info.modelPath))
        }
        return ServerProfile(profile: profile, counting: .none, source: .unknownServer(profile: profile.name))
    }

    /// The profile and exact counting of a GGUF model file.
    private static func fromFile(_ file: URL, window: Int?, source: Source) throws -> ServerProfile {
        let profile: ModelProfile
        do { profile = try ModelProfile(gguf: file, contextWindow: window, windowSource: "the server's /props") } catch {
            throw Failure.modelFile(path: file.path, underlying: error)
        }
        let counting: Counting = (try? PromptPredictor(gguf: file)).map { .predictor($0) } ?? .server
        return ServerProfile(profile: profile, counting: counting, source: source)
    }
}
