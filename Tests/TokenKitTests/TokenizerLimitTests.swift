import Foundation
import Testing
@testable import TokenKit

/// `count(utf8:limit:allowedSpecial:)` and `firstToken(utf8:allowedSpecial:where:)`
/// against the plain encode, on the peers' fixtures and on seeded random text.
@Suite struct TokenizerLimitTests {
    /// A text and the policy its fixture encodes it with.
    struct Sample {
        let bytes: [UInt8]
        let special: SpecialTokenPolicy
    }

    /// Up to `count` of a fixture file's texts of at most 16 KiB (the longer
    /// ones would only slow a debug run), then 150 seeded random texts.
    static func samples(fixture: String, seed: UInt64, count: Int = 400) throws -> [Sample] {
        let cases = try TokenFixture.load(path: fixture).filter { $0.text.utf8.count <= 16_384 }
        let picked = stride(from: 0, to: cases.count, by: max(1, cases.count / count)).map { cases[$0] }
        var random = RandomText(seed: seed)
        return picked.map { Sample(bytes: Array($0.text.utf8), special: $0.allowsAllSpecial ? .all : .plainText) }
            + (0..<150).map { _ in Sample(bytes: Array(random.text(maxPieces: 60).utf8), special: .plainText) }
    }

    static let tokenizers: [(name: String, fixture: String, load: @Sendable () throws -> Tokenizer)] = [
        ("cl100k_base", "tiktoken/cl100k_base.jsonl", { try Tokenizer.named("cl100k_base") }),
        ("o200k_base", "tiktoken/o200k_base.jsonl", { try Tokenizer.named("o200k_base") }),
        ("r50k_base", "tiktoken/r50k_base.jsonl", { try Tokenizer.named("r50k_base") }),
        ("qwen3 tokenizer.json", "openmodels/qwen3.jsonl", { try Tokenizer.load(contentsOf: OpenModelFixtures.hfFolder.appendingPathComponent("qwen3.tokenizer.json")) }),
        (
            "claude-legacy tokenizer.json", "openmodels/claude-legacy.jsonl",
            { try Tokenizer.load(contentsOf: OpenModelFixtures.hfFolder.appendingPathComponent("claude-legacy.tokenizer.json")) }
        )
    ]

    static let names = tokenizers.map(\.name)

    static func setUp(_ name: String) throws -> (Tokenizer, [Sample]) {
        let (index, entry) = tokenizers.enumerated().first { $0.element.name == name }!
        return (try entry.load(), try samples(fixture: entry.fixture, seed: UInt64(11 + index)))
    }

    /// Under, at and over the text's own count: the count, or nil once passed.
    @Test(arguments: names)
    func countToALimitIsTheCountOrNil(name: String) throws {
        let (tokenizer, samples) = try Self.setUp(name)
        for sample in samples {
            try sample.bytes.withUnsafeBufferPointer { text in
                let n = try tokenizer.count(utf8: text, allowedSpecial: sample.special).tokens
                for limit in Set([0, n / 2, n - 1, n, n + 1]) where limit >= 0 {
                    let expected: Int? = n <= limit ? n : nil
                    #expect(
                        try tokenizer.count(utf8: text, limit: limit, allowedSpecial: sample.special) == expected,
                        "\(name), limit \(limit), \(n) tokens: \(Array(sample.bytes.prefix(80)))")
                }
            }
        }
    }

    /// Token N found by the search is token N of the plain encode: same id, same bytes.
    @Test(arguments: names)
    func firstTokenPastNIsTokenNOfTheEncode(name: String) throws {
        let (tokenizer, samples) = try Self.setUp(name)
        for sample in samples {
            try sample.bytes.withUnsafeBufferPointer { text in
                let tokens = try tokenizer.tokens(utf8: text, allowedSpecial: sample.special)
                for n in Set([0, tokens.count / 3, tokens.count - 1]) where n >= 0 && n < tokens.count {
                    let found = try tokenizer.firstToken(utf8: text, allowedSpecial: sample.special) { k, _ in k > n }
                    #expect(found?.token == tokens[n], "\(name), token \(n) of \(tokens.count): \(Array(sample.bytes.prefix(80)))")
                }
            }
        }
    }

    /// The search's `n` counts the tokens up to and including the one it returns.
    @Test func firstTokenNumbersTheTokenItReturns() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        var text = "hello world, hello worlds!"
        let found = try text.withUTF8 { try tokenizer.firstToken(utf8: $0) { k, _ in k > 3 } }
        #expect(found?.n == 4)
    }

    @Test(arguments: names)
    func noTokenPastTheEndIsFound(name: String) throws {
        let (tokenizer, samples) = try Self.setUp(name)
        for sample in samples.prefix(60) {
            try sample.bytes.withUnsafeBufferPointer { text in
                let n = try tokenizer.count(utf8: text, allowedSpecial: sample.special).tokens
                #expect(try tokenizer.firstToken(utf8: text, allowedSpecial: sample.special) { k, _ in k > n } == nil)
            }
        }
    }

    /// Encoding stops at the first piece past the limit: special-token text
    /// after it is never reached, so it is not refused.
    @Test func countingStopsAtTheFirstPiecePastTheLimit() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        var text = "one two <|endoftext|> three <|endofprompt|>"
        let count = try text.withUTF8 { try tokenizer.count(utf8: $0, limit: 1, allowedSpecial: .only(["<|endoftext|>"])) }
        #expect(count == nil)
    }
}
