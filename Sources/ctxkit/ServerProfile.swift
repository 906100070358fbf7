import ContextKit
import ContextKitServing
import Foundation
import Render
import Summariser
import SummariserServing
import ToolSupport

/// The profile `ctxkit summarise` and `ctxkit plan` use for a server named
/// with `--url` and no `-m`, so the plan is made for the model the server
/// runs: the model's GGUF (`--gguf FILE`, or the path llama.cpp's `/props`
/// reports when it is readable here) gives its exact tokenizer, chat template
/// and the server's window; a llama.cpp server whose file is elsewhere counts
/// each call itself (`/apply-template` + `/tokenize`); any other server gets
/// the fallback profile, and `source` says why.
struct ServerProfile {
    /// What to plan with.
    var profile: ModelProfile
    /// How each call's prompt is counted before it is sent.
    var counting: OpenAICompatibleBackend.PromptCounting
    /// Where the profile came from, for the user.
    var source: String

    /// Asks the server at `url` what it runs and picks the profile as above.
    ///
    /// - Parameters:
    ///   - gguf: the model file given with `--gguf`, which wins over what the server reports.
    ///   - fallback: the profile to use when the model's own tokenizer is out of reach.
    static func resolve(url: URL, apiKey: String?, serverModel: String?, gguf: String?,
                        fallback: () throws -> ModelProfile) async throws -> ServerProfile {
        let client = OpenAICompatibleClient(baseURL: url, apiKey: apiKey, timeout: 10)
        let info = await client.serverModel(model: serverModel)
        let window = info.contextWindow.map { "the server's window (\(NumberFormat.grouped($0)) tokens)" } ?? "the file's trained window"
        if let gguf {
            guard FileManager.default.isReadableFile(atPath: gguf) else { throw CommandFailure("--gguf \(gguf): no such file, or not readable") }
            return try fromFile(URL(fileURLWithPath: gguf), window: info.contextWindow,
                                source: "\(gguf) (--gguf): its tokenizer and chat template, \(window)")
        }
        if let file = info.localModelFile {
            return try fromFile(file, window: info.contextWindow,
                                source: "the server's model file \(file.path) (from /props): its tokenizer and chat template, \(window)")
        }
        var profile = try fallback()
        if let n = info.contextWindow { profile.contextWindow = n }
        if info.isLlamaCpp {
            let whereFile = info.modelPath.map { "its model file \($0) is not readable here" } ?? "it does not say where its model file is"
            return ServerProfile(profile: profile, counting: .server,
                                 source: "\(profile.name) for planning (\(whereFile); give it with --gguf FILE for exact plans), every call counted by the server's /apply-template and /tokenize before it is sent")
        }
        return ServerProfile(profile: profile, counting: .none,
                             source: "\(profile.name): the server does not say what it runs (no llama.cpp /props); name the model's profile with -m, or its GGUF with --gguf")
    }

    /// Ends the command with exit status 5 when nothing answers at `url`:
    /// `plan` once planned for gpt-4o's window and `summarise` ran against a
    /// closed port as if the server had merely not said what it runs.
    static func requireReachable(_ url: URL, apiKey: String?) async throws {
        if let failure = await OpenAICompatibleClient(baseURL: url, apiKey: apiKey, timeout: 10).unreachable() {
            throw CommandFailure("--url \(url.absoluteString): \(failure)",
                                 exitCode: .serverUnreachable)
        }
    }

    /// The profile and exact counting of a GGUF model file.
    private static func fromFile(_ file: URL, window: Int?, source: String) throws -> ServerProfile {
        let profile: ModelProfile
        do { profile = try ModelProfile(gguf: file, contextWindow: window, windowSource: "the server's /props") } catch { throw CommandFailure("\(error)") }
        let counting: OpenAICompatibleBackend.PromptCounting = (try? PromptPredictor(gguf: file)).map { .predictor($0) } ?? .server
        return ServerProfile(profile: profile, counting: counting, source: source)
    }
}
