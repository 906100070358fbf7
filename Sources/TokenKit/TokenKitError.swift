/// Everything TokenKit can refuse, each with a message that says what to do.
public enum TokenKitError: Error, Equatable, CustomStringConvertible, Sendable {
    /// `Tokenizer.named` was given a name it does not know.
    case unknownEncoding(name: String, known: [String])
    /// A vocabulary or model file could not be read at all (missing,
    /// unreadable, not a regular file), or a built-in vocabulary is missing.
    case unreadableFile(path: String, reason: String)
    /// A vocabulary file has a malformed line.
    case malformedVocabulary(path: String, line: Int, reason: String)
    /// A built-in vocabulary does not match the checksum recorded when it was shipped.
    case alteredVocabulary(path: String, expected: String, actual: String)
    /// `encode` met a special token's text that the caller did not allow.
    case disallowedSpecialToken(token: String)
    /// `decode` met an id that is not in the vocabulary.
    case unknownTokenID(Int)
    /// A pre-tokenizer pattern that ICU cannot compile.
    case invalidPattern(pattern: String, reason: String)

    /// A message for the user that names the problem and says what to do.
    public var description: String {
        switch self {
        case let .unknownEncoding(name, known):
            return "unknown encoding '\(name)'; known encodings: \(known.joined(separator: ", ")) (or give the path of a .tiktoken file)"
        case let .unreadableFile(path, reason):
            return "cannot read \(path): \(reason)"
        case let .malformedVocabulary(path, line, reason):
            return "\(path):\(line): \(reason); the vocabulary file is corrupt, replace it with an intact copy"
        case let .alteredVocabulary(path, expected, actual):
            return "\(path) does not match the checksum it shipped with (expected \(expected), found \(actual)); the file was altered or damaged, reinstall ContextKit"
        case let .disallowedSpecialToken(token):
            return
                "the text contains the special token \(token); allow it to encode it as one special token (API: allowedSpecial: [\"\(token)\"]; tokcount: --special allow), or count it as plain text (encodeOrdinary; tokcount: --special text)"
        case let .unknownTokenID(id):
            return "token id \(id) is not in this vocabulary; check that the ids come from the same encoding"
        case let .invalidPattern(pattern, reason):
            return "the pre-tokenizer pattern \(pattern) does not compile: \(reason)"
        }
    }
}
