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
        String(decoding: utf8(value), as: UTF8.self)
    }

    /// `value` as JSON text in UTF-8 bytes, for output that goes straight to a
    /// file: no String to build and validate (on the 6.8 MB `--json` report of
    /// 10,000 files, that was two more copies of it).
    public func utf8(_ value: OrderedJSON) -> [UInt8] {
        utf8(value, inserting: [:])
    }

    /// `value` as `utf8(_:)` writes it, but for each top-level member of an
    /// object `value` named in `arrays`, the array written there instead of
    /// the member's own value: a document whose long array was written apart,
    /// element by element as each was made.
    public func utf8(_ value: OrderedJSON, inserting arrays: [String: ArrayWriter]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4_096 + arrays.values.reduce(0) { $0 + $1.bytes.count })
        if !arrays.isEmpty, case let .object(members) = value {
            writeObject(members, depth: 0, into: &out) { key, out in
                guard let array = arrays[key] else { return false }
                array.finish(into: &out)
                return true
            }
        } else {
            write(value, depth: 0, into: &out)
        }
        return out
    }

    /// An array of objects or arrays written one element at a time, as
    /// `JSONWriter` writes it `depth` levels deep in a document; the finished
    /// array goes into the document with `utf8(_:inserting:)`.
    ///
    /// Why: `tokcount --json` writes each input's object as that input is
    /// counted, on the thread that would otherwise wait for the workers,
    /// instead of building and writing 10,000 of them after the last count.
    public struct ArrayWriter: Sendable {
        /// The writer whose style the elements are written in.
        public let writer: JSONWriter
        /// How deep in the document the array sits (1: a member of the top-level object).
        public let depth: Int
        /// The elements so far, each where `.pretty` puts it (on lines of its own).
        public private(set) var bytes: [UInt8] = []
        /// How many elements were appended.
        public private(set) var count = 0

        /// An empty array to be written `depth` levels deep (1 for a member of the top-level object).
        public init(writer: JSONWriter, depth: Int) {
            self.writer = writer
            self.depth = depth
        }

        /// Appends `element`, an object or an array, as the writer writes it.
        public mutating func append(_ element: OrderedJSON) {
            if writer.style == .pretty {
                bytes.append(contentsOf: (count == 0 ? "\n" : ",\n").utf8)
                JSONWriter.indent(depth + 1, into: &bytes)
                writer.write(element, depth: depth + 1, into: &bytes)
            } else {
                if count > 0 { bytes.append(contentsOf: writer.itemSeparator.utf8) }
                writer.write(element, depth: depth, into: &bytes)
            }
            count += 1
        }

        func finish(into out: inout [UInt8]) {
            out.append(UInt8(ascii: "["))
            out.append(contentsOf: bytes)
            if writer.style == .pretty, count > 0 {
                out.append(0x0A)
                JSONWriter.indent(depth, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    // Performance note: the writer builds UTF-8 bytes, not a String. Appending
    // to a String scalar by scalar (as this writer first did) was a fifth of
    // `tokcount --json` on a folder of 10,000 files (perf: String appends
    // and `appendQuoted`); a run of bytes that needs no escape is now one copy.
    private func write(_ value: OrderedJSON, depth: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case let .number(literal): out.append(contentsOf: literal.utf8)
        case let .string(text): writeString(text, into: &out)
        case let .array(elements):
            if style == .pretty, elements.contains(where: { $0.elements != nil || $0.members != nil }) {
                out.append(contentsOf: "[\n".utf8)
                for (offset, element) in elements.enumerated() {
                    if offset > 0 { out.append(contentsOf: ",\n".utf8) }
                    Self.indent(depth + 1, into: &out)
                    write(element, depth: depth + 1, into: &out)
                }
                out.append(0x0A)
                Self.indent(depth, into: &out)
                out.append(UInt8(ascii: "]"))
                return
            }
            out.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(contentsOf: itemSeparator.utf8) }
                write(element, depth: depth, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            writeObject(members, depth: depth, into: &out) { _, _ in false }
        }
    }

    /// An object's members; `replaced(key, &out)` may write a member's value
    /// in place of the one `members` holds, and says whether it did.
    private func writeObject(
        _ members: [JSONMember], depth: Int, into out: inout [UInt8],
        replaced: (String, inout [UInt8]) -> Bool
    ) {
        if style == .pretty, !members.isEmpty {
            out.append(contentsOf: "{\n".utf8)
            for (offset, member) in members.enumerated() {
                if offset > 0 { out.append(contentsOf: ",\n".utf8) }
                Self.indent(depth + 1, into: &out)
                writeString(member.key, into: &out)
                out.append(contentsOf: ": ".utf8)
                if !replaced(member.key, &out) { write(member.value, depth: depth + 1, into: &out) }
            }
            out.append(0x0A)
            Self.indent(depth, into: &out)
            out.append(UInt8(ascii: "}"))
            return
        }
        out.append(UInt8(ascii: "{"))
        for (offset, member) in members.enumerated() {
            if offset > 0 { out.append(contentsOf: itemSeparator.utf8) }
            writeString(member.key, into: &out)
            out.append(contentsOf: keySeparator.utf8)
            if !replaced(member.key, &out) { write(member.value, depth: depth, into: &out) }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Two spaces per level, as `.pretty` indents.
    private static func indent(_ depth: Int, into out: inout [UInt8]) {
        let spaces: StaticString = "                                "
        var left = 2 * depth
        while left > 0 {
            let n = min(left, spaces.utf8CodeUnitCount)
            out.append(contentsOf: UnsafeBufferPointer(start: spaces.utf8Start, count: n))
            left -= n
        }
    }

    private var isCompact: Bool {
        if case .compact = style { return true }
        return false
    }

    private var itemSeparator: String { isCompact ? "," : ", " }
    private var keySeparator: String { isCompact ? ":" : ": " }

    private func writeString(_ text: String, into out: inout [UInt8]) {
        Self.appendQuoted(text, to: &out, escapingSlashes: style == .compact(escapingSlashes: true), escapingInvisible: escapingInvisible)
    }

    /// Appends `text` as a JSON string literal, escaped as Python's
    /// `json.dumps(ensure_ascii=False)` escapes it (quote, backslash, control
    /// characters). `escapingSlashes` also writes `/` as `\/`, as Foundation
    /// does; `escapingInvisible` also escapes DEL, the C1 controls and U+2028/9,
    /// which JSON allows raw but which a terminal or JavaScript may act on.
    public static func appendQuoted(_ text: String, to out: inout String, escapingSlashes: Bool = false, escapingInvisible: Bool = false) {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes, escapingSlashes: escapingSlashes, escapingInvisible: escapingInvisible)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// `appendQuoted` into UTF-8 bytes: runs that need no escape are copied whole.
    static func appendQuoted(_ text: String, to out: inout [UInt8], escapingSlashes: Bool, escapingInvisible: Bool) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            let n = bytes.count
            var copied = 0
            var i = 0
            while i < n {
                let b = bytes[i]
                // Printable ASCII but for the three that may need an escape, and
                // every byte of a multi-byte character but the leads of the C1
                // controls (C2) and of U+2028/9 (E2): as they are.
                if (b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C && b != 0x2F) || (b >= 0x80 && b != 0xC2 && b != 0xE2) {
                    i += 1
                    continue
                }
                var escape: String?
                var length = 1
                switch b {
                case 0x22: escape = "\\\""
                case 0x5C: escape = "\\\\"
                case 0x2F: escape = escapingSlashes ? "\\/" : nil
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                case 0x09: escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x00..<0x20: escape = unicodeEscape(UInt32(b))
                case 0x7F: escape = escapingInvisible ? unicodeEscape(0x7F) : nil
                case 0xC2 where escapingInvisible && i + 1 < n && (0x80...0x9F).contains(bytes[i + 1]):
                    escape = unicodeEscape(UInt32(bytes[i + 1]))
                    length = 2
                case 0xE2 where escapingInvisible && i + 2 < n && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    escape = unicodeEscape(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029)
                    length = 3
                default: break
                }
                if let escape {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
                    out.append(contentsOf: escape.utf8)
                    copied = i + length
                }
                i += length
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<n]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal; see `appendQuoted`.
    public static func quoted(_ text: String, escapingInvisible: Bool = false) -> String {
        var out: [UInt8] = []
        appendQuoted(text, to: &out, escapingSlashes: false, escapingInvisible: escapingInvisible)
        return String(decoding: out, as: UTF8.self)
    }

    /// `\u` and four lowercase hex digits.
    private static func unicodeEscape(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
