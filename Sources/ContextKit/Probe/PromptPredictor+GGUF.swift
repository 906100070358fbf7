import Foundation

extension PromptPredictor {
    /// The predictor for a GGUF model: its own tokenizer, chat template and
    /// BOS/EOS tokens, read from the file's header.
    ///
    /// - Throws: `ChatTemplateError` when the file has no chat template or
    ///   it cannot be parsed; `ModelFileError` or `TokenKitError` when the
    ///   file or its tokenizer cannot be read.
    public init(gguf url: URL) throws {
        let file = try GGUFFile(contentsOf: url)
        guard let source = file.chatTemplate else {
            throw ChatTemplateError(message: "\(url.lastPathComponent) has no tokenizer.chat_template, so the prompt a server builds cannot be predicted")
        }
        self.init(
            tokenizer: try file.tokenizer(), template: try ChatTemplate(source),
            bosToken: file.bosTokenID.flatMap(file.tokenText) ?? "",
            eosToken: file.eosTokenID.flatMap(file.tokenText) ?? "",
            addsBOS: file.addBOSToken)
    }
}
