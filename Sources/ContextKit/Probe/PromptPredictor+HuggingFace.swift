import Foundation

extension PromptPredictor {
    /// The predictor for a Hugging Face model folder (or a file in it): its
    /// chat template (`HuggingFaceModelFolder.chatTemplate`), the `bos_token`
    /// and `eos_token` of `tokenizer_config.json`, and its `tokenizer.json`.
    /// No BOS is added: `apply_chat_template` tokenizes the rendered prompt
    /// without special tokens, the template writing any BOS itself.
    ///
    /// - Throws: `ChatTemplateError` when the folder cannot be read or has no
    ///   usable chat template; what `Tokenizer.load(contentsOf:)` throws.
    public init(huggingFace url: URL) throws {
        let folder: HuggingFaceModelFolder
        do { folder = try HuggingFaceModelFolder(url) } catch {
            throw ChatTemplateError(message: "\(error)")
        }
        guard let template = folder.chatTemplate else {
            throw ChatTemplateError(message: "\(folder.url.path) has no chat_template, so the prompt cannot be rendered")
        }
        try self.init(folder, tokenizer: try Tokenizer.load(contentsOf: folder.tokenizerURL), template: template.text)
    }

    /// The predictor for `folder` with its tokenizer already loaded: the one
    /// place that says a Hugging Face chat adds no BOS or EOS of its own.
    ///
    /// - Throws: `ChatTemplateError` when `template` cannot be parsed.
    init(_ folder: HuggingFaceModelFolder, tokenizer: Tokenizer, template: String) throws {
        self.init(
            tokenizer: tokenizer, template: try ChatTemplate(template),
            bosToken: folder.tokenText("bos_token") ?? "", eosToken: folder.tokenText("eos_token") ?? "", addsBOS: false)
    }
}
