import Foundation
@testable import ContextKitHTTP

/// What the server-sent-event parser must do with any bytes, checked by the
/// `sse` libFuzzer target in `scripts/fuzz` (which compiles this file) and
/// replayed by `FuzzRegressionTests` on the inputs the fuzzer once broke.
/// No `Testing` import: the fuzzer builds it outside the test runner.
enum ContextKitHTTPFuzzProperties {
    struct Parsed: Equatable {
        var events: [ServerSentEvent] = []
        var lastEventID = ""
        var reconnectionTime: Int?
    }

    /// However the stream is cut into network reads, the parser gives the
    /// events, last id and retry time that a whole-stream reading of the
    /// WHATWG rules gives.
    static func serverSentEvents(_ bytes: [UInt8]) -> String? {
        let expected = reference(bytes)
        let step = Int(bytes.first ?? 0) % 7 + 1
        let splits: [(String, [ArraySlice<UInt8>])] = [
            ("whole", [bytes[...]]),
            ("byte by byte", bytes.indices.map { bytes[$0...$0] }),
            ("\(step)-byte reads", stride(from: 0, to: bytes.count, by: step).map { bytes[$0..<min($0 + step, bytes.count)] })
        ]
        for (name, chunks) in splits {
            var parser = ServerSentEventParser()
            var parsed = Parsed()
            for chunk in chunks { parsed.events += parser.feed(chunk) }
            parsed.lastEventID = parser.lastEventID
            parsed.reconnectionTime = parser.reconnectionTime
            if parsed != expected {
                return
                    "\(name): \(parsed.events.count) events (id \(parsed.lastEventID.debugDescription), retry \(String(describing: parsed.reconnectionTime))), the rules give \(expected.events.count) (id \(expected.lastEventID.debugDescription), retry \(String(describing: expected.reconnectionTime)))"
            }
        }
        return nil
    }

    /// The event-stream interpretation read off the standard, on the whole
    /// stream at once: split into lines, then one line at a time.
    static func reference(_ bytes: [UInt8]) -> Parsed {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0, i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D || bytes[i] == 0x0A {
                lines.append(bytes[start..<i])
                if bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        // A last line without its line end never completes.
        if let first = lines.first, first.starts(with: [0xEF, 0xBB, 0xBF]) { lines[0] = first.dropFirst(3) }
        var parsed = Parsed()
        var data: String? = nil
        var type = ""
        for line in lines {
            if line.isEmpty {
                if var d = data {
                    if d.hasSuffix("\n") { d.removeLast() }
                    parsed.events.append(ServerSentEvent(type: type.isEmpty ? "message" : type, data: d, lastEventID: parsed.lastEventID))
                }
                data = nil
                type = ""
                continue
            }
            if line.first == UInt8(ascii: ":") { continue }
            let colon = line.firstIndex(of: UInt8(ascii: ":"))
            let field = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
            var value = colon.map { line[($0 + 1)...] } ?? []
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
            let text = String(decoding: value, as: UTF8.self)
            switch field {
            case "event": type = text
            case "data": data = (data ?? "") + text + "\n"
            case "id" where !value.contains(0): parsed.lastEventID = text
            case "retry" where !value.isEmpty && value.allSatisfy({ (0x30...0x39).contains($0) }):
                parsed.reconnectionTime = Int(text) ?? Int.max
            default: break
            }
        }
        return parsed
    }
}
