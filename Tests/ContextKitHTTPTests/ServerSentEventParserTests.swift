import Testing
@testable import ContextKitHTTP

@Suite struct ServerSentEventParserTests {
    func events(_ text: String, splitEvery step: Int? = nil) -> [ServerSentEvent] {
        let bytes = Array(text.utf8)
        var parser = ServerSentEventParser()
        guard let step else { return parser.feed(bytes) }
        var out: [ServerSentEvent] = []
        var i = 0
        while i < bytes.count {
            out += parser.feed(bytes[i..<min(i + step, bytes.count)])
            i += step
        }
        return out
    }

    @Test func dataLinesAreJoinedAndDispatchedOnABlankLine() {
        #expect(
            events("data: one\ndata: two\n\ndata: three\n\n") == [
                ServerSentEvent(data: "one\ntwo"), ServerSentEvent(data: "three")
            ])
    }

    @Test func everySplitOfTheStreamGivesTheSameEvents() {
        let stream = "\u{FEFF}: comment\r\nevent: delta\r\ndata: {\"a\":\"é😀\"}\r\nid: 7\r\n\r\ndata:x\rdata: y\r\rretry: 1500\n\ndata\n\n"
        let whole = events(stream)
        #expect(
            whole == [
                ServerSentEvent(type: "delta", data: "{\"a\":\"é😀\"}", lastEventID: "7"),
                ServerSentEvent(data: "x\ny", lastEventID: "7"),
                ServerSentEvent(data: "", lastEventID: "7")
            ])
        for step in 1...9 { #expect(events(stream, splitEvery: step) == whole, "split every \(step) bytes") }
    }

    @Test func onlyOneSpaceAfterTheColonIsRemoved() {
        #expect(events("data:  two spaces\n\n") == [ServerSentEvent(data: " two spaces")])
    }

    @Test func eventsWithoutDataAreNotDispatched() {
        #expect(events("event: ping\n\nid: 3\n\n").isEmpty)
    }

    @Test func anUnfinishedEventAtTheEndIsDiscarded() {
        #expect(events("data: done\n\ndata: partial\n") == [ServerSentEvent(data: "done")])
    }

    @Test func retryNeedsDigitsAndIdRefusesNUL() {
        var parser = ServerSentEventParser()
        _ = parser.feed(Array("retry: 12x\nretry: 250\nid: a\u{0}b\nid: ok\n\n".utf8))
        #expect(parser.reconnectionTime == 250)
        #expect(parser.lastEventID == "ok")
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        var parser = ServerSentEventParser()
        let events = parser.feed([0x64, 0x61, 0x74, 0x61, 0x3A, 0x20, 0xFF, 0xE2, 0x82, 0x0A, 0x0A])
        #expect(events == [ServerSentEvent(data: "\u{FFFD}\u{FFFD}")])
    }

    @Test func aByteOrderMarkIsOnlyDroppedAtTheStart() {
        #expect(events("data: a\n\n\u{FEFF}data: b\n\n") == [ServerSentEvent(data: "a")])
    }

    /// What a reader checks to stop an event that never ends: the unfinished
    /// line plus the event's earlier lines, back to zero once it is dispatched.
    @Test func pendingBytesCountTheUnfinishedEvent() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: delta\ndata: abc\ndata: de".utf8)).isEmpty)
        #expect(parser.pendingByteCount == "delta".utf8.count + "abc\n".utf8.count + "data: de".utf8.count)
        #expect(parser.feed(Array("\n\n".utf8)) == [ServerSentEvent(type: "delta", data: "abc\nde")])
        #expect(parser.pendingByteCount == 0)
    }
}
