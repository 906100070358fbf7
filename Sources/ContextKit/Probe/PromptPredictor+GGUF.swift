import Foundation

extension PromptPredictor {
    /// The predictor for a GGUF model: its own tokenizer, chat template and
    /// BOS/EOS tokens, read from the file's header.
    ///
    /// - Throws: `ChatTemplateError` when the file has no chat template or
    ///   it cannot be parsed; `ModelFileError` or `TokenKitError` when the
    ///   file or its tokenizer cannot be read.
    public init(gguf url: URL) throws {
        try self.init(gguf: try GGUFFile(contentsOf: url))
    }

    /// The predictor for a GGUF model already open, so that a caller that
    /// read its header (`ModelProfile(gguf:)`, `ChatFraming.inferred(for:)`)
    /// does not map and parse the file a second time; `tokenizer` is the
    /// file's tokenizer when the caller has already loaded it.
    ///
    /// - Throws: `ChatTemplateError` when the file has no chat template or
    ///   it cannot be parsed; `TokenKitError` when its tokenizer cannot be built.
    public init(gguf file: GGUFFile, tokenizer: Tokenizer? = nil) throws {
        guard let source = file.chatTemplate else {
            throw ChatTemplateError(
                message: "\(URL(fileURLWithPath: file.path).lastPathComponent) has no tokenizer.chat_template, so the prompt a server builds cannot be predicted")
        }
        self.init(
            tokenizer: try tokenizer ?? file.tokenizer(), template: try ChatTemplate(source),
            bosToken: file.bosTokenID.flatMap(file.tokenText) ?? "",
            eosToken: file.eosTokenID.flatMap(file.tokenText) ?? "",
            addsBOS: file.addBOSToken)
    }
}
