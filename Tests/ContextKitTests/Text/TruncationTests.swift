import ContextKit
import Foundation
import TestSupport
import Testing

/// `truncate(_:to:at:)`: the longest prefix whose own count is within the
/// limit, cut where asked, checked against every cut point of the text.
@Suite struct TruncationTests {
    static let texts: [String] = {
        var fuzz = TextFuzz(seed: 18)
        let random = (0..<12).map { _ in String(decoding: fuzz.text(fragments: 30), as: UTF8.self) }
        return [
            "The lighthouse keeper wound the clockwork every four hours, as his father had done.\nThen he slept.",
            "灯塔看守人每四个小时给发条上一次弦。Ship it 🚢👩‍💻🏽 — done ✅!!",
            "func count(_ s: String) -> Int {\n    s.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }\n}\n",
            "e\u{301}e\u{301}e\u{301} 🇫🇷🇩🇪 naïve"
        ] + random
    }()

    /// Byte offsets where a cut at `boundary` may fall, the end included.
    static func cuts(_ text: String, _ boundary: TruncationBoundary) -> [Int] {
        var out: [Int] = [0]
        var offset = 0
        switch boundary {
        case .character:
            for s in text.unicodeScalars { offset += s.utf8.count; out.append(offset) }
        case .grapheme:
            for c in text { offset += c.utf8.count; out.append(offset) }
        case .word, .line:
            return []  // checked by their own properties below
        }
        return out
    }

    @Test(arguments: ["cl100k_base", "o200k_base"])
    func theCutIsTheLongestPrefixThatFits(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        var compared = 0
        for text in Self.texts {
            let total = tokenizer.count(text)
            for limit in Set([0, 1, 2, 3, total / 3, total / 2, total - 1, total, total + 5]) where limit >= 0 {
                for boundary in [TruncationBoundary.character, .grapheme] {
                    let cut = try tokenizer.truncate(text, to: limit, at: boundary)
                    let cuts = Self.cuts(text, boundary)
                    let best = cuts.last { end in tokenizer.count(String(decoding: Array(text.utf8)[..<end], as: UTF8.self)) <= limit }!
                    #expect(cut.bytes == best, "\(encoding) \(boundary) limit \(limit): \(cut.bytes) vs \(best) in \(text.debugDescription)")
                    #expect(cuts.contains(cut.bytes))
                    #expect(cut.tokens == tokenizer.count(cut.text) && cut.tokens <= max(limit, 0))
                    #expect(cut.wasCut == (cut.bytes < text.utf8.count))
                    #expect(Array(text.utf8).starts(with: Array(cut.text.utf8)))
                    compared += 1
                }
            }
        }
        #expect(compared > 100)
    }

    @Test func wordAndLineCutsFallWhereAsked() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let text = "alpha beta gamma delta\nepsilon zeta eta\ntheta iota kappa lambda mu"
        for limit in 1..<tokenizer.count(text) {
            let word = try tokenizer.truncate(text, to: limit, at: .word)
            #expect(word.tokens <= limit)
            if word.bytes > 0 { #expect(Array(text.utf8)[word.bytes] == 0x20 || Array(text.utf8)[word.bytes - 1] == 0x0A) }
            let line = try tokenizer.truncate(text, to: limit, at: .line)
            #expect(line.tokens <= limit)
            #expect(line.bytes == 0 || Array(text.utf8)[line.bytes - 1] == 0x0A)
            #expect(line.bytes <= word.bytes)
        }
    }

    @Test func zeroAndHugeLimits() throws {
        let tokenizer = try Tokenizer.named("o200k_base")
        #expect(try tokenizer.truncate("hello world", to: 0) == Truncation(text: "", bytes: 0, tokens: 0, wasCut: true))
        #expect(try tokenizer.truncate("hello world", to: -5).text == "")
        #expect(try tokenizer.truncate("hello world", to: Int.max) == Truncation(text: "hello world", bytes: 11, tokens: 2, wasCut: false))
        #expect(try tokenizer.truncate("", to: 0) == Truncation(text: "", bytes: 0, tokens: 0, wasCut: false))
    }
}

/// `spans(_:)`: each token's byte range as the tokenizer gives it, and the
/// characters it touches.
@Suite struct TokenSpanTests {
    @Test(arguments: ["cl100k_base", "o200k_base", "r50k_base"])
    func spansMatchTheTokensAndTheirCharacters(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        for text in TruncationTests.texts {
            let spans = try tokenizer.spans(text)
            #expect(spans.map(\.id) == tokenizer.encodeOrdinary(text))
            // A character index for each byte: the scalar it belongs to.
            var owner: [Int] = []
            for (k, s) in text.unicodeScalars.enumerated() { owner += Array(repeating: k, count: s.utf8.count) }
            var end = 0
            for span in spans {
                #expect(span.bytes.lowerBound == end)
                end = span.bytes.upperBound
                #expect(span.characters.lowerBound == owner[span.bytes.lowerBound])
                #expect(span.characters.upperBound == owner[span.bytes.upperBound - 1] + 1)
            }
            #expect(end == text.utf8.count)
        }
    }

    @Test func aByteLevelTokenInsideACharacterSharesIt() throws {
        // r50k cuts "🚢" into byte tokens: they share one character.
        let spans = try Tokenizer.named("r50k_base").spans("🚢")
        #expect(spans.count > 1)
        #expect(spans.allSatisfy { $0.characters == 0..<1 })
    }
}
