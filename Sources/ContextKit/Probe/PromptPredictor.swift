/// Predicts the prompt tokens a chat server charges for a conversation: the
/// model's chat template rendered as the server renders it, then tokenized
/// with special tokens recognised, plus the beginning-of-sequence token when
/// the vocabulary asks for one — what llama.cpp's server does.
public struct PromptPredictor: Sendable {
    /// The model's tokenizer; special tokens in the rendered prompt count as one token each.
    public let tokenizer: Tokenizer
    /// The model's chat template.
    public let template: ChatTemplate
    /// The text of the beginning-of-sequence token, given to the template as `bos_token`.
    public let bosToken: String
    /// The text of the end-of-sequence token, given to the template as `eos_token`.
    public let eosToken: String
    /// Whether the server puts a BOS token before the rendered prompt.
    public let addsBOS: Bool

    /// A predictor from its parts; `init(gguf:)` reads them all from a model file.
    public init(tokenizer: Tokenizer, template: ChatTemplate, bosToken: String, eosToken: String, addsBOS: Bool) {
        self.tokenizer = tokenizer
        self.template = template
        self.bosToken = bosToken
        self.eosToken = eosToken
        self.addsBOS = addsBOS
    }

    /// The prompt text the template renders, with the assistant turn opened.
    ///
    /// - Throws: `ChatTemplateError` when the template fails to render
    ///   (an unknown filter, `raise_exception`).
    public func renderedPrompt(_ messages: [ChatTemplate.Message]) throws -> String {
        try template.render(messages: messages, addGenerationPrompt: true, bosToken: bosToken, eosToken: eosToken)
    }

    /// Predicted `usage.prompt_tokens` for `messages`: the rendered prompt's
    /// exact count with special tokens recognised, plus one for the BOS token
    /// when `addsBOS`.
    ///
    /// - Throws: `ChatTemplateError`, as `renderedPrompt` does.
    public func promptTokens(_ messages: [ChatTemplate.Message]) throws -> Int {
        let prompt = try renderedPrompt(messages)
        // llama.cpp adds the BOS token in front even when the template already wrote
        // its text (it warns about the double BOS, and charges both).
        return try tokenizer.count(prompt, allowedSpecial: .all) + (addsBOS ? 1 : 0)
    }
}
