import ContextKitJSON
import Foundation

/// The files of a Hugging Face model folder, read once: `tokenizer.json`'s
/// location, `config.json` and `tokenizer_config.json` parsed, and the chat
/// template as `apply_chat_template` picks it. `ModelProfile(huggingFace:)`,
/// `PromptPredictor(huggingFace:)` and `ChatFraming` all read a folder here.
struct HuggingFaceModelFolder {
    /// The folder.
    let url: URL
    /// Its `tokenizer.json` (or the tokenizer file the caller named in it).
    let tokenizerURL: URL
    /// `config.json`, when the folder has one.
    let config: OrderedJSON?
    /// `tokenizer_config.json`, when the folder has one.
    let tokenizerConfig: OrderedJSON?

    /// Whether `url` is a model folder or a JSON file (by its first visible
    /// byte) rather than a GGUF file.
    static func isModel(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return false }
        if isDirectory.boolValue { return true }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 512)) ?? Data()
        return head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "{")
    }

    /// Reads the folder `url`, or the folder of `url` when it names one of its
    /// files (a `tokenizer.json` of another name is taken as the tokenizer).
    ///
    /// - Throws: `ProfileError.modelFile` when there is no tokenizer file, or
    ///   a config file is not valid JSON.
    init(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let folder = isDirectory.boolValue ? url : url.deletingLastPathComponent()
        // The folder, or one of its config files, stands for the folder's tokenizer.json.
        let namesFolder = isDirectory.boolValue || ["tokenizer_config.json", "config.json"].contains(url.lastPathComponent)
        tokenizerURL = namesFolder ? folder.appendingPathComponent("tokenizer.json") : url
        guard exists, FileManager.default.fileExists(atPath: tokenizerURL.path) else {
            throw ProfileError.modelFile(path: url.path, reason: "the folder has no tokenizer.json, the tokenizer a Hugging Face model folder gives its profile with")
        }
        self.url = folder
        config = try Self.jsonFile(folder.appendingPathComponent("config.json"))
        tokenizerConfig = try Self.jsonFile(folder.appendingPathComponent("tokenizer_config.json"))
    }

    /// The chat template and where it came from: `tokenizer_config.json`'s
    /// `chat_template` (a string, or a list of named templates: "default",
    /// else the first), else the folder's `chat_template.jinja`; nil for none.
    var chatTemplate: (text: String, source: String)? {
        if let value = tokenizerConfig?["chat_template"] {
            if let text = value.stringValue { return (text, "tokenizer_config.json chat_template") }
            let named = value.elements?.compactMap { e in e["template"]?.stringValue.map { (e["name"]?.stringValue, $0) } } ?? []
            if let chosen = named.first(where: { $0.0 == "default" }) ?? named.first {
                return (chosen.1, "tokenizer_config.json chat_template '\(chosen.0 ?? "?")'")
            }
        }
        let file = url.appendingPathComponent("chat_template.jinja")
        if let data = FileManager.default.contents(atPath: file.path) { return (String(decoding: data, as: UTF8.self), "chat_template.jinja") }
        return nil
    }

    /// A special token's text in `tokenizer_config.json`: a string, or an object with `content`.
    func tokenText(_ key: String) -> String? {
        tokenizerConfig?[key]?.stringValue ?? tokenizerConfig?[key]?["content"]?.stringValue
    }

    /// `url` parsed; nil when there is no such file.
    private static func jsonFile(_ url: URL) throws -> OrderedJSON? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONParser.parse([UInt8](data))
        } catch {
            throw ProfileError.modelFile(path: url.path, reason: "invalid JSON at line \(error.line), column \(error.column): \(error.reason)")
        }
    }
}
