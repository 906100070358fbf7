import Foundation
import ContextKitJSON

/// How many tokens a model's answer to an output schema is likely to take:
/// the JSON it must write (keys, brackets, enum values: counted exactly) plus
/// an allowance for each free-text string, read from the guides where they
/// say how long it should be.
///
/// - A string whose description (or its array's) says "at most N words",
///   "up to N words" or "N words" gets N words; "sentence" gets 15 words; any
///   other string 15 words. A word is 1.3 tokens (English prose in the
///   OpenAI encodings), scaled by the profile's estimate factor.
/// - An array has `maxItems` items, else `minItems`, else 3.
/// - `anyOf`/`oneOf` take the largest option; `$ref`s into `$defs` or
///   `definitions` are followed (not into themselves).
///
/// It is an expectation, not a bound: the planner uses it for the size of
/// each summary in the reduce steps, never more than the response reserve.
public struct SummarySizeEstimate: Sendable {
    /// Tokens per word of English prose in the OpenAI encodings.
    public static let tokensPerWord = 1.3
    /// Words expected of a string whose guide gives no length (a sentence).
    public static let defaultWords = 15
    /// Items expected of an array without `maxItems` or `minItems`.
    public static let defaultItems = 3

    /// Counts text in the profile's tokens.
    let measure: @Sendable (String) -> Int
    /// The profile's tokens per tokenizer token (1 when exact).
    let scale: Double

    /// An estimator that counts the answer's JSON with `measure` (in the
    /// profile's tokens, e.g. `ChunkPlanner.tokens(_:)`) and scales the
    /// free-text allowance by `scale` (the profile's estimate factor; 1 when exact).
    public init(scale: Double = 1, measure: @escaping @Sendable (String) -> Int) {
        self.scale = scale
        self.measure = measure
    }

    /// The expected tokens of an answer to `schema` (a JSON Schema), in the
    /// profile's tokens: an expectation, not a bound.
    public func tokens(for schema: OrderedJSON) -> Int {
        var words = 0
        let skeleton = write(schema, root: schema, inherited: nil, words: &words, depth: 0)
        return measure(skeleton) + Int((Double(words) * Self.tokensPerWord * scale).rounded(.up))
    }

    /// A sample answer with every free-text string empty; `words` collects
    /// the words those strings are expected to hold.
    private func write(_ schema: OrderedJSON, root: OrderedJSON, inherited: String?, words: inout Int, depth: Int) -> String {
        guard depth < 16 else { return "null" }
        if let reference = schema["$ref"]?.stringValue, let target = resolve(reference, in: root), target != schema {
            return write(target, root: root, inherited: schema["description"]?.stringValue ?? inherited, words: &words, depth: depth + 1)
        }
        let description = schema["description"]?.stringValue ?? inherited
        if let options = (schema["anyOf"] ?? schema["oneOf"])?.elements, !options.isEmpty {
            var best = (text: "null", words: 0, size: -1)
            for option in options {
                var w = 0
                let text = write(option, root: root, inherited: description, words: &w, depth: depth + 1)
                let size = measure(text) + Int(Double(w) * Self.tokensPerWord)
                if size > best.size { best = (text, w, size) }
            }
            words += best.words
            return best.text
        }
        if let values = schema["enum"]?.elements, !values.isEmpty {
            return values.map(literal).max { measure($0) < measure($1) } ?? "null"
        }
        if let value = schema["const"] { return literal(value) }
        switch type(of: schema) {
        case "object":
            let properties = schema["properties"]?.members ?? []
            let order = schema["x-order"]?.elements?.compactMap(\.stringValue) ?? properties.map(\.key)
            var parts: [String] = []
            for key in order {
                guard let property = properties.first(where: { $0.key == key }) else { continue }
                parts.append(literal(.string(key)) + ":" + write(property.value, root: root, inherited: nil, words: &words, depth: depth + 1))
            }
            return "{" + parts.joined(separator: ",") + "}"
        case "array":
            let count = Int(schema["maxItems"].flatMap(number) ?? schema["minItems"].flatMap(number) ?? Double(Self.defaultItems))
            let item = schema["items"] ?? .object([])
            var parts: [String] = []
            for _ in 0..<max(0, min(count, 64)) {
                parts.append(write(item, root: root, inherited: description, words: &words, depth: depth + 1))
            }
            return "[" + parts.joined(separator: ",") + "]"
        case "integer", "number":
            return "0"
        case "boolean":
            return "false"
        case "null":
            return "null"
        default:
            words += Self.words(in: description)
            return "\"\""
        }
    }

    /// The words a string's guide asks for.
    static func words(in description: String?) -> Int {
        guard let text = description?.lowercased() else { return defaultWords }
        let numbers = [
            "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
            "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "fifty": 50, "hundred": 100
        ]
        if let range = text.range(of: #"([0-9]+|[a-z]+) words?"#, options: .regularExpression) {
            let word = text[range].split(separator: " ").first.map(String.init) ?? ""
            if let n = Int(word) ?? numbers[word] { return n }
        }
        return defaultWords
    }

    private func type(of schema: OrderedJSON) -> String {
        if let name = schema["type"]?.stringValue { return name }
        if let names = schema["type"]?.elements?.compactMap(\.stringValue), let first = names.first(where: { $0 != "null" }) { return first }
        if schema["properties"] != nil { return "object" }
        if schema["items"] != nil { return "array" }
        return "string"
    }

    private func resolve(_ reference: String, in root: OrderedJSON) -> OrderedJSON? {
        guard reference.hasPrefix("#/") else { return nil }
        let steps = reference.dropFirst(2).split(separator: "/").map {
            OrderedJSON.PathStep.key($0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~"))
        }
        return root.value(at: steps)
    }

    private func number(_ value: OrderedJSON) -> Double? {
        if case let .number(literal) = value { return Double(literal) }
        return nil
    }

    private func literal(_ value: OrderedJSON) -> String {
        JSONWriter(style: .compact(escapingSlashes: false)).write(value)
    }
}
