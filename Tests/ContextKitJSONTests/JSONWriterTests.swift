import Testing
@testable import ContextKitJSON

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

    @Test func quotedEscapesWhatPythonEscapesAndInvisiblesOnlyWhenAsked() {
        let text = "tab\t bs\u{08} ff\u{0C} del\u{7F} c1\u{85} ls\u{2028} é😀"
        #expect(JSONWriter.quoted(text) == "\"tab\\t bs\\b ff\\f del\u{7F} c1\u{85} ls\u{2028} é😀\"")
        #expect(JSONWriter.quoted(text, escapingInvisible: true)
            == #""tab\t bs\b ff\f del\u007f c1\u0085 ls\u2028 é😀""#)
    }
}
