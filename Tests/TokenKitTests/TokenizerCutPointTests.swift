import Foundation
import TestSupport
import Testing
@testable import TokenKit

/// Which tokenizers may be cut at piece boundaries and counted in parts: the
/// answers ContextKit used to get by re-reading the model file's header.
@Suite struct TokenizerCutPointTests {
    static let r50kFile = TestRepository.root.appendingPathComponent("Sources/TokenKit/Resources/r50k_base.tiktoken")

    @Test(arguments: ["cl100k_base", "o200k_base", "r50k_base", "p50k_base", "gpt2"])
    func builtInEncodingsHaveProvenCuts(name: String) throws {
        #expect(try Tokenizer.named(name).pieceBoundary != nil)
    }

    @Test func aTiktokenFileHasProvenCuts() throws {
        #expect(try Tokenizer.load(contentsOf: Self.r50kFile).pieceBoundary != nil)
    }

    @Test func aTiktokenVocabularyWithAnICUPatternHasNoProvenCuts() throws {
        let tokenizer = try Tokenizer(contentsOf: Self.r50kFile, preTokenizer: .regex(try RegexPreTokenizer(pattern: #"\S+|\s+"#)))
        #expect(tokenizer.pieceBoundary == nil)
    }

    @Test(arguments: OpenModelFixtures.vocabularies())
    func aGGUFModelIsCountedWhole(vectors: OpenModelFixtures.VocabularyVectors) throws {
        #expect(try Tokenizer.load(contentsOf: vectors.gguf).pieceBoundary == nil)
    }

    @Test(arguments: ["qwen3.tokenizer.json", "claude-legacy.tokenizer.json"])
    func aTokenizerJSONIsCountedWhole(file: String) throws {
        #expect(try Tokenizer.load(contentsOf: OpenModelFixtures.hfFolder.appendingPathComponent(file)).pieceBoundary == nil)
    }

    /// A cut could fall inside `<|a b|>` when special tokens are parsed.
    @Test func aSpecialTokenWithASpaceStopsCutsWhenSpecialsAreParsed() throws {
        let tokenizer = try Tokenizer(contentsOf: Self.r50kFile, preTokenizer: .r50k, specialTokens: ["<|a b|>": 50_300])
        #expect(tokenizer.pieceBoundary(allowedSpecial: .all) == nil)
    }

    @Test func aSpecialTokenWithASpaceLeavesCutsInPlainText() throws {
        let tokenizer = try Tokenizer(contentsOf: Self.r50kFile, preTokenizer: .r50k, specialTokens: ["<|a b|>": 50_300])
        #expect(tokenizer.pieceBoundary(allowedSpecial: .plainText) != nil)
    }
}
