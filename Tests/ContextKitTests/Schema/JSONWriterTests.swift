import Testing
@testable import ContextKit

@Suite struct JSONWriterTests {
    let value = OrderedJSON.object([
        JSONMember("url", .string("a/b")),
        JSONMember("list", .array([.number("1"), .number("2.50"), .null, .bool(true)])),
        JSONMember("text", .string("quote \" backslash \\ line\nbell \u{07}")),
    ])

    @Test func compactLikeJSONEncoderEscapesSlashes() {
        #expect(JSONWriter(style: .compact(escapingSlashes: true)).write(value)
            == #"{"url":"a\/b","list":[1,2.50,null,true],"text":"quote \" backslash \\ line\nbell \u0007"}"#)
    }

    @Test func compactWithoutSlashEscapes() {
        #expect(JSONWriter(style: .compact(escapingSlashes: false)).write(value).hasPrefix(#"{"url":"a/b","#))
    }

    @Test func spacedLikePythonJSONDumps() {
        #expect(JSONWriter(style: .spaced).write(.object([JSONMember("a", .array([.number("1"), .number("2")]))]))
            == #"{"a": [1, 2]}"#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let text = JSONWriter(style: .compact(escapingSlashes: true)).write(value)
        #expect(try JSONParser.parse(text) == value)
    }
}
