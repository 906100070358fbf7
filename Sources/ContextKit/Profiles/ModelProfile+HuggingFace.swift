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
    /// or `chat_template.jinja`) with BOS and EOS as `add_bos_token` /
    /// `add_eos_token` or the post-processor say — what llama.cpp's converter
    /// reads — and, for a model without a template (an embedding model), the
    /// special tokens the post-processor puts around every input (`[CLS]`
    /// and `[SEP]`). `provenance` says where each number came from.
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
        guard let tokenizerFile = try HuggingFaceModelFolder.jsonFile(tokenizerURL) else {
            throw ProfileError.modelFile(path: tokenizerURL.path, reason: "it cannot be read")
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
        let special = SequenceSpecials(model, postProcessor: tokenizerFile["post_processor"])
        let overheads: Overheads
        if let (template, source) = model.chatTemplate {
            do {
                let predictor = PromptPredictor(
                    tokenizer: tokenizer, template: try ChatTemplate(template),
                    bosToken: special.bosText ?? "", eosToken: special.eosText ?? "", addsBOS: special.addsBOS)
                var measured = try Overheads(measuredBy: predictor)
                if special.addsEOS { measured.perRequest += 1 }
                overheads = measured
                provenance.append(
                    "overheads from \(source)" + (special.addsBOS ? " and the BOS token (\(special.bosSource))" : "")
                        + (special.addsEOS ? " and the EOS token (\(special.eosSource))" : ""))
            } catch {
                throw ProfileError.modelFile(path: folder.path, reason: "its chat template cannot be rendered (\(error)); give another profile with -m")
            }
        } else if special.count > 0 {
            overheads = .init(perRequest: special.count)
            provenance.append("overheads \(special.count): no chat template; \(special.countSource) around each input")
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

    /// BOS, EOS and the other special tokens put around one input, from
    /// `tokenizer_config.json` (`add_bos_token`, `add_eos_token`,
    /// `bos_token`, `eos_token`) and `tokenizer.json`'s post-processor.
    private struct SequenceSpecials {
        var bosText: String?
        var eosText: String?
        var addsBOS = false
        var addsEOS = false
        var bosSource = ""
        var eosSource = ""
        /// Tokens the post-processor adds to a single input.
        var count = 0
        var countSource = ""

        init(_ model: HuggingFaceModelFolder, postProcessor: OrderedJSON?) {
            let tokenizerConfig = model.tokenizerConfig
            bosText = model.tokenText("bos_token")
            eosText = model.tokenText("eos_token")
            // The special tokens of the single-input template, in order.
            var added: [String] = []
            var processors = [postProcessor].compactMap { $0 }
            if let steps = postProcessor?["processors"]?.elements { processors = steps }
            for p in processors {
                switch p["type"]?.stringValue {
                case "TemplateProcessing":
                    for piece in p["single"]?.elements ?? [] {
                        guard let id = piece["SpecialToken"]?["id"]?.stringValue else { continue }
                        let n = p["special_tokens"]?[id]?["ids"]?.elements?.count ?? 1
                        added += Array(repeating: id, count: n)
                    }
                case "BertProcessing", "RobertaProcessing":
                    let cls = p["cls"]?.elements?.first?.stringValue ?? "[CLS]", sep = p["sep"]?.elements?.first?.stringValue ?? "[SEP]"
                    added += [cls, sep]
                default:
                    break
                }
            }
            count = added.count
            countSource = "the post-processor adds " + added.joined(separator: " … ")
            // The post-processor's template starting with BOS (ending with
            // EOS) is how llama.cpp's converter reads add_bos (add_eos) when
            // tokenizer_config.json does not say.
            if let explicit = tokenizerConfig?["add_bos_token"]?.boolValue {
                addsBOS = explicit
                bosSource = "add_bos_token"
            } else if let first = added.first, first == bosText {
                addsBOS = true
                bosSource = "post_processor"
            }
            if let explicit = tokenizerConfig?["add_eos_token"]?.boolValue {
                addsEOS = explicit
                eosSource = "add_eos_token"
            } else if added.count > (addsBOS ? 1 : 0), let last = added.last, last == eosText {
                addsEOS = true
                eosSource = "post_processor"
            }
        }
    }
}
