/// The one JSON reader: strict RFC 8259 over UTF-8 bytes, keeping object key
/// order, saying where a text stops being JSON (line, column, byte offset and
/// what was expected there).
///
/// Foundation's JSONSerialization returns unordered dictionaries and reports
/// errors as byte offsets at best; a schema's token count depends on key
/// order and a user fixing a file needs a line and column. It is also more
/// lenient, so this reader never is: whatever it accepts, Foundation accepts
/// too. Where the two differ, on purpose:
/// - trailing commas (`[1,]`, `{"a": 1,}`): Foundation takes them, RFC 8259
///   does not, and neither does this reader;
/// - UTF-16 and UTF-32: Foundation guesses them from NUL bytes in the first
///   four bytes or a UTF-16 byte order mark; this reader reads UTF-8 only;
/// - a number beyond a `Double`'s range as the value of a key that comes
///   again later in its object: Foundation converts a number only when it
///   keeps it, so it never sees that one; this reader refuses it wherever
///   it stands.
///
/// Both skip a UTF-8 byte order mark at the start (RFC 8259 §8.1 allows it),
/// refuse lone surrogate escapes (`"\ud800"` names no character), refuse a
/// number beyond a `Double`'s range (`1e400`; RFC 8259 §6 lets a reader set
/// limits), and nest at most 512 arrays and objects.
///
/// A key given twice in one object takes its last value, as Python's `json`
/// (and so the OpenAI-compatible servers whose bills are counted) does:
/// `{"text": "one", "text": "two"}` reads as `{"text": "two"}`. The member
/// keeps the position of the key's first appearance, as a Python `dict`
/// does when a key is set again, so `{"a": 1, "b": 2, "a": 3}` reads as
/// `{"a": 3, "b": 2}`: the key order a server re-encodes, which is what a
/// schema's token count depends on. Every object the parser returns
/// therefore has each key once.
public struct JSONParser {
    /// Nesting beyond this is refused rather than risking the stack.
    public static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Reads `text` as one JSON value.
    public static func parse(_ text: String) throws(JSONParseError) -> OrderedJSON {
        var text = text
        return try text.withUTF8 { utf8 in Result { () throws(JSONParseError) in try parse(utf8) } }.get()
    }

    /// Reads UTF-8 `bytes` as one JSON value.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> OrderedJSON {
        try bytes.withUnsafeBufferPointer { buffer in Result { () throws(JSONParseError) in try parse(buffer) } }.get()
    }

    /// Reads UTF-8 `bytes` as one JSON value; the value keeps nothing of the
    /// buffer, so a mapped file can be unmapped afterwards.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> OrderedJSON {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: byteOrderMark) { parser.index = byteOrderMark.count }
        parser.skipWhitespace()
        guard parser.index < bytes.count else { throw parser.error("the file is empty; expected a JSON value") }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Reads UTF-8 `bytes` as one JSON object, leaving out the top-level member
    /// named `omitted`: its value is stepped over without being built (strings
    /// and brackets are followed, nothing else is checked), so a large part
    /// that the caller has in another form costs a pass over its bytes, not a
    /// tree of values. For a file already known to be valid JSON (a cached
    /// tokenizer.json's `model` section); anything else is read as `parse` reads it.
    ///
    /// - Throws: what `parse` throws, and also when the text is not an object.
    public static func parseObject(_ bytes: UnsafeBufferPointer<UInt8>, omitting omitted: String) throws(JSONParseError) -> OrderedJSON {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: byteOrderMark) { parser.index = byteOrderMark.count }
        parser.skipWhitespace()
        guard parser.peek(UInt8(ascii: "{")) else { throw parser.error("unexpected \(parser.describeCurrent()); expected an object") }
        let value = try parser.parseObject(omitting: omitted)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> OrderedJSON {
        guard index < bytes.count else { throw error("unexpected end of input; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()); expected a value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject(omitting omitted: String? = nil) throws(JSONParseError) -> OrderedJSON {
        try enterContainer()
        index += 1
        var members: [JSONMember] = []
        var keyPositions: [String: Int] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                if peek(UInt8(ascii: "}")) { throw error("trailing comma before '}'") }
                throw error("unexpected \(describeCurrent()); expected a property name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("unexpected \(describeCurrent()); expected ':' after the property name \"\(key)\"") }
            index += 1
            skipWhitespace()
            if key == omitted {
                try skipValue()
            } else {
                let value = try parseValue()
                if let earlier = position(of: key, in: members, index: &keyPositions) {
                    members[earlier].value = value
                } else {
                    members.append(JSONMember(key, value))
                }
            }
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "}")) { index += 1; break }
            throw error("unexpected \(describeCurrent()); expected ',' or '}' in an object")
        }
        depth -= 1
        return .object(members)
    }

    /// Objects up to this many members look a key up by comparing it with
    /// each earlier one (no hashing, no allocation: most objects of a request
    /// or a JSONL record are this small); a larger one, such as a
    /// tokenizer.json vocabulary of 150,000 entries, by a dictionary.
    private static let linearKeySearchLimit = 16

    /// Where `key` already stands in `members`, if it does. `index` is empty
    /// until `members` outgrows `linearKeySearchLimit`, then holds every
    /// member's position; the caller appends `key` when this returns nil.
    private func position(of key: String, in members: [JSONMember], index: inout [String: Int]) -> Int? {
        if members.count < Self.linearKeySearchLimit {
            return members.firstIndex { $0.key == key }
        }
        if index.isEmpty {
            index.reserveCapacity(members.count * 2)
            for (position, member) in members.enumerated() { index[member.key] = position }
        }
        if let earlier = index[key] { return earlier }
        index[key] = members.count
        return nil
    }

    private mutating func parseArray() throws(JSONParseError) -> OrderedJSON {
        try enterContainer()
        index += 1
        var elements: [OrderedJSON] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'") }
            elements.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            if peek(UInt8(ascii: "]")) { index += 1; break }
            throw error("unexpected \(describeCurrent()); expected ',' or ']' in an array")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
    }

    /// Steps over one value, following only strings (to their closing quote)
    /// and the nesting of brackets: a pass over the bytes, building nothing.
    private mutating func skipValue() throws(JSONParseError) {
        let start = index
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                if depth == 0 { return }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }  // the enclosing object ends: a number or literal ended here
                depth -= 1
                if depth == 0 { index += 1; return }
            case UInt8(ascii: ","):
                if depth == 0 { return }
            default:
                break
            }
            index += 1
        }
        index = start
        throw error("unexpected end of input inside this value")
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let word = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in word {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("unexpected \(describeCurrent()); expected '\(literal)'")
            }
            index += 1
        }
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        // Most strings (every key and token of a tokenizer.json) have no
        // escape: they become a String straight from the input's bytes.
        var highBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index])
                index += 1
                if highBits < 0x80 { return String(decoding: content, as: UTF8.self) }
                guard let text = String(validating: content, as: UTF8.self) else {
                    index = start
                    throw error("the string is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            highBits |= byte
            index += 1
        }
        // An escape: the text is unescaped straight into the string's storage,
        // sized by the distance to the closing quote (an escape is never
        // shorter than what it stands for), so a huge string is held once beside
        // the input rather than also in a growing buffer that is then copied.
        var end = index
        while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
        var failure: JSONParseError?
        let text = String(unsafeUninitializedCapacity: min(end, bytes.count) - (start + 1)) { out in
            var written = 0
            func append(_ byte: UInt8) {
                out[written] = byte
                written += 1
            }
            for byte in bytes[(start + 1)..<index] { append(byte) }
            do throws(JSONParseError) {
                while true {
                    guard index < bytes.count else {
                        index = start
                        throw error("unterminated string (no closing '\"')")
                    }
                    let byte = bytes[index]
                    switch byte {
                    case UInt8(ascii: "\""):
                        index += 1
                        // What `String(validating:)` refuses; this initializer would repair it instead.
                        guard Self.isValidUTF8(UnsafeBufferPointer(rebasing: out[..<written])) else {
                            index = start
                            throw error("the string is not valid UTF-8")
                        }
                        return written
                    case UInt8(ascii: "\\"):
                        index += 1
                        UTF8.encode(try parseEscape(), into: append)
                    case 0..<0x20:
                        throw error("control character U+\(hex4(UInt32(byte))) inside a string; write it as an escape such as \\n or \\u\(hex4(UInt32(byte)))")
                    default:
                        append(byte)
                        index += 1
                    }
                }
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return text
    }

    /// Whether `bytes` are UTF-8 as `String(validating:)` takes it, checked without a copy.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !transcode(bytes.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true) { _ in }
    }

    /// The character an escape (after its backslash) stands for.
    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("lone high surrogate \\u\(hex4(scalar)); a \\uDC00-\\uDFFF escape must follow it")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("\\u\(hex4(scalar)) must be followed by a low surrogate (\\uDC00-\\uDFFF), not \\u\(hex4(low))")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("lone low surrogate \\u\(hex4(scalar))")
            }
            return Unicode.Scalar(scalar)!
        default:
            index -= 2
            throw error("invalid escape \\\(describeByte(byte)); valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexDigit(bytes[index]) else {
                throw error("\\u must be followed by four hexadecimal digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: Numbers

    /// The number's literal text, checked against RFC 8259's grammar.
    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("numbers must not have leading zeros") }
        } else if index < bytes.count, isDigit(bytes[index]) {
            skipDigits()
        } else {
            throw error("unexpected \(describeCurrent()); expected a digit")
        }
        // A Double's largest finite value has 309 digits before the point.
        var mayOverflow = index - start >= 309
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after the decimal point") }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            skipDigits()
            mayOverflow = true
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        // Foundation refuses what rounds to infinity; so does this reader, to be
        // never the more lenient (and every number it keeps is a Double too).
        if mayOverflow, let value = Double(literal), !value.isFinite {
            index = start
            throw error("the number \(literal.count > 40 ? String(literal.prefix(40)) + "…" : literal) is too large; numbers go up to ±1.7976931348623157e308")
        }
        return literal
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        return describeByte(bytes[index])
    }

    private func describeByte(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 {
            // Show the whole character the byte starts, not a lone UTF-8 byte.
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            if let text = String(validating: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self) { return "'\(text)'" }
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// The error at the current position: its byte offset, a 1-based line and
    /// a column counted in Unicode scalars (what an editor shows for most
    /// text). Counted only now, so reading pays nothing for positions.
    private func error(_ reason: String) -> JSONParseError {
        var line = 1
        var column = 1
        var position = bytes.starts(with: Self.byteOrderMark) ? Self.byteOrderMark.count : 0
        let end = min(index, bytes.count)
        while position < end {
            let byte = bytes[position]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            position += 1
        }
        return JSONParseError(line: line, column: column, byteOffset: end, reason: reason)
    }
}
