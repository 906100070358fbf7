import ContextKit
import Testing

@Suite struct FitReportTests {
    let text = "one two three four five\nsix seven eight nine ten\neleven twelve\n"

    func measure(window: Int, overhead: Int = 0, reserve: Int = 0, estimate: TokenEstimate? = nil) throws -> FitReport {
        let t = try Tokenizer.named("cl100k_base")
        return try Array(text.utf8).withUnsafeBufferPointer {
            try FitReport.measure(utf8: $0, tokenizer: t, budget: TokenBudget(window: window, requestOverhead: overhead, reserve: reserve), estimate: estimate)
        }
    }

    @Test func fits() throws {
        let r = try measure(window: 100)
        #expect(r.textTokens == 16)
        #expect(r.fits && r.spare == 84 && r.overflow == 0 && r.firstTokenPast == nil)
    }

    /// Token 8 of the text is " seven": line 2, column 4.
    @Test func overflowNamesTheFirstTokenPastTheWindow() throws {
        let r = try measure(window: 10, overhead: 2, reserve: 1)
        #expect(!r.fits && r.used == 19 && r.overflow == 9)
        let p = try #require(r.firstTokenPast)
        #expect(p.token == 8)
        #expect(p.position == TextPosition(byteOffset: 27, characterOffset: 27, line: 2, column: 4))
    }

    @Test func aTokenStartingInsideACharacterReportsThatCharacter() throws {
        let t = try Tokenizer.named("cl100k_base")
        let text = Array("ab\n𝔘𝔫𝔦𝔠𝔬𝔡𝔢".utf8)
        let tokens = try text.withUnsafeBufferPointer { try t.tokens(utf8: $0) }
        // Find a token that starts inside a 4-byte character.
        let k = try #require(tokens.firstIndex { $0.bytes.lowerBound > 3 && ($0.bytes.lowerBound - 3) % 4 != 0 })
        let r = try text.withUnsafeBufferPointer { try FitReport.measure(utf8: $0, tokenizer: t, budget: TokenBudget(window: k)) }
        let p = try #require(r.firstTokenPast)
        #expect(p.token == k + 1)
        #expect(p.position.byteOffset == tokens[k].bytes.lowerBound)
        #expect(p.position.line == 2 && p.position.column == (tokens[k].bytes.lowerBound - 3) / 4 + 1)
    }

    @Test func estimatesScaleTheProxyCount() throws {
        let e = TokenEstimate(method: "test", factor: 2, errorBar: 0.1)
        let r = try measure(window: 20, estimate: e)
        #expect(r.textTokens == 32)
        #expect(r.firstTokenPast?.token == 21)
        // 2 × 11 tokens > 20: the 11th, " ten", at line 2, column 21.
        #expect(r.firstTokenPast?.position == TextPosition(byteOffset: 44, characterOffset: 44, line: 2, column: 21))
    }
}
