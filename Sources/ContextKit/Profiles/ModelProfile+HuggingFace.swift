import ContextKitJSON
import Foundation
import TokenKit

extension ModelProfile {
    /// The profile of a Hugging Face model folder (or of a `tokenizer.json`
    /// with the folder's other files beside it), read from its files: the
    /// tokenizer from `tokenizer.json`; the window from `config.json`'s
    /// `max_position_embeddings` (or `n_positions`, also under `text_config`),
    /// else `tokenizer_config.json`'s `model_max_length` when it is a real
    /// length; the overheads from `chat_template` (in `tokenizer_config.json`
    /// or `chat_template.jinja`) rendered and counted as `PromptPredictor(huggingFace:)`
    /// does, which is how `apply_chat_template` and the servers built on
    /// `transformers` count a chat (the template writes any BOS; nothing is
    /// added), and, for a model without a template (an embedding model), the
    /// special tokens the post-processor puts around every input (`[CLS]`
    /// and `[SEP]`, `Tokenizer.inputSpecials`). The files are each read
    /// once: `tokenizer.json` by TokenKit only. `provenance` says where each
    /// number came from.
    ///
    /// - Parameters:
    ///   - url: the model folder, or its `tokenizer.json`.
    ///   - contextWindow: the window to use instead of the files' (the user's `--window`).
    /// - Throws: `ProfileError.modelFile` when the folder has no
    ///   `tokenizer.json`, neither `config.json` nor `tokenizer_config.json`,
    ///   a file that is not valid JSON, no window and no `contextWindow`, or a
    ///   chat template that cannot be rendered.
    public init(huggingFace url: URL, contextWindow: Int? = nil) throws {
        let model = try HuggingFaceModelFolder(url)
        let folder = model.url, tokenizerURL = model.tokenizerURL
        let config = model.config, tokenizerConfig = model.tokenizerConfig
        guard config != nil || tokenizerConfig != nil else {
            throw ProfileError.modelFile(
                path: tokenizerURL.path,
                reason: "there is no config.json or tokenizer_config.json beside it, so nothing gives a window or a template (to count with the tokenizer alone, use -e FILE)")
        }

        var provenance: [String] = []
        let window: Int
        let textConfig = config?["text_config"]
        let positionKeys = ["max_position_embeddings", "n_positions"]
        if let given = contextWindow {
            window = given
            provenance.append("window from --window")
        } else if let (key, length) = positionKeys.lazy.compactMap({ k in config?[k]?.intValue.map { (k, $0) } }).first(where: { $0.1 > 0 }) {
            window = length
            provenance.append("window from config.json \(key)")
        } else if let (key, length) = positionKeys.lazy.compactMap({ k in textConfig?[k]?.intValue.map { (k, $0) } }).first(where: { $0.1 > 0 }) {
            window = length
            provenance.append("window from config.json text_config.\(key)")
        } else if let length = tokenizerConfig?["model_max_length"]?.doubleValue, length >= 1, length <= Self.saneModelMaxLength {
            window = Int(length)
            provenance.append("window from tokenizer_config.json model_max_length")
        } else {
            throw ProfileError.modelFile(
                path: folder.path,
                reason: "neither config.json (max_position_embeddings) nor tokenizer_config.json (model_max_length) gives a context window; give it with --window N")
        }

        let tokenizer: Tokenizer
        do {
            tokenizer = try Tokenizer.load(contentsOf: tokenizerURL)
        } catch {
            throw ProfileError.modelFile(path: tokenizerURL.path, reason: "\(error)")
        }
        let overheads: Overheads
        if let (template, source) = model.chatTemplate {
            do {
                overheads = try Overheads(measuredBy: PromptPredictor(model, tokenizer: tokenizer, template: template))
                provenance.append("overheads from \(source)")
            } catch {
                throw ProfileError.modelFile(path: folder.path, reason: "its chat template cannot be rendered (\(error)); give another profile with -m")
            }
        } else if tokenizer.inputSpecials.count > 0 {
            let specials = tokenizer.inputSpecials
            overheads = .init(perRequest: specials.count)
            let around = (specials.leading + ["…"] + specials.trailing).joined(separator: " ")
            provenance.append("overheads \(specials.count): no chat template; the post-processor adds \(around) around each input")
        } else {
            overheads = .init()
            provenance.append("overheads 0: no chat_template in tokenizer_config.json and no special tokens around the input")
        }
        let summary = [config?["model_type"]?.stringValue, config?["architectures"]?.elements?.first?.stringValue].compactMap { $0 }
        self.init(
            name: folder.lastPathComponent,
            summary: (["Hugging Face model folder"] + summary).joined(separator: ", "),
            contextWindow: window, tokenizer: .file(tokenizerURL.path), overheads: overheads)
        self.provenance = provenance
    }

    /// Transformers writes `model_max_length` as 1e30 when a model sets none.
    private static let saneModelMaxLength = 100_000_000.0
}
