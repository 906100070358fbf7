import Testing
@testable import ContextKitJSON

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

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object([]))
    }

    @Test(arguments: [
        ("{\n  \"a\": 1,\n}", 3, 1, "trailing comma"),
        ("{\n  \"a\" 1\n}", 2, 7, "expected ':'"),
        ("[1, 2", 1, 6, "end of input"),
        ("{\"a\": \"open}", 1, 7, "unterminated string"),
        ("[\"bad \\x escape\"]", 1, 7, "invalid escape"),
        ("[01]", 1, 3, "leading zeros"),
        ("{} x", 1, 4, "after the end"),
        ("", 1, 1, "empty"),
        ("[\"é\", ?]", 1, 7, "'?'"),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("[1.]", 1, 4, "decimal point"),
        ("[\"\\ud800\"]", 1, 9, "surrogate"),
    ])
    func reportsLineAndColumn(text: String, line: Int, column: Int, reason: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == line && error.column == column && error.reason.contains(reason)
        }
    }

    @Test func refusesDeepNestingInsteadOfOverflowingTheStack() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test func rawControlCharactersInStringsAreErrors() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[\"a\u{01}b\"]") }
    }
}
