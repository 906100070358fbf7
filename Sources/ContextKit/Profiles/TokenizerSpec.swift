import Foundation

/// Which tokenizer a profile counts with: a built-in encoding by name, or a
/// tokenizer file. Written in JSON as `{"encoding": "cl100k_base"}` or
/// `{"file": "path/to/vocab.tiktoken"}` (a relative path is relative to the
/// profiles file that names it).
public enum TokenizerSpec: Equatable, Sendable, Codable, CustomStringConvertible {
    /// A built-in encoding by name (`cl100k_base`, `o200k_base`, …).
    case encoding(String)
    /// A tokenizer file: `.tiktoken`, GGUF or `tokenizer.json`.
    case file(String)

    /// `cl100k_base` or a path: a known encoding name wins (its `_base` may
    /// be left off: `cl100k` is `cl100k_base`), anything else is a file.
    public init(nameOrPath: String) {
        if OpenAIEncoding(name: nameOrPath) != nil {
            self = .encoding(nameOrPath)
        } else if OpenAIEncoding(name: nameOrPath + "_base") != nil {
            self = .encoding(nameOrPath + "_base")
        } else {
            self = .file(nameOrPath)
        }
    }

    /// The encoding's name or the file's path.
    public var description: String {
        switch self {
        case .encoding(let name): return name
        case .file(let path): return path
        }
    }

    /// Loads the tokenizer (built-ins are cached and shared).
    ///
    /// - Throws: `TokenKitError.unknownEncoding` for an unknown name (or a
    ///   missing file that looks like a name), `.unreadableFile` for a missing
    ///   file, and what `Tokenizer.load(contentsOf:)` throws for a file it cannot read.
    public func load() throws -> Tokenizer {
        switch self {
        case .encoding(let name):
            return try Tokenizer.named(name)
        case .file(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                if !path.contains("/") && !path.contains(".") {
                    throw TokenKitError.unknownEncoding(name: path, known: OpenAIEncoding.knownNames)
                }
                throw TokenKitError.unreadableFile(path: path, reason: "no such file")
            }
            // The one place that picks a loader for a tokenizer file: TokenKit's
            // format-detecting loader (.tiktoken, GGUF, tokenizer.json).
            return try Tokenizer.load(contentsOf: URL(fileURLWithPath: path))
        }
    }

    private enum CodingKeys: String, CodingKey { case encoding, file }

    /// Reads `{"encoding": NAME}` or `{"file": PATH}`.
    ///
    /// - Throws: `DecodingError` when the object has neither key.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let name = try c.decodeIfPresent(String.self, forKey: .encoding) {
            self = .encoding(name)
        } else if let path = try c.decodeIfPresent(String.self, forKey: .file) {
            self = .file(path)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "a tokenizer needs \"encoding\" (a built-in name) or \"file\" (a vocabulary path)"))
        }
    }

    /// Writes `{"encoding": NAME}` or `{"file": PATH}`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .encoding(let name): try c.encode(name, forKey: .encoding)
        case .file(let path): try c.encode(path, forKey: .file)
        }
    }
}
