import ContextKitJSON
import Foundation

/// What the JSON reader and writer must do with any bytes, checked by the
/// libFuzzer target `json` in `scripts/fuzz` (which compiles this file) and
/// replayed by `FuzzRegressionTests` on the inputs the fuzzer once broke. No
/// `Testing` import: the fuzzer builds it outside the test runner.
///
/// Each property returns nil when it holds, else what went wrong; a crash or a
/// hang inside is a finding too.
enum ContextKitJSONFuzzProperties {
    static let writers = [
        JSONWriter(style: .compact(escapingSlashes: true)), JSONWriter(style: .compact(escapingSlashes: false)),
        JSONWriter(style: .spaced), JSONWriter(style: .pretty), JSONWriter(style: .pretty, escapingInvisible: true)
    ]

    /// Any bytes: the reader refuses them at a position inside the input, or
    /// the value it read, written in every style and read again, is equal;
    /// and Foundation's parser accepts the same texts.
    static func json(_ bytes: [UInt8]) -> String? {
        let accepted: Bool
        // Stepping over a member must never crash or hang, on any bytes.
        let omitted = bytes.withUnsafeBufferPointer { try? JSONParser.parseObject($0, omitting: "model") }
        do {
            let value = try JSONParser.parse(bytes)
            accepted = true
            // On an object that reads, leaving out a member gives the others as they are.
            if let members = value.members {
                for key in Set(members.map(\.key) + ["model"]).sorted().prefix(3) {
                    let without = key == "model" ? omitted : bytes.withUnsafeBufferPointer { try? JSONParser.parseObject($0, omitting: key) }
                    if without?.members != members.filter({ $0.key != key }) { return "omitting \(key.debugDescription) changes the other members" }
                }
            }
            for writer in writers {
                let written = writer.write(value)
                guard let reread = try? JSONParser.parse(written) else { return "\(writer.style): the writer's output does not read back: \(written.prefix(200))" }
                if reread != value { return "\(writer.style): write then read changes the value" }
            }
        } catch {
            if let problem = misplaced(error, in: bytes) { return problem }
            accepted = false
        }
        return disagreement(bytes, accepted: accepted)
    }

    /// Whether an error's position is inside the input (its end included),
    /// with the line and column of its byte offset.
    static func misplaced(_ error: JSONParseError, in bytes: [UInt8]) -> String? {
        guard (0...bytes.count).contains(error.byteOffset) else { return "error at byte \(error.byteOffset) of \(bytes.count)" }
        if error.reason.isEmpty { return "error without a reason" }
        let before = bytes[..<error.byteOffset]
        let line = before.count { $0 == 0x0A } + 1
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? min(bom, error.byteOffset)
        let column = bytes[lineStart..<error.byteOffset].count { $0 & 0xC0 != 0x80 } + 1
        if (error.line, error.column) != (line, column) {
            return "error at line \(error.line), column \(error.column), but byte \(error.byteOffset) is at line \(line), column \(column)"
        }
        return nil
    }

    /// Foundation's parser as a second opinion, both ways, but for the
    /// differences `JSONParser` documents: a NUL byte among the first four
    /// or a UTF-16 byte order mark makes Foundation read UTF-16 or UTF-32
    /// (not compared); what else Foundation alone takes is compared on the
    /// text without it (see `withoutWhatOnlyFoundationTakes`).
    static func disagreement(_ bytes: [UInt8], accepted: Bool) -> String? {
        if bytes.prefix(4).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return nil }
        let foundation = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
        if accepted, !foundation { return "JSONParser accepts what Foundation refuses" }
        guard !accepted, foundation else { return nil }
        let (text, rewroteNumbers) = withoutWhatOnlyFoundationTakes(bytes)
        guard let value = try? JSONParser.parse(text) else {
            return "Foundation accepts what JSONParser refuses, and not only for trailing commas or numbers beyond a Double"
        }
        if rewroteNumbers, keeps(numberMarker, in: value) { return "Foundation accepts a number beyond a Double's range outside a repeated key" }
        return nil
    }

    /// What `withoutWhatOnlyFoundationTakes` writes for a number beyond a
    /// `Double`'s range: a literal no fuzzed text holds, so whether one is
    /// still in the parsed value says whether a later member of its key
    /// replaced it (the one place Foundation never converts it).
    static let numberMarker = "0e-987654321"

    /// `bytes` without what Foundation takes and `JSONParser` refuses by
    /// design, one after the other, until `JSONParser` accepts the text or
    /// refuses it for another reason: each trailing comma is removed, and
    /// each number beyond a `Double`'s range becomes `numberMarker` (Foundation converts
    /// a number only when it keeps its member, so it overlooks one that a
    /// later member of the same key replaces); `rewroteNumbers` says whether
    /// there was such a number.
    static func withoutWhatOnlyFoundationTakes(_ bytes: [UInt8]) -> (text: [UInt8], rewroteNumbers: Bool) {
        var text = bytes
        var rewroteNumbers = false
        while true {
            do {
                _ = try JSONParser.parse(text)
                return (text, rewroteNumbers)
            } catch {
                if error.reason.hasPrefix("trailing comma"), let comma = text[..<error.byteOffset].lastIndex(of: UInt8(ascii: ",")) {
                    text.remove(at: comma)
                } else if error.reason.hasPrefix("the number"), error.reason.contains("too large") {
                    let end = text[error.byteOffset...].firstIndex { !"0123456789+-.eE".utf8.contains($0) } ?? text.endIndex
                    text.replaceSubrange(error.byteOffset..<end, with: Array(numberMarker.utf8))
                    rewroteNumbers = true
                } else {
                    return (text, rewroteNumbers)
                }
            }
        }
    }

    /// Whether `value` holds the number literal `literal` anywhere.
    static func keeps(_ literal: String, in value: OrderedJSON) -> Bool {
        switch value {
        case let .number(text): return text == literal
        case let .object(members): return members.contains { keeps(literal, in: $0.value) }
        case let .array(elements): return elements.contains { keeps(literal, in: $0) }
        default: return false
        }
    }
}
