/// Predicts the prompt tokens a chat server charges for a conversation: the
/// model's chat template rendered as the server renders it, then tokenized
/// with special tokens recognised, plus the beginning-of-sequence token when
/// the vocabulary asks for one — what llama.cpp's server does.
public struct PromptPredictor: Sendable {
    public let tokenizer: Tokenizer
    public let template: ChatTemplate
    public let bosToken: String
    public let eosToken: String
    /// Whether the server puts a BOS token before the rendered prompt.
    public let addsBOS: Bool

    public init(tokenizer: Tokenizer, template: ChatTemplate, bosToken: String, eosToken: String, addsBOS: Bool) {
        self.tokenizer = tokenizer
        self.template = template
        self.bosToken = bosToken
        self.eosToken = eosToken
        self.addsBOS = addsBOS
    }

    /// The prompt text the template renders, with the assistant turn opened.
    public func renderedPrompt(_ messages: [ChatTemplate.Message]) throws -> String {
        try template.render(messages: messages, addGenerationPrompt: true, bosToken: bosToken, eosToken: eosToken)
    }

    /// Predicted `usage.prompt_tokens` for `messages`.
    public func promptTokens(_ messages: [ChatTemplate.Message]) throws -> Int {
        let prompt = try renderedPrompt(messages)
        // llama.cpp adds the BOS token in front even when the template already wrote
        // its text (it warns about the double BOS, and charges both).
        return try tokenizer.count(prompt, allowedSpecial: .all) + (addsBOS ? 1 : 0)
    }
}
