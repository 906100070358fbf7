import ContextKitJSON
import Foundation

extension PromptPredictor {
    /// The predictor for a Hugging Face model folder (or its
    /// `tokenizer_config.json`): the `chat_template`, `bos_token` and
    /// `eos_token` of `tokenizer_config.json` and the folder's `tokenizer.json`.
    /// No BOS is added: `apply_chat_template` tokenizes the rendered prompt
    /// without special tokens, the template writing any BOS itself.
    ///
    /// - Throws: `ChatTemplateError` when the config has no usable chat
    ///   template or is not readable JSON; what `Tokenizer.load(contentsOf:)` throws.
    public init(huggingFace url: URL) throws {
        let config = try HuggingFaceConfig(url)
        guard let source = config.chatTemplate else {
            throw ChatTemplateError(message: "\(config.configURL.path) has no chat_template, so the prompt cannot be rendered")
        }
        self.init(tokenizer: try Tokenizer.load(contentsOf: config.tokenizerURL), template: try ChatTemplate(source),
                  bosToken: config.token("bos_token") ?? "", eosToken: config.token("eos_token") ?? "", addsBOS: false)
    }
}

/// The parts of a Hugging Face model folder a profile needs, read from
/// `tokenizer_config.json` (and `config.json` for the window).
struct HuggingFaceConfig {
    let folder: URL
    let configURL: URL
    let json: OrderedJSON
    var tokenizerURL: URL { folder.appendingPathComponent("tokenizer.json") }

    /// Whether `url` is a model folder holding a `tokenizer_config.json`, or that file itself.
    static func isModel(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue { return FileManager.default.fileExists(atPath: url.appendingPathComponent("tokenizer_config.json").path) }
        return url.lastPathComponent == "tokenizer_config.json"
    }

    init(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        folder = isDirectory.boolValue ? url : url.deletingLastPathComponent()
        configURL = folder.appendingPathComponent("tokenizer_config.json")
        let bytes: [UInt8]
        do { bytes = [UInt8](try Data(contentsOf: configURL)) } catch {
            throw ChatTemplateError(message: "\(configURL.path) cannot be read: \((error as NSError).localizedDescription)")
        }
        do { json = try JSONParser.parse(bytes) } catch {
            throw ChatTemplateError(message: "\(configURL.path) is not valid JSON: \(error)")
        }
    }

    /// `chat_template`: a string, or a list of named templates (the one named
    /// `default`, else the first), as `apply_chat_template` chooses when no name is given.
    var chatTemplate: String? {
        switch json["chat_template"] {
        case .string(let s)?: return s
        case .array(let named)?:
            let chosen = named.first { $0["name"]?.stringValue == "default" } ?? named.first
            return chosen?["template"]?.stringValue
        default: return nil
        }
    }

    /// A special token's text: a string, or an object with `content`.
    func token(_ key: String) -> String? {
        json[key]?.stringValue ?? json[key]?["content"]?.stringValue
    }

    /// The trained context length: `config.json`'s `max_position_embeddings`,
    /// else a plausible `model_max_length` (Hugging Face writes 10^30 for "none").
    var contextLength: (Int, String)? {
        if let data = try? Data(contentsOf: folder.appendingPathComponent("config.json")),
           let config = try? JSONParser.parse([UInt8](data)), let n = config["max_position_embeddings"]?.intValue, n > 0 {
            return (n, "config.json max_position_embeddings")
        }
        if let n = json["model_max_length"]?.intValue, n > 0, n < 100_000_000 { return (n, "tokenizer_config.json model_max_length") }
        return nil
    }
}
