import ContextKitJSON

/// A conversation as users hold it: an OpenAI-style request body
/// (`{"messages": [...], "tools": [...]}`) or a bare array of messages,
/// read with ContextKit's one JSON reader.
///
/// `content` may be a string, null (an assistant turn that only calls
/// tools) or a list of parts; text parts (`{"type": "text", "text": ...}`)
/// are joined with a line feed, as llama.cpp's server joins them for a
/// template that takes plain strings. Other parts (images, audio) are refused:
/// what they cost is not text.
public struct Conversation: Equatable, Sendable {
    /// The messages, in order.
    public var messages: [ChatMessage]
    /// The request's tool definitions (`tools`, or the older `functions`), as written; empty when none.
    public var tools: [OrderedJSON]

    /// A conversation from its parts.
    public init(messages: [ChatMessage], tools: [OrderedJSON] = []) {
        self.messages = messages
        self.tools = tools
    }

    /// Reads a conversation from JSON text.
    ///
    /// - Throws: `ConversationError.invalidJSON` with the line and column of
    ///   malformed JSON; `.notAConversation`, `.badMessage`, `.unknownRole` or
    ///   `.badTools` naming what is wrong and where.
    public init(json text: String) throws(ConversationError) {
        let json: OrderedJSON
        do { json = try JSONParser.parse(text) } catch { throw .invalidJSON(error) }
        try self.init(json: json)
    }

    /// Reads a conversation from JSON bytes (UTF-8); see `init(json:)`.
    public init(json bytes: [UInt8]) throws(ConversationError) {
        let json: OrderedJSON
        do { json = try JSONParser.parse(bytes) } catch { throw .invalidJSON(error) }
        try self.init(json: json)
    }

    /// Reads a conversation from parsed JSON; see `init(json:)`.
    public init(json: OrderedJSON) throws(ConversationError) {
        let items: [OrderedJSON]
        var tools: [OrderedJSON] = []
        switch json {
        case .array(let elements):
            items = elements
        case .object:
            guard let messages = json["messages"] else {
                throw .notAConversation(reason: "the object has no \"messages\"")
            }
            guard let elements = messages.elements else {
                throw .notAConversation(reason: "\"messages\" is \(messages.kindName), not an array")
            }
            items = elements
            if let list = json["tools"] ?? json["functions"] {
                guard let elements = list.elements else { throw .badTools(reason: "\"tools\" is \(list.kindName), not an array") }
                tools = elements
            }
        default:
            throw .notAConversation(reason: "the document is \(json.kindName)")
        }
        self.init(messages: try items.enumerated().map { i, item throws(ConversationError) in try Self.message(item, index: i) }, tools: tools)
        try validateTools()
    }

    /// Checks each tool is a function with a name and JSON Schema parameters,
    /// through the same reader `schema-cost` uses for tool lists.
    private func validateTools() throws(ConversationError) {
        guard !tools.isEmpty else { return }
        do { _ = try SchemaDocument(json: .array(tools), format: .tools) } catch { throw .badTools(reason: "\(error)") }
    }

    private static func message(_ item: OrderedJSON, index: Int) throws(ConversationError) -> ChatMessage {
        guard case .object = item else { throw .badMessage(index: index, reason: "a message is an object with \"role\" and \"content\", not \(item.kindName)") }
        guard let roleValue = item["role"] else { throw .badMessage(index: index, reason: "no \"role\"") }
        guard let roleName = roleValue.stringValue else { throw .badMessage(index: index, reason: "\"role\" is \(roleValue.kindName), not a string") }
        guard let role = ChatMessage.Role(rawValue: roleName) else { throw .unknownRole(index: index, role: roleName) }
        let toolCalls = item["tool_calls"].flatMap { $0 == .null ? nil : $0 }
        if let toolCalls, toolCalls.elements == nil {
            throw .badMessage(index: index, reason: "\"tool_calls\" is \(toolCalls.kindName), not an array")
        }
        let content = try text(of: item["content"], index: index, mayBeAbsent: toolCalls != nil)
        func string(_ key: String) throws(ConversationError) -> String? {
            guard let value = item[key], value != .null else { return nil }
            guard let s = value.stringValue else { throw .badMessage(index: index, reason: "\"\(key)\" is \(value.kindName), not a string") }
            return s
        }
        return ChatMessage(role: role, content: content, name: try string("name"), toolCalls: toolCalls, toolCallID: try string("tool_call_id"))
    }

    private static func text(of content: OrderedJSON?, index: Int, mayBeAbsent: Bool) throws(ConversationError) -> String {
        switch content {
        case .string(let s)?:
            return s
        case .null?, nil:
            if mayBeAbsent { return "" }
            throw .badMessage(index: index, reason: "no \"content\" (a string, or a list of text parts)")
        case .array(let parts)?:
            var texts: [String] = []
            for (k, part) in parts.enumerated() {
                guard case .object = part else { throw .badMessage(index: index, reason: "content[\(k)] is \(part.kindName), not a part object") }
                let type = part["type"]?.stringValue ?? "text"
                guard type == "text" else {
                    throw .badMessage(index: index, reason: "content[\(k)] is a \"\(type)\" part; only text parts can be counted")
                }
                guard let t = part["text"]?.stringValue else { throw .badMessage(index: index, reason: "content[\(k)] has no \"text\" string") }
                texts.append(t)
            }
            return texts.joined(separator: "\n")
        case let other?:
            throw .badMessage(index: index, reason: "\"content\" is \(other.kindName); use a string or a list of text parts")
        }
    }
}

extension Conversation {
    /// The conversation as a request body: `{"messages": [...]}` with `tools` when it has any.
    public var json: OrderedJSON {
        let messages: [OrderedJSON] = messages.map { m in
            var members = [JSONMember("role", .string(m.role.rawValue)), JSONMember("content", .string(m.content))]
            if let name = m.name { members.append(JSONMember("name", .string(name))) }
            if let calls = m.toolCalls { members.append(JSONMember("tool_calls", calls)) }
            if let id = m.toolCallID { members.append(JSONMember("tool_call_id", .string(id))) }
            return .object(members)
        }
        var body = [JSONMember("messages", .array(messages))]
        if !tools.isEmpty { body.append(JSONMember("tools", .array(tools))) }
        return .object(body)
    }
}
