import ContextKitJSON

/// A JSON value whose objects keep their keys in the order written, so a
/// tool's documented schema reads the same in its output.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.rendered() == b.rendered() }

    /// `nil` becomes `null`.
    public static func optional(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }
    public static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    public static func optional(_ value: Double?) -> JSONValue { value.map { .double($0) } ?? .null }

    /// Pretty-printed with two-space indents; arrays of scalars stay on one line.
    public func rendered(indent: String = "") -> String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .double(let d):
            guard d.isFinite else { return "null" }
            if d == d.rounded() && abs(d) < 1e15 { return String(Int(d)) }
            return String(d)
        case .string(let s): return Self.quoted(s)
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy({ !$0.isContainer }) {
                return "[" + items.map { $0.rendered() }.joined(separator: ", ") + "]"
            }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.rendered(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            let inner = indent + "  "
            return "{\n" + fields.map { inner + Self.quoted($0.0) + ": " + $0.1.rendered(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "}"
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }

    /// A JSON string literal; what a terminal could act on (C1 controls, U+2028/9) is escaped too.
    public static func quoted(_ s: String) -> String { JSONWriter.quoted(s, escapingInvisible: true) }
}
