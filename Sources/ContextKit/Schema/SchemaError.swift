import ContextKitJSON

/// Everything about a schema document that ContextKit refuses (and so
/// `schema-cost`), each with a message that says what to do.
public enum SchemaError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file is not JSON.
    case invalidJSON(JSONParseError)
    /// A `$ref` points at nothing in the document.
    case danglingReference(reference: String, at: String)
    /// `$ref`s that only point at each other and never reach a schema.
    case cyclicReference(chain: [String])
    /// A `$ref` outside the document (a URL or another file).
    case externalReference(reference: String, at: String)
    /// The JSON is valid but is not the kind of document expected.
    case notASchema(reason: String)
    /// A Swift file without any `@Generable` struct or enum.
    case noGenerableType
    /// A Swift construct the source reader does not model; it names it rather than guess.
    case unsupportedSwift(line: Int, construct: String, hint: String)
    /// Swift source that does not parse (an unterminated literal, bracket or
    /// declaration), with where: line and column (1-based, in characters).
    case swiftSyntax(line: Int, column: Int, problem: String, hint: String)
    /// A type conforming to `Tool` that cannot be priced from source: its
    /// `name` or `description` is not a string literal, its `Arguments` is not
    /// `@Generable`, or it has none; with where the offending part starts.
    case invalidTool(tool: String, line: Int, column: Int, problem: String, hint: String)
    /// The type asked for (`typeName`, `schema-cost --type`) is not in the file.
    case unknownType(name: String, known: [String])

    /// A message for the user that says what to do.
    public var description: String {
        switch self {
        case let .invalidJSON(error):
            return "invalid JSON at \(error); fix the file (or pass --format swift if it is Swift source)"
        case let .danglingReference(reference, at):
            return "dangling $ref \"\(reference)\" at \(at): nothing in the document has that path; add the definition under \"$defs\" or correct the reference"
        case let .cyclicReference(chain):
            return "cyclic $ref: \(chain.joined(separator: " -> ")) never reaches a schema; make one of them a real schema (an object with \"type\")"
        case let .externalReference(reference, at):
            return "$ref \"\(reference)\" at \(at) points outside this file; inline it under \"$defs\" and refer to it as \"#/$defs/Name\""
        case let .notASchema(reason):
            return "not a schema: \(reason)"
        case .noGenerableType:
            return "no @Generable struct or enum found; schema-cost reads types marked @Generable (import FoundationModels), or pass a JSON schema file"
        case let .unsupportedSwift(line, construct, hint):
            return "line \(line): unsupported \(construct); \(hint)"
        case let .swiftSyntax(line, column, problem, hint):
            return "\(line):\(column): Swift that does not parse: \(problem); \(hint)"
        case let .invalidTool(tool, line, column, problem, hint):
            return "\(line):\(column): tool \(tool): \(problem); \(hint)"
        case let .unknownType(name, known):
            return "no @Generable type named \(name) in the file; the file has: \(known.joined(separator: ", "))"
        }
    }
}
