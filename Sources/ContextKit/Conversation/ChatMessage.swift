import ContextKitJSON

/// One message of a conversation, as an OpenAI-style request holds it.
public struct ChatMessage: Equatable, Sendable {
    /// Who speaks: the roles an OpenAI-style request accepts.
    public enum Role: String, CaseIterable, Sendable {
        /// Instructions for the whole conversation.
        case system
        /// Instructions from the developer (OpenAI's newer name for `system`).
        case developer
        /// The person talking to the model.
        case user
        /// The model's earlier replies.
        case assistant
        /// The result of a tool call, answering an assistant's `tool_calls`.
        case tool
    }

    /// Who speaks.
    public var role: Role
    /// The message's text (text parts joined with a line feed, as llama.cpp's server joins them).
    public var content: String
    /// The participant's name (`name`), when given.
    public var name: String?
    /// The assistant's tool calls (`tool_calls`), as written; nil when absent.
    public var toolCalls: OrderedJSON?
    /// The call a tool message answers (`tool_call_id`).
    public var toolCallID: String?

    /// A message from its parts.
    public init(role: Role, content: String, name: String? = nil, toolCalls: OrderedJSON? = nil, toolCallID: String? = nil) {
        self.role = role
        self.content = content
        self.name = name
        self.toolCalls = toolCalls
        self.toolCallID = toolCallID
    }
}
