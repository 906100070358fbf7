import Foundation
import ToolSupport

/// What the server options default to, read from the environment one way
/// for every command (`summarise`, `plan`, `probe`): the OpenAI clients'
/// variables, where a variable set to nothing counts as unset.
enum ServerEnvironment {
    /// llama-server's address when it is started with no `--host`/`--port`.
    static let defaultBaseURL = URL(string: "http://127.0.0.1:8080")!

    /// `--api-key` when given, else `$OPENAI_API_KEY`; nil sends no credentials.
    static func apiKey(given: String?) -> String? {
        given ?? variable("OPENAI_API_KEY")
    }

    /// `--url` when given, else `$OPENAI_BASE_URL` (checked as `--url` is),
    /// else `defaultBaseURL`.
    static func baseURL(given: URL?, tool: String) throws -> URL {
        if let given { return given }
        guard let text = variable("OPENAI_BASE_URL") else { return defaultBaseURL }
        guard let url = ValueParser<URL>.serverURL.parse(text) else {
            throw UsageError(tool: tool, "$OPENAI_BASE_URL wants \(ValueParser<URL>.serverURL.expected), not '\(text)'; set it to one, or give --url")
        }
        return url
    }

    private static func variable(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
