import ContextKitJSON
import Foundation

/// What a model server said when a request did not fit its window: the
/// numbers it charged, read out of its error message.
public struct ContextOverflow: Equatable, Sendable {
    /// Which server's wording the message matched.
    public enum Dialect: String, Sendable, Codable {
        /// llama.cpp's `llama-server` (`exceed_context_size_error`, or older wording).
        case llamaCpp = "llama.cpp"
        /// OpenAI's API.
        case openAI = "OpenAI"
        /// vLLM's OpenAI-compatible server.
        case vLLM = "vLLM"
        /// Apple's Foundation Models (`exceededContextWindowSize`).
        case apple = "Apple"
    }

    /// Which server's wording the message matched.
    public let dialect: Dialect
    /// Tokens the server counted for the prompt (messages, template, schema), when it said.
    public let promptTokens: Int?
    /// Tokens requested for the completion, when it said.
    public let completionTokens: Int?
    /// The window the server enforces, when it said.
    public let contextWindow: Int?

    /// An overflow from its parts, in tokens; nil for what the server did not say.
    public init(dialect: Dialect, promptTokens: Int?, completionTokens: Int? = nil, contextWindow: Int?) {
        self.dialect = dialect
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.contextWindow = contextWindow
    }

    /// Reads an overflow out of an error body (JSON or plain text) from
    /// llama.cpp's server, OpenAI, vLLM or Apple's Foundation Models.
    /// Returns `nil` when the body is not a context overflow this parser knows;
    /// returns an overflow with `nil` numbers when the server said so without numbers.
    public static func parse(_ body: String) -> ContextOverflow? {
        let json = try? JSONParser.parse(body)
        let error = json?["error"]
        if let error, error["type"]?.stringValue == "exceed_context_size_error" {
            return ContextOverflow(
                dialect: .llamaCpp, promptTokens: error["n_prompt_tokens"]?.intValue,
                contextWindow: error["n_ctx"]?.intValue)
        }
        let message = error?["message"]?.stringValue ?? json?["message"]?.stringValue ?? json?["detail"]?.stringValue ?? body
        return parseMessage(message)
    }

    static func parseMessage(_ message: String) -> ContextOverflow? {
        // Apple: "Content contains 4,098 tokens, which exceeds the maximum allowed context size of 4,096."
        if let m = message.firstMatch(of: /Content contains ([\d,]+) tokens, which exceeds the maximum allowed context size of ([\d,]+)/) {
            return ContextOverflow(dialect: .apple, promptTokens: number(m.1), contextWindow: number(m.2))
        }
        // OpenAI and vLLM: "This model's maximum context length is N tokens. However, ..."
        if let m = message.firstMatch(of: /maximum context length is ([\d,]+) tokens/) {
            let window = number(m.1)
            if let r = message.firstMatch(of: /you requested ([\d,]+) tokens \(([\d,]+) in the messages, ([\d,]+) in the completion\)/) {
                let dialect: Dialect = message.contains("Please reduce the length of the messages or completion") ? .openAI : .vLLM
                return ContextOverflow(dialect: dialect, promptTokens: number(r.2), completionTokens: number(r.3), contextWindow: window)
            }
            if let r = message.firstMatch(of: /your messages resulted in ([\d,]+) tokens/) {
                return ContextOverflow(dialect: .openAI, promptTokens: number(r.1), contextWindow: window)
            }
            if let r = message.firstMatch(of: /your request has ([\d,]+) input tokens/) {
                return ContextOverflow(dialect: .vLLM, promptTokens: number(r.1), contextWindow: window)
            }
            if let r = message.firstMatch(of: /you requested ([\d,]+) tokens/) {
                return ContextOverflow(dialect: .vLLM, promptTokens: number(r.1), contextWindow: window)
            }
            return ContextOverflow(dialect: .openAI, promptTokens: nil, contextWindow: window)
        }
        // llama.cpp, older servers: "the request exceeds the available context size", with or
        // without "(N tokens, max M)"-style numbers.
        if message.contains("exceeds the available context size") || message.contains("input is too large to process") {
            let m = message.firstMatch(of: /\(([\d,]+) tokens?, max ([\d,]+)\)/)
            return ContextOverflow(dialect: .llamaCpp, promptTokens: m.flatMap { number($0.1) }, contextWindow: m.flatMap { number($0.2) })
        }
        if let m = message.firstMatch(of: /prompt is too long \(([\d,]+) tokens, max ([\d,]+)\)/) {
            return ContextOverflow(dialect: .llamaCpp, promptTokens: number(m.1), contextWindow: number(m.2))
        }
        return nil
    }

    private static func number(_ text: Substring) -> Int? { Int(text.filter { $0 != "," }) }
}
