/// One event of a `text/event-stream`.
package struct ServerSentEvent: Equatable, Sendable {
    /// The `event:` field, `message` when there was none.
    package var type: String
    /// The `data:` lines joined with line feeds.
    package var data: String
    /// The last event ID seen so far in the stream (`id:`), empty when none.
    package var lastEventID: String

    /// An event of `type` carrying `data`.
    package init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Server-sent events, parsed incrementally: feed bytes as they arrive, get
/// back the events they complete. Pure (no I/O, no clock), so it can be fed
/// any split of a stream and fuzzed.
///
/// Follows the WHATWG HTML standard's event-stream interpretation:
/// - lines end at CRLF, LF or CR (a CR at the end of one chunk and an LF at
///   the start of the next are one line end);
/// - one leading byte order mark is dropped;
/// - `field: value` (one space after the colon removed), a line without a
///   colon is a field with an empty value, a line starting with `:` is a comment;
/// - `data` appends its value and a line feed, `event` sets the type, `id`
///   sets the last event ID unless the value holds NUL, `retry` sets the
///   reconnection time when the value is all ASCII digits; other fields are ignored;
/// - an empty line dispatches the event: nothing when there was no data,
///   else the data without its last line feed;
/// - at the end of the stream an event without its empty line is discarded,
///   so there is nothing to flush.
///
/// Invalid UTF-8 becomes U+FFFD. Lines are decoded whole, so a character
/// split across two chunks decodes as it would have in one.
package struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var afterCarriageReturn = false
    private var atStreamStart = true
    private var data = ""
    private var hasData = false
    private var eventType = ""
    /// The last `id:` value seen, carried by every event after it.
    package private(set) var lastEventID = ""
    /// The last valid `retry:` value, in milliseconds.
    package private(set) var reconnectionTime: Int?

    /// A parser at the start of a stream.
    package init() {}

    /// Bytes held for the event that is not complete yet: its unfinished
    /// line, its data lines and its type. A stream whose events never end
    /// would otherwise make this grow without bound, so a reader checks it
    /// against what one event may reasonably take.
    package var pendingByteCount: Int { line.count + data.utf8.count + eventType.utf8.count }

    /// Takes the next bytes of the stream; returns the events they complete, in order.
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [ServerSentEvent] where Bytes.Element == UInt8 {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCarriageReturn = true
                endLine(into: &events)
            case 0x0A:
                endLine(into: &events)
            default:
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStreamStart {
            atStreamStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty {
            dispatch(into: &events)
            return
        }
        if bytes.first == UInt8(ascii: ":") { return }
        let field: String, value: String
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: bytes[..<colon], as: UTF8.self)
            var rest = bytes[(colon + 1)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            value = String(decoding: rest, as: UTF8.self)
        } else {
            field = String(decoding: bytes, as: UTF8.self)
            value = ""
        }
        switch field {
        case "event":
            eventType = value
        case "data":
            data += value
            data += "\n"
            hasData = true
        case "id":
            if !value.unicodeScalars.contains("\0") { lastEventID = value }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                reconnectionTime = Int(value) ?? Int.max
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return }
        if data.hasSuffix("\n") { data.removeLast() }
        events.append(ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID))
    }
}
