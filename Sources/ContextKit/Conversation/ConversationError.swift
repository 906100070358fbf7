import ContextKitJSON

/// Why a conversation could not be read or rendered: each case says what is
/// wrong, where, and what to do.
public enum ConversationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The text is not JSON (line and column in the error).
    case invalidJSON(JSONParseError)
    /// The JSON is neither a request body with `messages` nor an array of messages.
    case notAConversation(reason: String)
    /// Message `index` (0-based) is malformed.
    case badMessage(index: Int, reason: String)
    /// Message `index` has a role no chat API accepts.
    case unknownRole(index: Int, role: String)
    /// The `tools` list is not a list of function definitions with JSON Schema parameters.
    case badTools(reason: String)
    /// The model's chat template failed on this conversation.
    case templateFailed(reason: String)

    /// The message a user reads.
    public var description: String {
        switch self {
        case .invalidJSON(let e):
            return "not valid JSON: \(e) (a conversation is a JSON request body {\"messages\": [...]} or an array of messages)"
        case .notAConversation(let reason):
            return "not a conversation: \(reason); expected {\"messages\": [{\"role\": \"user\", \"content\": \"...\"}]} or a bare array of such messages"
        case let .badMessage(index, reason):
            return "messages[\(index)]: \(reason)"
        case let .unknownRole(index, role):
            return "messages[\(index)]: unknown role \"\(role)\"; use one of \(ChatMessage.Role.allCases.map(\.rawValue).joined(separator: ", "))"
        case .badTools(let reason):
            return "tools: \(reason)"
        case .templateFailed(let reason):
            return "the model's chat template cannot render this conversation: \(reason)"
        }
    }
}
