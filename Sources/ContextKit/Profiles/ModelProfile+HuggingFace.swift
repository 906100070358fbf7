import Foundation

extension ModelProfile {
    /// The profile of a Hugging Face model folder (or its `tokenizer_config.json`):
    /// its `tokenizer.json`, its context length (`config.json`'s
    /// `max_position_embeddings`, else `model_max_length`), and the overheads
    /// its chat template adds, measured as for a GGUF (`init(gguf:)`).
    ///
    /// - Parameter contextWindow: the window when the folder gives none (the user's `--window`).
    /// - Throws: `ProfileError.modelFile` when the folder has no readable
    ///   tokenizer, no window and none is given, or a template that cannot render.
    public init(huggingFace url: URL, contextWindow: Int? = nil) throws {
        let config: HuggingFaceConfig
        do { config = try HuggingFaceConfig(url) } catch {
            throw ProfileError.modelFile(path: url.path, reason: "\(error)")
        }
        guard FileManager.default.fileExists(atPath: config.tokenizerURL.path) else {
            throw ProfileError.modelFile(path: url.path, reason: "the folder has no tokenizer.json (only fast tokenizers are read)")
        }
        var provenance: [String] = []
        let window: Int
        if let given = contextWindow {
            window = given
            provenance.append("window from --window")
        } else if let (length, source) = config.contextLength {
            window = length
            provenance.append("window from \(source)")
        } else {
            throw ProfileError.modelFile(path: url.path, reason: "it gives no context length (config.json max_position_embeddings or model_max_length); give it with --window N")
        }
        var overheads = Overheads()
        if config.chatTemplate == nil {
            provenance.append("overheads 0: tokenizer_config.json has no chat_template")
        } else {
            do {
                overheads = try .init(measuredBy: try PromptPredictor(huggingFace: config.folder))
                provenance.append("overheads from tokenizer_config.json chat_template")
            } catch {
                throw ProfileError.modelFile(path: url.path, reason: "its chat template cannot be rendered (\(error)); give another profile with -m")
            }
        }
        self.init(name: config.folder.lastPathComponent, summary: "Hugging Face model folder",
                  contextWindow: window, tokenizer: .file(config.tokenizerURL.path), overheads: overheads)
        self.provenance = provenance
    }
}
