import Testing
@testable import ToolSupport

/// Whole numbers from the command line stay in their range: a suffix that
/// scales past `Int.max` once trapped, and a token count near 2^63 once
/// trapped further on, in the budget arithmetic.
@Suite struct ValueParserTests {
    @Test func aSuffixThatWouldOverflowIsRefusedNotATrap() {
        let parser = ValueParser<Int>.integer()
        #expect(parser.parse("99999999999999M") == nil)
        #expect(parser.parse("9223372036854775807k") == nil)
        #expect(parser.parse("128k") == 128_000)
        #expect(parser.parse("2M") == 2_000_000)
    }

    @Test func aTokenCountIsAtMostTwoToTheForty() {
        let parser = ValueParser<Int>.tokens(minimum: 1)
        #expect(parser.parse("1099511627776") == 1 << 40)
        #expect(parser.parse("1099511627777") == nil)
        #expect(parser.parse("9223372036854775807") == nil)
        #expect(parser.parse("0") == nil)
        #expect(parser.expected == "a whole number from 1 to 1,099,511,627,776")
    }
}
