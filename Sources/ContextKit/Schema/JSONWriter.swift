/// Writes a `OrderedJSON` back out the way a given producer would, because the
/// bytes the model sees decide the token count.
public struct JSONWriter: Sendable {
    /// Separators and escaping of one producer.
    public enum Style: Sendable, Equatable {
        /// No whitespace. With `escapingSlashes`, `/` becomes `\/` as Foundation's
        /// `JSONEncoder` writes it unless told `.withoutEscapingSlashes`.
        case compact(escapingSlashes: Bool)
        /// `", "` and `": "` separators, as Python's `json.dumps` and the
        /// `tojson` filter of Jinja chat templates write them.
        case spaced
    }

    public let style: Style

    public init(style: Style) {
        self.style = style
    }

    public func write(_ value: OrderedJSON) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private func write(_ value: OrderedJSON, into out: inout String) {
        switch value {
        case .null: out += "null"
        case let .bool(flag): out += flag ? "true" : "false"
        case let .number(literal): out += literal
        case let .string(text): writeString(text, into: &out)
        case let .array(elements):
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += itemSeparator }
                write(element, into: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { out += itemSeparator }
                writeString(member.key, into: &out)
                out += keySeparator
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    private var itemSeparator: String { style == .spaced ? ", " : "," }
    private var keySeparator: String { style == .spaced ? ": " : ":" }

    private func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where style == .compact(escapingSlashes: true): out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                let digits = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
