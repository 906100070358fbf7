import ContextKitJSON

/// Counts a conversation for a model the way the model is charged for it:
/// rendered with the model's chat template, or framed with the published
/// constants when the model has no public template (`ChatFraming`).
public struct ConversationCounter: Sendable {
    /// The model.
    public let profile: ModelProfile
    /// How the model frames a conversation.
    public let framing: ChatFraming
    /// The counting of plain text, shared with `schema-cost` (tokenizer and estimate).
    let text: SchemaCostSettings

    /// A counter for `profile`, counting with `tokenizer` (the profile's own
    /// by default) and the framing the profile implies unless one is given.
    ///
    /// - Parameters:
    ///   - profile: the model the conversation is sent to.
    ///   - tokenizer: the tokenizer to count text with; nil loads the
    ///     profile's. A model's chat template is always counted with the
    ///     model's own tokenizer.
    ///   - estimate: how counts are estimated; the profile's by default.
    ///   - framing: how the model frames a conversation; nil takes the one the profile implies.
    /// - Throws: `ConversationError.templateFailed` when the model's template
    ///   cannot be parsed; what loading the tokenizer throws.
    public init(profile: ModelProfile, tokenizer: Tokenizer? = nil, estimate: TokenEstimate?? = nil, framing: ChatFraming? = nil) throws {
        self.profile = profile
        // A template renders the model's own prompt, which only the model's
        // tokenizer counts (its special tokens): the template's predictor
        // shares the tokenizer only when it is the profile's, loaded here.
        let counting: Tokenizer, profiles: Tokenizer?
        if let tokenizer {
            (counting, profiles) = (tokenizer, nil)
        } else {
            counting = try profile.tokenizer.load()
            profiles = counting
        }
        self.framing = try framing ?? ChatFraming.inferred(for: profile, tokenizer: profiles)
        var estimated = profile
        if let estimate { estimated.estimate = estimate }
        self.text = SchemaCostSettings(profile: estimated, tokenizer: counting)
    }

    /// The tokenizer that counts.
    public var tokenizer: Tokenizer { text.tokenizer }

    /// The conversation's cost: per message, tools and overhead apart.
    ///
    /// - Throws: `ConversationError.templateFailed` naming what the template
    ///   could not do (an unsupported construct, its own `raise_exception`).
    public func count(_ conversation: Conversation) throws(ConversationError) -> ConversationCount {
        switch framing {
        case .template(let predictor):
            return try TemplatedConversation(predictor: predictor, conversation: conversation).count()
        case let .openAI(perMessage, perName, replyPriming):
            return openAICount(conversation, perMessage: perMessage, perName: perName, replyPriming: replyPriming)
        case .fixed(let overheads):
            return fixedCount(conversation, overheads: overheads)
        }
    }

    /// The prompt text the model's template renders for the conversation (the
    /// assistant turn opened); nil for a model counted by constants.
    public func renderedPrompt(_ conversation: Conversation) throws(ConversationError) -> String? {
        guard case .template(let predictor) = framing else { return nil }
        return try TemplatedConversation(predictor: predictor, conversation: conversation).render(conversation.messages, tools: true, opened: true)
    }

    // MARK: Counted by constants

    /// Tokens of the tool list as `schema-cost` prices it for this profile
    /// (OpenAI: the Cookbook's function constants; others: compact JSON and framing).
    private func toolTokens(_ tools: [OrderedJSON]) -> (tokens: Int, notes: [String]) {
        guard !tools.isEmpty, let document = try? SchemaDocument(json: .array(tools), format: .tools) else { return (0, []) }
        let report = SchemaCost(settings: text).report(for: document)
        return (report.totalTokens, report.notes)
    }

    private func openAICount(_ c: Conversation, perMessage: Int, perName: Int, replyPriming: Int) -> ConversationCount {
        let (tools, toolNotes) = toolTokens(c.tools)
        var notes = toolNotes
        var position = tools
        var messages: [ConversationCount.Message] = []
        for (i, m) in c.messages.enumerated() {
            // The Cookbook counts every value of the message: role, content, name (and one more for it).
            var tokens = perMessage + text.tokens(m.role.rawValue) + text.tokens(m.content)
            if let name = m.name { tokens += text.tokens(name) + perName }
            if let id = m.toolCallID { tokens += text.tokens(id) }
            if let calls = m.toolCalls {
                tokens += text.tokens(JSONWriter(style: .compact(escapingSlashes: false)).write(calls))
                if !notes.contains(where: { $0.hasPrefix("tool_calls") }) {
                    notes.append("tool_calls are not covered by the published method; counted as their compact JSON")
                }
            }
            messages.append(.init(index: i, role: m.role, tokens: tokens, firstToken: position, promptBytes: nil))
            position += tokens
        }
        return ConversationCount(
            messages: messages, tools: tools, overhead: replyPriming, overheadSource: "the reply priming", isEstimate: text.isEstimate,
            method: "OpenAI Cookbook num_tokens_from_messages: \(perMessage) per message, \(perName) per name, \(replyPriming) reply priming, \(profile.tokenizer)"
                + (c.tools.isEmpty ? "" : "; tools by num_tokens_for_tools"),
            notes: notes)
    }

    private func fixedCount(_ c: Conversation, overheads: ModelProfile.Overheads) -> ConversationCount {
        let (tools, toolNotes) = toolTokens(c.tools)
        var position = overheads.perRequest + tools
        var messages: [ConversationCount.Message] = []
        for (i, m) in c.messages.enumerated() {
            var tokens = overheads.perMessage + text.tokens(m.content)
            if let calls = m.toolCalls { tokens += text.tokens(JSONWriter(style: .compact(escapingSlashes: false)).write(calls)) }
            messages.append(.init(index: i, role: m.role, tokens: tokens, firstToken: position, promptBytes: nil))
            position += tokens
        }
        var method = "\(profile.name): \(overheads.perRequest) per request + \(overheads.perMessage) per message around each message's text"
        if let e = text.estimate { method = "≈ " + method + "; text estimated from \(profile.tokenizer) × \(e.factor) ±\(Int((e.errorBar * 100).rounded()))%" }
        var notes = toolNotes
        if !c.messages.isEmpty, overheads.perMessage == 0 {
            notes.append("\(profile.name) publishes no per-message framing (role markers); only the per-request \(overheads.perRequest) is added")
        }
        return ConversationCount(
            messages: messages, tools: tools, overhead: overheads.perRequest,
            overheadSource: "the per-request framing (Apple: the session's)", isEstimate: text.isEstimate,
            method: method, notes: notes)
    }
}
