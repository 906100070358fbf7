/// The one JSON writer: an `OrderedJSON` written back out the way a given
/// producer would, because the bytes a model sees decide the token count and
/// the bytes a tool prints are what scripts and people read.
///
/// Keys come out in the value's order; numbers as their literal text, so
/// what `JSONParser` read is written back unchanged and reads back equal.
public struct JSONWriter: Sendable {
    /// Separators, line breaks and escaping of one producer.
    public enum Style: Sendable, Equatable {
        /// No whitespace. With `escapingSlashes`, `/` becomes `\/` as Foundation's
        /// `JSONEncoder` writes it unless told `.withoutEscapingSlashes`.
        case compact(escapingSlashes: Bool)
        /// `", "` and `": "` separators, as Python's `json.dumps` and the
        /// `tojson` filter of Jinja chat templates write them.
        case spaced
        /// One member per line, indented by two spaces per level; an array
        /// that holds no array or object stays on one line (`[1, 2]`). What
        /// ContextKit's tools print for `--json`.
        case pretty
    }

    /// How values are laid out.
    public let style: Style
    /// Whether DEL, the C1 controls and U+2028/9 are escaped too (see `appendQuoted`).
    public let escapingInvisible: Bool

    /// A writer for `style`; `escapingInvisible` for text bound for a terminal.
    public init(style: Style, escapingInvisible: Bool = false) {
        self.style = style
        self.escapingInvisible = escapingInvisible
    }

    /// `value` as JSON text.
    public func write(_ value: OrderedJSON) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out
    }

    private func write(_ value: OrderedJSON, indent: String, into out: inout String) {
        switch value {
        case .null: out += "null"
        case let .bool(flag): out += flag ? "true" : "false"
        case let .number(literal): out += literal
        case let .string(text): writeString(text, into: &out)
        case let .array(elements):
            if style == .pretty, elements.contains(where: { $0.elements != nil || $0.members != nil }) {
                let inner = indent + "  "
                out += "[\n"
                for (offset, element) in elements.enumerated() {
                    if offset > 0 { out += ",\n" }
                    out += inner
                    write(element, indent: inner, into: &out)
                }
                out += "\n" + indent + "]"
                return
            }
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += itemSeparator }
                write(element, indent: indent, into: &out)
            }
            out += "]"
        case let .object(members):
            if style == .pretty, !members.isEmpty {
                let inner = indent + "  "
                out += "{\n"
                for (offset, member) in members.enumerated() {
                    if offset > 0 { out += ",\n" }
                    out += inner
                    writeString(member.key, into: &out)
                    out += ": "
                    write(member.value, indent: inner, into: &out)
                }
                out += "\n" + indent + "}"
                return
            }
            out += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { out += itemSeparator }
                writeString(member.key, into: &out)
                out += keySeparator
                write(member.value, indent: indent, into: &out)
            }
            out += "}"
        }
    }

    private var isCompact: Bool {
        if case .compact = style { return true }
        return false
    }

    private var itemSeparator: String { isCompact ? "," : ", " }
    private var keySeparator: String { isCompact ? ":" : ": " }

    private func writeString(_ text: String, into out: inout String) {
        Self.appendQuoted(text, to: &out, escapingSlashes: style == .compact(escapingSlashes: true), escapingInvisible: escapingInvisible)
    }

    /// Appends `text` as a JSON string literal, escaped as Python's
    /// `json.dumps(ensure_ascii=False)` escapes it (quote, backslash, control
    /// characters). `escapingSlashes` also writes `/` as `\/`, as Foundation
    /// does; `escapingInvisible` also escapes DEL, the C1 controls and U+2028/9,
    /// which JSON allows raw but which a terminal or JavaScript may act on.
    public static func appendQuoted(_ text: String, to out: inout String, escapingSlashes: Bool = false, escapingInvisible: Bool = false) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapingSlashes: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                appendUnicodeEscape(scalar, to: &out)
            case "\u{7F}"..."\u{9F}" where escapingInvisible, "\u{2028}" where escapingInvisible, "\u{2029}" where escapingInvisible:
                appendUnicodeEscape(scalar, to: &out)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `text` as a JSON string literal; see `appendQuoted`.
    public static func quoted(_ text: String, escapingInvisible: Bool = false) -> String {
        var out = ""
        appendQuoted(text, to: &out, escapingInvisible: escapingInvisible)
        return out
    }

    private static func appendUnicodeEscape(_ scalar: Unicode.Scalar, to out: inout String) {
        let digits = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
