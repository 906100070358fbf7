import Testing

@testable import TokenKit

@Suite struct AddedTokenMatcherTests {
    /// Every match `firstMatch` finds from the start of `text` on, as (start, end, id).
    static func matches(_ matcher: AddedTokenMatcher, _ text: [UInt8]) -> [[Int]] {
        text.withUnsafeBufferPointer { b in
            var found: [[Int]] = []
            var i = 0
            while let m = matcher.firstMatch(b.baseAddress!, from: i, to: b.count) {
                found.append([m.start, m.end, Int(m.id)])
                i = m.takenEnd
            }
            return found
        }
    }

    /// Leftmost-longest, tried at every byte: what the matcher must agree with.
    static func bruteForce(_ tokens: [[UInt8]], _ text: [UInt8]) -> [[Int]] {
        var found: [[Int]] = []
        var i = 0
        while i < text.count {
            let longest = tokens.indices.filter { text[i...].starts(with: tokens[$0]) }.max { tokens[$0].count < tokens[$1].count }
            if let k = longest {
                found.append([i, i + tokens[k].count, k])
                i += tokens[k].count
            } else {
                i += 1
            }
        }
        return found
    }

    /// Tokens that share their first byte are found by skipping to it; others
    /// by testing each byte. Both give the leftmost-longest matches, on text
    /// full of first bytes that start no token.
    @Test(arguments: [["<|a|>", "<b>", "<|ab|>", "<"], ["<|a|>", "<b>", "[x]", "<|ab|>"]])
    func findsLeftmostLongestMatches(_ tokenTexts: [String]) {
        let tokens = tokenTexts.map { Array($0.utf8) }
        let matcher = AddedTokenMatcher(tokens.enumerated().map { .init(text: $1, id: $0) })
        let parts = ["<", "|", "a", "b", " ", "<|a|>", "<b>", "[x]", "[", "<|ab|>", "<|a", "hello world "]
        var random = RandomText(seed: 41)
        var differing = 0
        for _ in 0..<2000 {
            let text = Array((0..<random.int(41)).map { _ in parts[random.int(parts.count)] }.joined().utf8)
            if Self.matches(matcher, text) != Self.bruteForce(tokens, text) { differing += 1 }
        }
        #expect(differing == 0)
        #expect(Self.matches(matcher, Array("x <|ab|> y".utf8)) == [[2, 8, tokenTexts.firstIndex(of: "<|ab|>")!]])
    }
}
