import ContextKitJSON
import Testing

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderAndNumberLiterals() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": [true, false, null], "m": 0.50, "e": -1.5e3}"#)
        #expect(value.members?.map(\.key) == ["z", "a", "m", "e"])
        #expect(value["m"] == .number("0.50"))
        #expect(value["e"] == .number("-1.5e3"))
        #expect(value["a"] == .array([.bool(true), .bool(false), .null]))
    }

    @Test func resolvesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#"["a\"b\\c\/d\n\t\u00e9\ud83d\ude00"]"#)
        #expect(value == .array([.string("a\"b\\c/d\n\té😀")]))
    }

    /// The omitted member is stepped over whatever its value (strings with
    /// escaped quotes and brackets, nesting, numbers, literals) and wherever it
    /// stands; the other members are what a full parse gives.
    @Test(arguments: [
        #"{"a": 1, "model": {"vocab": {"\"}{": 0, "x\\": [1, {"]": 2}]}}, "b": [true]}"#,
        #"{"model": "\"}]", "b": {"c": null}}"#,
        #"{"b": 2, "model": -1.5e3}"#,
        #"{"b": 2, "model": true }"#,
        #"{"model": [], "model": {}, "b": "model"}"#,
        #"{"b": {"model": 1}}"#,
        "\u{FEFF}{ \"model\" : [ [ ] , { } ] , \"b\" : 1 }"
    ])
    func omitsOneTopLevelMember(_ text: String) throws {
        let full = try JSONParser.parse(text)
        let omitted = try Array(text.utf8).withUnsafeBufferPointer { try JSONParser.parseObject($0, omitting: "model") }
        #expect(omitted.members == full.members?.filter { $0.key != "model" })
    }

    @Test func omittingStillRefusesWhatIsNotAnObject() throws {
        for text in ["[1]", #"{"model": [1, 2"#, #"{"model": "open"#, #"{"a": 1,}"#] {
            #expect(throws: JSONParseError.self) {
                try Array(text.utf8).withUnsafeBufferPointer { try JSONParser.parseObject($0, omitting: "model") }
            }
        }
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object([]))
    }

    /// Every way a text can stop being JSON, with where: line, column (in
    /// Unicode scalars) and byte offset, and what was expected there.
    @Test(arguments: [
        ("{\n  \"a\": 1,\n}", 3, 1, 12, "trailing comma before '}'"),
        ("[1,\n ]", 2, 2, 5, "trailing comma before ']'"),
        ("{\n  \"a\" 1\n}", 2, 7, 8, "expected ':' after the property name \"a\""),
        ("[1, 2", 1, 6, 5, "unexpected end of input; expected ',' or ']' in an array"),
        ("{\"a\": 1 \"b\"", 1, 9, 8, "unexpected '\"'; expected ',' or '}' in an object"),
        ("{\"a\": \"open}", 1, 7, 6, "unterminated string (no closing '\"')"),
        ("[\"bad \\x escape\"]", 1, 7, 6, "invalid escape \\'x'"),
        ("[\"\\", 1, 4, 3, "unterminated escape sequence"),
        ("[\"\\u12G4\"]", 1, 7, 6, "\\u must be followed by four hexadecimal digits"),
        ("[01]", 1, 3, 2, "numbers must not have leading zeros"),
        ("[-]", 1, 3, 2, "unexpected ']'; expected a digit"),
        ("[1.]", 1, 4, 3, "expected a digit after the decimal point"),
        ("[1e+]", 1, 5, 4, "expected a digit in the exponent"),
        ("[1e400]", 1, 2, 1, "the number 1e400 is too large"),
        ("{} x", 1, 4, 3, "unexpected 'x' after the end of the JSON value"),
        ("", 1, 1, 0, "the file is empty; expected a JSON value"),
        (" \n ", 2, 2, 3, "the file is empty; expected a JSON value"),
        ("[\"é\", ?]", 1, 7, 7, "unexpected '?'; expected a value"),
        ("{'a': 1}", 1, 2, 1, "expected a property name in double quotes"),
        ("[tru]", 1, 5, 4, "unexpected ']'; expected 'true'"),
        ("[\"\\ud800\"]", 1, 9, 8, "lone high surrogate \\uD800"),
        ("[\"\\udc00\"]", 1, 9, 8, "lone low surrogate \\uDC00"),
        ("[\"\\ud800\\u0041\"]", 1, 15, 14, "\\uD800 must be followed by a low surrogate (\\uDC00-\\uDFFF), not \\u0041"),
        ("[\"a\u{01}b\"]", 1, 4, 3, "control character U+0001 inside a string"),
        ("[1]\u{FEFF}", 1, 4, 3, "unexpected '\u{FEFF}' after the end of the JSON value")
    ])
    func reportsWhereAndWhatWasExpected(text: String, line: Int, column: Int, byteOffset: Int, reason: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.byteOffset == byteOffset && error.reason.contains(reason)
        }
    }

    @Test func invalidUTF8InAStringIsReportedAtItsOpeningQuote() {
        #expect(throws: JSONParseError(line: 1, column: 2, byteOffset: 1, reason: "the string is not valid UTF-8")) {
            try JSONParser.parse([UInt8(ascii: "["), 0x22, 0xC3, 0x28, 0x22, UInt8(ascii: "]")])
        }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test func theByteOffsetCountsAByteOrderMarkAndTheColumnDoesNot() {
        #expect(throws: JSONParseError(line: 1, column: 3, byteOffset: 5, reason: "unexpected ']' after the end of the JSON value")) {
            try JSONParser.parse([0xEF, 0xBB, 0xBF, UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "]")])
        }
    }

    @Test func numbersKeepTheirTextWithinADoublesRange() throws {
        let big = "123456789012345678901234567890"
        #expect(
            try JSONParser.parse("[\(big), -0, -0.0e-0, 1E3, 1e-400, 5e-324]")
                == .array([.number(big), .number("-0"), .number("-0.0e-0"), .number("1E3"), .number("1e-400"), .number("5e-324")]))
        let largest = "1" + String(repeating: "0", count: 308)
        #expect(try JSONParser.parse(largest) == .number(largest))
        #expect(throws: JSONParseError.self) { try JSONParser.parse(largest + "0") }
        #expect(try JSONParser.parse("1.7976931348623157e308") == .number("1.7976931348623157e308"))
        #expect(throws: JSONParseError.self) { try JSONParser.parse("-1.7976931348623159e308") }
        // Foundation overlooks this one (it never converts a value a repeated key replaces); this reader does not.
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a": 1e400, "a": 1}"#) }
    }

    @Test func readsFiveHundredAndTwelveLevelsAndNoMore() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONParser.parse(deepest).elements?.count == 1)
        let objects = String(repeating: "{\"a\":", count: 256) + String(repeating: "[", count: 256) + String(repeating: "]", count: 256) + String(repeating: "}", count: 256)
        _ = try JSONParser.parse(objects)
        #expect(throws: JSONParseError(line: 1, column: 513, byteOffset: 512, reason: "nested more than 512 levels deep")) {
            try JSONParser.parse(String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
        }
    }

    @Test func readsABufferAsItReadsAnArray() throws {
        let bytes = Array(#"{"k": ["v", 1, true, null]}"#.utf8)
        let fromBuffer = try bytes.withUnsafeBufferPointer { buffer in Result { () throws(JSONParseError) in try JSONParser.parse(buffer) } }.get()
        #expect(fromBuffer == (try JSONParser.parse(bytes)))
    }

    @Test func aKeyGivenTwiceTakesItsLastValueAtItsFirstPosition() throws {
        // The issue's case: Python's json and OpenAI's server count "two two two".
        let text = try JSONParser.parse(#"{"text":"one","text":"two two two"}"#)
        #expect(text.members == [JSONMember("text", .string("two two two"))])
        #expect(text["text"] == .string("two two two"))
        // Where a Python dict keeps the key: first position, last value.
        let value = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3, "a": {"c": [], "c": true}}"#)
        #expect(value.members == [JSONMember("a", .object([JSONMember("c", .bool(true))])), JSONMember("b", .number("2"))])
    }

    @Test func aKeyRepeatedInALargeObjectTakesItsLastValue() throws {
        // Beyond the objects whose keys are compared one by one: a vocabulary-sized one.
        let keys = (0..<40).map { "\"k\($0)\": \($0)" }
        let value = try JSONParser.parse("{" + (keys + [#""k3": "late", "k39": "later", "k40": 40"#]).joined(separator: ", ") + "}")
        let members = try #require(value.members)
        #expect(members.count == 41)
        #expect(members[3] == JSONMember("k3", .string("late")))
        #expect(members[39] == JSONMember("k39", .string("later")))
        #expect(members[40] == JSONMember("k40", .number("40")))
        #expect(members.filter { $0.key == "k3" }.count == 1)
    }

    @Test func aValueBuiltWithARepeatedKeyIsLookedUpAsTheParserReadsIt() {
        let built = OrderedJSON.object([JSONMember("a", .number("1")), JSONMember("a", .number("2"))])
        #expect(built["a"] == .number("2"))
        #expect(built.value(at: [.key("a")]) == .number("2"))
    }

    @Test func refusesDeepNestingInsteadOfOverflowingTheStack() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test func rawControlCharactersInStringsAreErrors() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[\"a\u{01}b\"]") }
    }
}
