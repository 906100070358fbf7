import ContextKitJSON

/// A conversation rendered with a model's chat template and tokenized as the
/// server tokenizes the prompt: where each message sits in the text and in
/// the tokens, what the tool definitions add, and what belongs to no message.
struct TemplatedConversation {
    let predictor: PromptPredictor
    let conversation: Conversation

    /// The prompt for `messages` (the conversation's tools passed to the
    /// template when `tools`), the assistant's turn opened when `opened`.
    /// As llama.cpp's server does: a conversation that ends with an assistant
    /// message is a prefill (the messages before it with the turn opened, then
    /// its text, left open for the model to continue).
    func render(_ messages: [ChatMessage], tools: Bool, opened: Bool) throws(ConversationError) -> String {
        if opened, let last = messages.last, last.role == .assistant {
            return try renderTemplate(Array(messages.dropLast()), tools: tools, opened: true) + last.content
        }
        return try renderTemplate(messages, tools: tools, opened: opened)
    }

    private func renderTemplate(_ messages: [ChatMessage], tools: Bool, opened: Bool) throws(ConversationError) -> String {
        var extra: [String: TemplateValue] = ["messages": .array(messages.map(Self.value))]
        if tools && !conversation.tools.isEmpty { extra["tools"] = .array(conversation.tools.map(Self.value)) }
        do {
            return try predictor.template.render(messages: [], addGenerationPrompt: opened, bosToken: predictor.bosToken,
                                                 eosToken: predictor.eosToken, extra: extra)
        } catch let error as ChatTemplateError {
            throw .templateFailed(reason: error.message)
        } catch {
            throw .templateFailed(reason: "\(error)")
        }
    }

    /// The prompt's tokens, special-token text recognised as the server does.
    private func tokens(_ prompt: String) throws(ConversationError) -> [Token] {
        var prompt = prompt
        do {
            return try prompt.withUTF8 { try predictor.tokenizer.tokens(utf8: $0, allowedSpecial: .all) }
        } catch {
            throw .templateFailed(reason: "the rendered prompt cannot be tokenized: \(error)")
        }
    }

    func count() throws(ConversationError) -> ConversationCount {
        let messages = conversation.messages
        let full = try render(messages, tools: true, opened: true)
        // Messages are placed in the prompt without tools, so a tool block the
        // template writes into the first message is priced as tools, not as that message.
        let bare = conversation.tools.isEmpty ? full : try render(messages, tools: false, opened: true)
        let bos = predictor.addsBOS ? 1 : 0
        let fullCount = try tokens(full).count + bos
        let bareTokens = try tokens(bare)
        let bareBytes = Array(bare.utf8)

        // Message k spans from the end of the first k messages' rendering to the
        // end of the first k + 1: templates render a conversation prefix by prefix.
        var ends: [Int] = []
        var isPrefix = true
        for k in 0...messages.count {
            // A prefilled last message ends where the prompt ends.
            let part = k == messages.count && messages.last?.role == .assistant
                ? bareBytes : Array(try render(Array(messages[..<k]), tools: false, opened: false).utf8)
            if part.count > bareBytes.count || !bareBytes.starts(with: part) || (ends.last.map { part.count < $0 } ?? false) {
                // A template that writes its default system prompt when there are no
                // messages (it reads messages[0]) places nothing: the first message starts the prompt.
                if k == 0 { ends.append(0); continue }
                isPrefix = false
                break
            }
            ends.append(part.count)
        }
        var counted: [ConversationCount.Message] = []
        var notes: [String] = []
        if isPrefix {
            var index = 0
            for (k, m) in messages.enumerated() {
                let span = ends[k]..<ends[k + 1]
                while index < bareTokens.count && bareTokens[index].bytes.lowerBound < span.lowerBound { index += 1 }
                let first = index
                while index < bareTokens.count && bareTokens[index].bytes.lowerBound < span.upperBound { index += 1 }
                counted.append(.init(index: k, role: m.role, tokens: index - first, firstToken: first + bos, promptBytes: span))
            }
        } else {
            // A template that renders a prefix differently (it looks ahead, or
            // ends a conversation its own way): each message is what it adds to the count.
            var before = try tokens(render([], tools: false, opened: false)).count
            for (k, m) in messages.enumerated() {
                let now = k == messages.count - 1 ? bareTokens.count : try tokens(render(Array(messages[...k]), tools: false, opened: false)).count
                counted.append(.init(index: k, role: m.role, tokens: now - before, firstToken: before + bos, promptBytes: nil))
                before = now
            }
            notes.append("the template renders a shorter conversation differently, so each message is what it adds to the count, with no place in the prompt")
        }
        let tools = fullCount - (bareTokens.count + bos)
        let overhead = bareTokens.count + bos - counted.reduce(0) { $0 + $1.tokens }
        if !conversation.tools.isEmpty && !predictor.template.source.contains("tools") {
            notes.append("the model's chat template does not use tools, so they add nothing to this prompt (a server may add its own tool instructions)")
        }
        return ConversationCount(messages: counted, tools: tools, overhead: overhead,
                                 overheadSource: (bos == 1 ? "the BOS token, " : "") + "what the template writes outside the messages (the opened assistant turn)", isEstimate: false,
                                 method: "the model's chat template, then its tokenizer with special tokens recognised" + (bos == 1 ? ", BOS added" : ""),
                                 notes: notes, renderedPrompt: full)
    }

    /// A message as the template sees it: `role` and `content`, and `name`,
    /// `tool_calls`, `tool_call_id` when the message has them.
    /// llama.cpp's server gives a `developer` message to the template as `system`.
    static func value(_ m: ChatMessage) -> TemplateValue {
        var members: [(String, TemplateValue)] = [("role", .string(m.role == .developer ? "system" : m.role.rawValue)), ("content", .string(m.content))]
        if let name = m.name { members.append(("name", .string(name))) }
        if let calls = m.toolCalls { members.append(("tool_calls", value(calls))) }
        if let id = m.toolCallID { members.append(("tool_call_id", .string(id))) }
        return .object(members)
    }

    /// JSON as the template's Python objects.
    static func value(_ json: OrderedJSON) -> TemplateValue {
        switch json {
        case .null: return .none
        case .bool(let b): return .bool(b)
        case .number(let text): return Int(text).map(TemplateValue.int) ?? .double(Double(text) ?? 0)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(value))
        case .object(let members): return .object(members.map { ($0.key, value($0.value)) })
        }
    }
}
