/// Why a GGUF model file or a Hugging Face `tokenizer.json` could not be turned
/// into a tokenizer. Each message names the file and says what to do.
public enum ModelFileError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file is neither GGUF, nor SentencePiece `.model`, nor `tokenizer.json`, nor tekken, nor `.tiktoken`.
    case unrecognizedFormat(path: String)
    /// The file ends before the structure it announces (a partial download).
    case truncated(path: String, reason: String)
    /// A GGUF version this reader does not know, or a big-endian file.
    case unsupportedGGUFVersion(path: String, version: UInt32)
    /// The file is of the right kind but its content is inconsistent.
    case malformed(path: String, reason: String)
    /// The file needs a key or field that is not there.
    case missing(path: String, key: String)
    /// A tokenizer algorithm ContextKit does not implement (Unigram, WordPiece, ...).
    case unsupportedTokenizer(path: String, name: String, supported: [String])
    /// A GGUF `tokenizer.ggml.pre` type ContextKit does not know.
    case unknownPreTokenizer(path: String, name: String, known: [String])
    /// A `tokenizer.json` component (normalizer, pre-tokenizer, option) ContextKit does not implement.
    case unsupportedComponent(path: String, component: String, supported: [String])

    /// A message for the user that names the file and says what to do.
    public var description: String {
        switch self {
        case let .unrecognizedFormat(path):
            return
                "\(path) is not a tokenizer file ContextKit can read; give a .gguf model, a SentencePiece .model, a Hugging Face tokenizer.json, a Mistral tekken .json or a .tiktoken vocabulary"
        case let .truncated(path, reason):
            return "\(path) is truncated (\(reason)); the download or copy is incomplete, fetch the file again"
        case let .unsupportedGGUFVersion(path, version):
            if version == 1 {
                return "\(path) is a GGUF version 1 file, which ContextKit does not read; convert the model again with a current llama.cpp (versions 2 and 3 are supported)"
            }
            if version.byteSwapped == 2 || version.byteSwapped == 3 {
                return "\(path) is a big-endian GGUF file; ContextKit reads little-endian GGUF only, use the little-endian conversion of the model"
            }
            return "\(path) is GGUF version \(version), which ContextKit does not know (it reads versions 2 and 3); update ContextKit"
        case let .malformed(path, reason):
            return "\(path) is damaged or not a tokenizer: \(reason); replace it with an intact copy"
        case let .missing(path, key):
            return "\(path) has no \(key), so it carries no usable tokenizer; use a model file converted with its vocabulary"
        case let .unsupportedTokenizer(path, name, supported):
            return
                "\(path) uses a \(name) tokenizer, which ContextKit does not implement (it implements \(supported.joined(separator: ", "))); count with the model's own server instead"
        case let .unknownPreTokenizer(path, name, known):
            return "\(path) asks for the pre-tokenizer '\(name)', which ContextKit does not know; known pre-tokenizers: \(known.joined(separator: ", "))"
        case let .unsupportedComponent(path, component, supported):
            return "\(path) uses \(component), which ContextKit does not implement; supported: \(supported.joined(separator: ", "))"
        }
    }
}
