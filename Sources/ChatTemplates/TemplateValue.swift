import ContextKitJSON

/// A value inside a chat template: what Jinja's Python objects become here.
public indirect enum TemplateValue: Equatable, Sendable {
    /// A name the template never set (Jinja's `Undefined`): empty when output, false when tested.
    case undefined
    /// Python's `None`.
    case none
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// A list.
    case array([TemplateValue])
    /// Keys keep their insertion order (templates iterate `items()`, and `tojson` must be stable).
    case object([(String, TemplateValue)])

    /// Python's `==`: an `int` equals the `double` of the same value; objects
    /// are equal when their keys and values match in order.
    public static func == (a: TemplateValue, b: TemplateValue) -> Bool {
        switch (a, b) {
        case (.undefined, .undefined), (.none, .none): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.int(x), .double(y)), let (.double(y), .int(x)): return Double(x) == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Python truthiness.
    var isTruthy: Bool {
        switch self {
        case .undefined, .none: return false
        case .bool(let b): return b
        case .int(let i): return i != 0
        case .double(let d): return d != 0
        case .string(let s): return !s.isEmpty
        case .array(let a): return !a.isEmpty
        case .object(let o): return !o.isEmpty
        }
    }

    /// `{{ value }}` output: Python's `str()`.
    var rendered: String {
        switch self {
        case .undefined: return ""
        case .none: return "None"
        case .bool(let b): return b ? "True" : "False"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return s
        case .array, .object: return json()
        }
    }

    /// `tojson`: compact JSON with `", "` and `": "` separators as Jinja's `tojson` writes it.
    func json() -> String {
        var out = ""
        _ = writeJSON(into: &out, limit: .max)
        return out
    }

    /// Appends `json()` to `out`, stopping (false) as soon as `out` passes
    /// `limit` UTF-8 bytes: lists that hold one another many levels deep
    /// would otherwise write exponentially many copies.
    func writeJSON(into out: inout String, limit: Int) -> Bool {
        switch self {
        case .undefined, .none: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += String(d)
        case .string(let s): out += Self.quoted(s)
        case .array(let a):
            out += "["
            for (k, v) in a.enumerated() {
                if k > 0 { out += ", " }
                guard v.writeJSON(into: &out, limit: limit) else { return false }
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (k, member) in o.enumerated() {
                out += (k > 0 ? ", " : "") + Self.quoted(member.0) + ": "
                guard member.1.writeJSON(into: &out, limit: limit) else { return false }
            }
            out += "}"
        }
        return out.utf8.count <= limit
    }

    /// As `json.dumps(ensure_ascii=False)` quotes it, which is what HF's `tojson` calls.
    private static func quoted(_ s: String) -> String { JSONWriter.quoted(s) }

    subscript(key: String) -> TemplateValue {
        if case .object(let o) = self { return o.first { $0.0 == key }?.1 ?? .undefined }
        return .undefined
    }
}

import Foundation
