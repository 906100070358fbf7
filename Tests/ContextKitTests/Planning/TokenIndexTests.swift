import Testing
@testable import ContextKit

struct TokenIndexTests {
    /// The safe-cut argument of `TokenIndex`: a slice between two safe cuts
    /// costs exactly the indexed tokens between them.
    @Test(arguments: ["cl100k_base", "o200k_base", "r50k_base"])
    func indexedCountsAreExactAtSafeCuts(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        var random = PlanningTexts(seed: 7)
        let bytes = Array(random.document(paragraphs: 60).utf8)
        try bytes.withUnsafeBufferPointer { text in
            let index = TokenIndex(tokenizer: tokenizer, utf8: text)
            #expect(index.proxyCount == tokenizer.count(utf8: text))
            let boundary = try #require(PieceBoundary(tokenizer.preTokenizer))
            let cuts = [0] + (1..<text.count).filter { boundary.isSafe(text, at: $0) } + [text.count]
            var checked = 0
            for _ in 0..<300 {
                let a = cuts[random.below(cuts.count)], b = cuts[random.below(cuts.count)]
                guard a < b, index.isExactlyIndexed(a..<b, text: text) else { continue }
                let slice = UnsafeBufferPointer(rebasing: text[a..<b])
                #expect(index.exactTokens(in: a..<b, text: text).proxy == tokenizer.count(utf8: slice), "\(a)..<\(b)")
                #expect(index.tokens(in: a..<b) == tokenizer.count(utf8: slice), "\(a)..<\(b)")
                checked += 1
            }
            #expect(checked > 100)
        }
    }

    @Test func unsafeCutsAreRecounted() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let bytes = Array("internationalization internationalization".utf8)
        bytes.withUnsafeBufferPointer { text in
            let index = TokenIndex(tokenizer: tokenizer, utf8: text)
            let cut = 0..<19  // inside a word: not a safe cut
            #expect(!index.isExactlyIndexed(cut, text: text))
            #expect(index.exactTokens(in: cut, text: text).proxy == tokenizer.count(utf8: UnsafeBufferPointer(rebasing: text[cut])))
        }
    }

    @Test func reachAndEarliestStartAreInverse() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let bytes = Array(String(repeating: "one two three four five six. ", count: 50).utf8)
        bytes.withUnsafeBufferPointer { text in
            let index = TokenIndex(tokenizer: tokenizer, utf8: text)
            for n in [1, 7, 40, 200] {
                let end = index.reach(from: 0, maxTokens: n)
                #expect(index.tokens(in: 0..<end) == n)
                #expect(index.earliestStart(to: end, maxTokens: n) == 0)
                #expect(index.offset(afterTokens: n, from: 0) == end)
            }
            #expect(index.reach(from: 0, maxTokens: 1_000_000) == text.count)
        }
    }

    @Test func estimatedCountsUseTheEstimate() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let estimate = TokenEstimate(method: "test", factor: 1.216, proxyTokensPerCJKCharacter: 1.35, tokensPerCJKCharacter: 1, errorBar: 0.15)
        let text = "灯台の光が海を照らす。 And the lamp turns."
        var copy = text
        copy.withUTF8 { buffer in
            let index = TokenIndex(tokenizer: tokenizer, utf8: buffer, estimate: estimate)
            let cjk = TextStats(scanning: buffer).cjkCharacters
            #expect(index.count == estimate.tokens(proxyTokens: tokenizer.count(text), cjkCharacters: cjk))
        }
    }
}

struct TokenIndexPrefixTests {
    @Test(arguments: [1, 5, 17, 64])
    func exactPrefixIsTheLongestThatFits(maxTokens: Int) throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        var random = PlanningTexts(seed: UInt64(maxTokens))
        let bytes = Array(random.document(paragraphs: 8).utf8)
        bytes.withUnsafeBufferPointer { text in
            let index = TokenIndex(tokenizer: tokenizer, utf8: text)
            var from = 0
            while from < text.count {
                let (end, tokens) = index.exactPrefix(from: from, maxTokens: maxTokens, text: text)
                guard end > from else { break }  // one character costs more than maxTokens
                #expect(tokens == tokenizer.count(utf8: UnsafeBufferPointer(rebasing: text[from..<end])))
                #expect(tokens <= maxTokens)
                #expect(end == text.count || text[end] & 0xC0 != 0x80)
                from = end
            }
        }
    }
}
