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
        try render(messages, tools: tools, opened: opened, layout: false).text
    }

    /// `render(messages, tools: false, opened: true)`, and where the template's
    /// loop over the messages placed each of them: `boundaries[k]`, k in
    /// 0...messages.count, where the first k messages end (a prefilled last
    /// message ends where the prompt ends), nil when the template has no such
    /// loop (`ChatTemplateLayout`).
    func renderWithLayout(_ messages: [ChatMessage]) throws(ConversationError) -> (text: String, boundaries: [Int]?) {
        try render(messages, tools: false, opened: true, layout: true)
    }

    private func render(_ messages: [ChatMessage], tools: Bool, opened: Bool, layout: Bool) throws(ConversationError) -> (text: String, boundaries: [Int]?) {
        if opened, let last = messages.last, last.role == .assistant {
            let (text, boundaries) = try renderTemplate(Array(messages.dropLast()), tools: tools, opened: true, layout: layout)
            let prompt = text + last.content
            return (prompt, boundaries.map { $0 + [prompt.utf8.count] })
        }
        return try renderTemplate(messages, tools: tools, opened: opened, layout: layout)
    }

    private func renderTemplate(_ messages: [ChatMessage], tools: Bool, opened: Bool, layout: Bool) throws(ConversationError) -> (text: String, boundaries: [Int]?) {
        let template = predictor.template, extra = variables(messages, tools: tools)
        return try Self.converting { () throws -> (text: String, boundaries: [Int]?) in
            if layout {
                let (text, found) = try template.renderWithLayout(
                    messages: [], addGenerationPrompt: opened, bosToken: predictor.bosToken, eosToken: predictor.eosToken, extra: extra)
                return (text, found?.boundaries)
            }
            return (try template.render(messages: [], addGenerationPrompt: opened, bosToken: predictor.bosToken, eosToken: predictor.eosToken, extra: extra), nil)
        }
    }

    /// How long the prompt for `messages` is (no tools, the assistant's turn
    /// not opened), when it begins `bare`; nil when it does not. The rendering
    /// is compared with `bare` as it is written, never built: for one huge
    /// message it would be a second copy of the prompt.
    private func prefixLength(_ messages: [ChatMessage], of bare: String) throws(ConversationError) -> Int? {
        let template = predictor.template, extra = variables(messages, tools: false)
        return try Self.converting {
            try template.renderedLength(
                ifPrefixOf: bare, messages: [], addGenerationPrompt: false, bosToken: predictor.bosToken, eosToken: predictor.eosToken, extra: extra)
        }
    }

    /// The template's variables for `messages`, and the conversation's tools when `tools`.
    private func variables(_ messages: [ChatMessage], tools: Bool) -> [String: TemplateValue] {
        var extra: [String: TemplateValue] = ["messages": .array(messages.map(Self.value))]
        if tools && !conversation.tools.isEmpty { extra["tools"] = .array(conversation.tools.map(Self.value)) }
        return extra
    }

    /// `body`'s result, a rendering's error thrown as `ConversationError.templateFailed`.
    private static func converting<T>(_ body: () throws -> T) throws(ConversationError) -> T {
        do {
            return try body()
        } catch let error as ChatTemplateError {
            throw .templateFailed(reason: error.message)
        } catch {
            throw .templateFailed(reason: "\(error)")
        }
    }

    /// The tokens of `prompt`, special-token text recognised as the server
    /// does, given one by one (no array of them is built: a 100 MB message is
    /// 25 million tokens).
    private func forEachToken(_ prompt: String, _ body: (Token) -> Void) throws(ConversationError) {
        var prompt = prompt
        do {
            try prompt.withUTF8 { try predictor.tokenizer.forEachToken(utf8: $0, allowedSpecial: .all, body) }
        } catch {
            throw .templateFailed(reason: "the rendered prompt cannot be tokenized: \(error)")
        }
    }

    /// How many tokens `prompt` is, special-token text recognised.
    private func tokenCount(_ prompt: String) throws(ConversationError) -> Int {
        var count = 0
        try forEachToken(prompt) { _ in count += 1 }
        return count
    }

    /// The most messages for which the prefix renderings may all be made
    /// (`ends(byPrefixesOf:bare:)`, and each prefix tokenized for a template
    /// that renders a prefix differently): their cost grows as the square of
    /// the conversation, a few seconds at this size.
    static let prefixRenderingLimit = 256
    /// The most bytes those renderings may write in all, estimated as the
    /// messages times the prompt (a few long messages reach it before 256 of them).
    static let prefixRenderingBytes = 1 << 30
    /// Up to this many messages, every prefix checks the layout; beyond it,
    /// `checkpoints` picks a bounded number of them.
    static let checkAllPrefixesUpTo = 16

    /// Where the first k messages end in `bare`, for k in 0...messages.count,
    /// from rendering each prefix: nil when one is not a prefix of `bare` or
    /// ends before the one before it (a template that looks ahead). Each
    /// rendering is as long as the prefix, so this is quadratic in the conversation.
    func ends(byPrefixesOf messages: [ChatMessage], bare: String) throws(ConversationError) -> [Int]? {
        var ends: [Int] = []
        for k in 0...messages.count {
            // A prefilled last message ends where the prompt ends.
            let length = k == messages.count && messages.last?.role == .assistant ? bare.utf8.count : try prefixLength(Array(messages[..<k]), of: bare)
            guard let length, ends.last.map({ length >= $0 }) ?? true else {
                // A template that writes its default system prompt when there are no
                // messages (it reads messages[0]) places nothing: the first message starts the prompt.
                if k == 0 { ends.append(0); continue }
                return nil
            }
            ends.append(length)
        }
        return ends
    }

    /// The ends `ends(byPrefixesOf:bare:)` gives, from the layout the template
    /// recorded while rendering `bare` (`boundaries`), checked against the
    /// rendering of every prefix up to `checkAllPrefixesUpTo` messages and of
    /// the prefixes `checkpoints` picks beyond; nil when one disagrees. The
    /// checks are a bounded number of renderings, so this is linear in the conversation.
    func ends(byLayout boundaries: [Int], of messages: [ChatMessage], bare: String) throws(ConversationError) -> [Int]? {
        var ends = boundaries
        ends[0] = try prefixLength([], of: bare) ?? 0
        guard zip(ends, ends.dropFirst()).allSatisfy({ $0 <= $1 }), ends.last! <= bare.utf8.count else { return nil }
        let prefill = messages.last?.role == .assistant
        for k in Self.checkpoints(messages) where !(k == messages.count && prefill) {
            guard try prefixLength(Array(messages[..<k]), of: bare) == ends[k] else { return nil }
        }
        return ends
    }

    /// The prefixes (numbers of messages, 1 through all) whose renderings
    /// check a layout: all of them for a short conversation; for a long one,
    /// the first three and last three, and, for each kind of message (role,
    /// empty or not, tool calls, name, tool call id), the prefixes its first and
    /// last messages end, for each pair of roles in a row the prefix its first
    /// occurrence ends, and eight spread evenly: where a template that looks
    /// ahead (`loop.last`, the last role) renders a prefix differently. At most 48.
    static func checkpoints(_ messages: [ChatMessage]) -> [Int] {
        let n = messages.count
        guard n > checkAllPrefixesUpTo else { return n == 0 ? [] : Array(1...n) }
        var picked: [Int] = [1, 2, 3, n - 2, n - 1, n]
        var firstOfKind: [String: Int] = [:], lastOfKind: [String: Int] = [:], firstOfPair: [String: Int] = [:]
        for (i, m) in messages.enumerated() {
            let kind = "\(m.role.rawValue) \(m.content.isEmpty) \(m.toolCalls != nil) \(m.name != nil) \(m.toolCallID != nil)"
            if firstOfKind[kind] == nil { firstOfKind[kind] = i + 1 }
            lastOfKind[kind] = i + 1
            if i > 0 {
                let pair = messages[i - 1].role.rawValue + " " + m.role.rawValue
                if firstOfPair[pair] == nil { firstOfPair[pair] = i + 1 }
            }
        }
        picked += firstOfKind.values.sorted() + lastOfKind.values.sorted() + firstOfPair.values.sorted()
        picked += (1...8).map { n * $0 / 9 }
        var seen = Set<Int>()
        return Array(picked.filter { (1...n).contains($0) && seen.insert($0).inserted }.prefix(48)).sorted()
    }

    func count() throws(ConversationError) -> ConversationCount {
        let messages = conversation.messages
        // Messages are placed in the prompt without tools, so a tool block the
        // template writes into the first message is priced as tools, not as that message.
        let (bare, boundaries) = try renderWithLayout(messages)
        let full = conversation.tools.isEmpty ? bare : try render(messages, tools: true, opened: true)
        let bos = predictor.addsBOS ? 1 : 0
        let fullCount = (conversation.tools.isEmpty ? nil : try tokenCount(full))

        // Message k spans from the end of the first k messages' rendering to the
        // end of the first k + 1: templates render a conversation prefix by prefix.
        // The template's loop placed them while it rendered; a few prefixes check it.
        var notes: [String] = []
        let prefixesAffordable = messages.count <= Self.prefixRenderingLimit && messages.count * bare.utf8.count <= Self.prefixRenderingBytes
        var ends = try boundaries.flatMap { b throws(ConversationError) in try self.ends(byLayout: b, of: messages, bare: bare) }
        if ends == nil && prefixesAffordable { ends = try self.ends(byPrefixesOf: messages, bare: bare) }
        if ends == nil && !prefixesAffordable, var b = boundaries {
            // Too long to render every prefix: each message is what its turn of the template's loop wrote in the whole prompt.
            b[0] = min(b[0], b[1])
            ends = b
            notes.append(
                "the template renders a shorter conversation differently and the conversation is too long to render each of its \(messages.count) prefixes, so each message is what the template's loop wrote for it in the whole prompt"
            )
        }

        var counted: [ConversationCount.Message] = []
        var bareCount = 0
        if let ends {
            // The tokens that start before each end; a message's are those between its two ends.
            var below = [Int](repeating: 0, count: ends.count), next = 0
            try forEachToken(bare) { token in
                while next < ends.count && token.bytes.lowerBound >= ends[next] { below[next] = bareCount; next += 1 }
                bareCount += 1
            }
            for k in next..<ends.count { below[k] = bareCount }
            for (k, m) in messages.enumerated() {
                counted.append(.init(index: k, role: m.role, tokens: below[k + 1] - below[k], firstToken: below[k] + bos, promptBytes: ends[k]..<ends[k + 1]))
            }
        } else if prefixesAffordable {
            // A template that renders a prefix differently (it looks ahead, or
            // ends a conversation its own way): each message is what it adds to the count.
            bareCount = try tokenCount(bare)
            var before = try tokenCount(render([], tools: false, opened: false))
            for (k, m) in messages.enumerated() {
                let now = k == messages.count - 1 ? bareCount : try tokenCount(render(Array(messages[...k]), tools: false, opened: false))
                counted.append(.init(index: k, role: m.role, tokens: now - before, firstToken: before + bos, promptBytes: nil))
                before = now
            }
            notes.append("the template renders a shorter conversation differently, so each message is what it adds to the count, with no place in the prompt")
        } else {
            // No loop over the messages to place them, and too long to render each prefix.
            bareCount = try tokenCount(bare)
            var left = bareCount
            for (k, m) in messages.enumerated() {
                let tokens = min(left, try tokenCount(m.content))
                counted.append(.init(index: k, role: m.role, tokens: tokens, firstToken: bareCount - left + bos, promptBytes: nil))
                left -= tokens
            }
            notes.append(
                "the template renders a shorter conversation differently, does not loop over the messages, and the conversation is too long to render each of its \(messages.count) prefixes, so each message is its content's tokens and the template's framing is overhead"
            )
        }
        let tools = (fullCount ?? bareCount) - bareCount
        let overhead = bareCount + bos - counted.reduce(0) { $0 + $1.tokens }
        if !conversation.tools.isEmpty && !predictor.template.source.contains("tools") {
            notes.append("the model's chat template does not use tools, so they add nothing to this prompt (a server may add its own tool instructions)")
        }
        return ConversationCount(
            messages: counted, tools: tools, overhead: overhead,
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
