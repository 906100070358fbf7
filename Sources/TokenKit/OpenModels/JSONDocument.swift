import Foundation

/// A JSON parser for `tokenizer.json`: strings stay where they are in the
/// file's bytes until asked for, so a vocabulary of 150,000 entries and as many
/// merges parses in a fraction of the time `JSONSerialization` takes (which also
/// drops U+FEFF inside strings).
final class JSONDocument {
    /// A string in the document: its bytes between the quotes, escapes not yet resolved.
    struct StringRef {
        let start: Int
        let end: Int
        let escaped: Bool
    }

    /// One member of an object.
    struct Member {
        let key: StringRef
        let value: Value
    }

    indirect enum Value {
        case object([Member])
        case array([Value])
        case string(StringRef)
        case number(Double)
        case bool(Bool)
        case null
    }

    private let bytes: UnsafeRawBufferPointer
    private(set) var root: Value = .null

    /// Parses `bytes`, which must stay valid while the document is read.
    init(bytes: UnsafeRawBufferPointer, path: String) throws {
        self.bytes = bytes
        var parser = Parser(b: bytes, path: path)
        parser.skipSpace()
        root = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.i == bytes.count else { throw parser.error("unexpected text after the JSON value") }
    }

    /// The UTF-8 bytes a string stands for, escapes resolved, appended to `out`.
    func appendBytes(of s: StringRef, to out: inout [UInt8]) {
        guard s.escaped else {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[s.start..<s.end]))
            return
        }
        var i = s.start
        var pendingHigh: UInt32? = nil
        func appendScalar(_ v: UInt32) {
            let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
            out.append(contentsOf: String(Character(scalar)).utf8)
        }
        while i < s.end {
            let c = bytes[i]
            if c != UInt8(ascii: "\\") {
                if let h = pendingHigh { appendScalar(h); pendingHigh = nil }
                out.append(c); i += 1; continue
            }
            let e = bytes[i + 1]
            i += 2
            if e == UInt8(ascii: "u") {
                let v = UInt32(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + 4)]), as: UTF8.self), radix: 16) ?? 0xFFFD
                i += 4
                if (0xD800...0xDBFF).contains(v) {
                    if let h = pendingHigh { appendScalar(h) }
                    pendingHigh = v
                } else if (0xDC00...0xDFFF).contains(v), let h = pendingHigh {
                    appendScalar(0x10000 + ((h - 0xD800) << 10) + (v - 0xDC00))
                    pendingHigh = nil
                } else {
                    if pendingHigh != nil { appendScalar(0xFFFD); pendingHigh = nil }
                    appendScalar(v)
                }
                continue
            }
            if pendingHigh != nil { appendScalar(0xFFFD); pendingHigh = nil }
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            default: out.append(e)       // \" \\ \/
            }
        }
        if pendingHigh != nil { appendScalar(0xFFFD) }
    }

    func string(_ s: StringRef) -> String {
        var out: [UInt8] = []
        appendBytes(of: s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a string equals `text` (keys are compared without building strings).
    func equals(_ s: StringRef, _ text: StaticString) -> Bool {
        guard !s.escaped, s.end - s.start == text.utf8CodeUnitCount else { return false }
        return memcmp(bytes.baseAddress! + s.start, text.utf8Start, text.utf8CodeUnitCount) == 0
    }

    private struct Parser {
        let b: UnsafeRawBufferPointer
        let path: String
        var i = 0

        func error(_ what: String) -> ModelFileError {
            .malformed(path: path, reason: "invalid JSON at byte \(i): \(what)")
        }

        mutating func skipSpace() {
            while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        }

        mutating func value(depth: Int) throws -> Value {
            guard depth < 256 else { throw error("nested too deeply") }
            guard i < b.count else { throw error("unexpected end of the file") }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [Member] = []
                skipSpace()
                if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard i < b.count, b[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    i += 1
                    skipSpace()
                    members.append(Member(key: key, value: try value(depth: depth + 1)))
                    skipSpace()
                    guard i < b.count else { throw error("unexpected end of the file") }
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    if b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var elements: [Value] = []
                skipSpace()
                if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < b.count else { throw error("unexpected end of the file") }
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    if b[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return .number(try number())
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let n = word.utf8CodeUnitCount
            guard i + n <= b.count, memcmp(b.baseAddress! + i, word.utf8Start, n) == 0 else { throw error("unknown literal") }
            i += n
        }

        mutating func string() throws -> StringRef {
            i += 1
            let start = i
            var escaped = false
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") {
                    defer { i += 1 }
                    return StringRef(start: start, end: i, escaped: escaped)
                }
                if c == UInt8(ascii: "\\") {
                    escaped = true
                    guard i + 1 < b.count else { break }
                    if b[i + 1] == UInt8(ascii: "u") {
                        guard i + 6 <= b.count, (2..<6).allSatisfy({ Self.isHex(b[i + $0]) }) else { throw error("bad \\u escape") }
                        i += 6
                    } else {
                        i += 2
                    }
                    continue
                }
                if c < 0x20 { throw error("control character inside a string") }
                i += 1
            }
            throw error("unterminated string")
        }

        static func isHex(_ c: UInt8) -> Bool {
            (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
        }

        mutating func number() throws -> Double {
            let start = i
            var integer = true
            var value = 0
            var negative = false
            if i < b.count, b[i] == UInt8(ascii: "-") { negative = true; i += 1 }
            while i < b.count {
                let c = b[i]
                if c >= 0x30 && c <= 0x39 {
                    if integer {
                        let (m, o1) = value.multipliedReportingOverflow(by: 10)
                        let (s, o2) = m.addingReportingOverflow(Int(c - 0x30))
                        if o1 || o2 { integer = false } else { value = s }
                    }
                } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") {
                    integer = false
                } else {
                    break
                }
                i += 1
            }
            guard i > start + (negative ? 1 : 0) else { throw error("expected a value") }
            if integer { return Double(negative ? -value : value) }
            guard let d = Double(String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<i]), as: UTF8.self)) else {
                throw error("bad number")
            }
            return d
        }
    }
}

/// A value with its document, for reading: `json["model"]?["vocab"]`.
struct JSON {
    let document: JSONDocument
    let value: JSONDocument.Value

    subscript(key: StaticString) -> JSON? {
        guard case .object(let members) = value else { return nil }
        guard let member = members.first(where: { document.equals($0.key, key) }) else { return nil }
        if case .null = member.value { return nil }
        return JSON(document: document, value: member.value)
    }

    var string: String? {
        if case .string(let s) = value { return document.string(s) }
        return nil
    }

    var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    var double: Double? {
        if case .number(let d) = value { return d }
        return nil
    }

    var int: Int? { double.flatMap { Int(exactly: $0) } }

    var array: [JSON]? {
        if case .array(let elements) = value { return elements.map { JSON(document: document, value: $0) } }
        return nil
    }

    var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    /// An object's members, keys as unresolved strings.
    var members: [JSONDocument.Member]? {
        if case .object(let m) = value { return m }
        return nil
    }
}
