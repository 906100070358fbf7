import ContextKit
import Foundation
import TestSupport
import TokenKit
import Testing

/// A GGUF model file is a profile by itself: its window, tokenizer and the
/// overheads its chat template adds, each with where it came from.
@Suite struct ModelProfileGGUFTests {
    static let gpt2Vocabulary = GGUFFixtures.gpt2Vocabulary

    static func vocabularyWithoutContextLength(in dir: TempDir) throws -> URL {
        let url = dir.url.appendingPathComponent("no-window.gguf")
        try GGUFFixtures.writeVocabularyWithoutContextLength(to: url)
        return url
    }

    static func modelFileReason(_ body: () throws -> ModelProfile) -> String? {
        do {
            _ = try body()
            return nil
        } catch let ProfileError.modelFile(_, reason) {
            return reason
        } catch {
            return "another error: \(error)"
        }
    }

    @Test func aVocabularyFileGivesItsContextLengthAsTheWindow() throws {
        #expect(try ModelProfile(gguf: Self.gpt2Vocabulary).contextWindow == 1_024)
    }

    @Test func theTokenizerIsTheFileItself() throws {
        #expect(try ModelProfile(gguf: Self.gpt2Vocabulary).tokenizer == .file(Self.gpt2Vocabulary.path))
    }

    @Test func noChatTemplateMeansNoOverheads() throws {
        #expect(try ModelProfile(gguf: Self.gpt2Vocabulary).overheads == .init())
    }

    @Test func provenanceNamesTheContextLengthKey() throws {
        #expect(try ModelProfile(gguf: Self.gpt2Vocabulary).provenance.first == "window from gpt2.context_length")
    }

    @Test func provenanceSaysTheTemplateIsMissing() throws {
        #expect(try ModelProfile(gguf: Self.gpt2Vocabulary).provenance.last == "overheads 0: the file has no tokenizer.chat_template")
    }

    @Test func aFileWithoutAContextLengthIsRefusedWithWhatToDo() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let url = try Self.vocabularyWithoutContextLength(in: dir)
        let reason = Self.modelFileReason { try ModelProfile(gguf: url) }
        #expect(reason == "it has no gpt2.context_length, so its context window is unknown; give it with --window N")
    }

    @Test func aGivenWindowStandsInForAMissingContextLength() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let url = try Self.vocabularyWithoutContextLength(in: dir)
        #expect(try ModelProfile(gguf: url, contextWindow: 4_096).contextWindow == 4_096)
    }

    @Test func aGivenWindowIsRecordedAsTheSource() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let url = try Self.vocabularyWithoutContextLength(in: dir)
        #expect(try ModelProfile(gguf: url, contextWindow: 4_096).provenance.first == "window from --window")
    }

    /// Qwen2's vocabulary file with its chat template overwritten in place (same
    /// length, so the header stays valid) by `template`, padded with spaces.
    static func qwen2(withTemplate template: String, in dir: TempDir) throws -> URL {
        let original = TestRepository.gguf.appendingPathComponent("ggml-vocab-qwen2.gguf")
        var data = try Data(contentsOf: original)
        let source = try #require(try GGUFFile(contentsOf: original).chatTemplate)
        let at = try #require(data.range(of: Data(source.utf8)))
        let replacement = Data((template + String(repeating: " ", count: max(source.utf8.count - template.utf8.count, 0))).utf8)
        try #require(replacement.count == at.count)
        data.replaceSubrange(at, with: replacement)
        let url = dir.url.appendingPathComponent("hostile-template.gguf")
        try data.write(to: url)
        return url
    }

    @Test func aTemplateThatFailsLeavesTheTokenizerUsableWithUnknownOverheads() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let url = try Self.qwen2(withTemplate: "{{ 9223372036854775807 + 1 }}", in: dir)
        let profile = try ModelProfile(gguf: url, contextWindow: 4_096)
        #expect(profile.tokenizer == .file(url.path))
        #expect(profile.overheads == .init())
        #expect(profile.provenance.last?.hasPrefix("overheads unknown, counted as 0: its chat template cannot be rendered (line 1: 9223372036854775807 + 1 overflows") == true)
        #expect(try Tokenizer.load(contentsOf: url).count("hello world") == 2)
    }

    @Test func aTemplateThatCannotBeReadLeavesTheTokenizerUsableWithUnknownOverheads() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let url = try Self.qwen2(withTemplate: "{% macro x() %}{% endmacro %}", in: dir)
        let profile = try ModelProfile(gguf: url, contextWindow: 4_096)
        #expect(profile.overheads == .init())
        #expect(profile.provenance.last?.contains("its chat template cannot be rendered (line 1: the statement {% macro %} is not supported)") == true)
    }

    @Test func builtInProfilesHaveNoProvenance() throws {
        #expect(try ProfileCatalog.builtIn().profile(named: "gpt-4o").provenance.isEmpty)
    }

    // MARK: The resolver

    @Test func theCatalogResolvesAPathToAGGUFFile() throws {
        let profile = try ProfileCatalog.builtIn().profile(named: Self.gpt2Vocabulary.path)
        #expect(profile == (try ModelProfile(gguf: Self.gpt2Vocabulary)))
    }

    @Test func aGGUFIsKnownByItsContentNotItsName() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let renamed = dir.url.appendingPathComponent("vocabulary.bin")
        try FileManager.default.copyItem(at: Self.gpt2Vocabulary, to: renamed)
        #expect(try ProfileCatalog.builtIn().profile(named: renamed.path).contextWindow == 1_024)
    }

    @Test func aFileThatIsNotGGUFIsRefusedEvenWithTheExtension() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let fake = dir.url.appendingPathComponent("model.gguf")
        try Data("not a model\n".utf8).write(to: fake)
        let reason = Self.modelFileReason { try ProfileCatalog.builtIn().profile(named: fake.path) }
        #expect(reason?.hasPrefix("it is not a GGUF model") == true)
    }

    @Test func anUnknownNameKeepsTheUnknownProfileError() throws {
        let catalog = try ProfileCatalog.builtIn()
        #expect(throws: ProfileError.unknownProfile(name: "no-such-model-or-file", known: catalog.profiles.map(\.name))) {
            try catalog.profile(named: "no-such-model-or-file")
        }
    }
}

/// SmolLM2's own file: window, overheads and where they came from. The
/// numbers were checked against the file: llama.context_length is 8,192, and
/// llama.cpp's llama-tokenize counts 30 tokens for the template's prompt of one
/// empty user message (default system prompt included) and 36 for a user and
/// an assistant message. Skipped only outside CI when the model is not installed.
@Suite(.enabled(if: LlamaServer.shouldRun, "the SmolLM2 model is not installed (scripts/llama-server install)"))
struct SmolLM2ProfileTests {
    static func profile() throws -> ModelProfile { try ModelProfile(gguf: try LlamaServer.modelPath()) }

    @Test func theWindowIsTheTrainedContextLength() throws {
        #expect(try Self.profile().contextWindow == 8_192)
    }

    @Test func eachFurtherMessageAddsItsFraming() throws {
        #expect(try Self.profile().overheads.perMessage == 6)
    }

    @Test func perRequestIsTheRestOfAnEmptyMessagesFraming() throws {
        #expect(try Self.profile().overheads.perRequest == 24)
    }

    @Test func oneMessagesOverheadIsTheTemplatesPromptForAnEmptyMessage() throws {
        let predictor = try PromptPredictor(gguf: try LlamaServer.modelPath())
        #expect(try Self.profile().overheads.request(messages: 1) == predictor.promptTokens([.init(role: "user", content: "")]))
    }

    @Test func provenanceSaysWhereEachNumberCameFrom() throws {
        #expect(try Self.profile().provenance == ["window from llama.context_length", "overheads from tokenizer.chat_template"])
    }
}

/// A GGUF model's chat template is counted with the model's own tokenizer,
/// whatever tokenizer counts plain text (`tokcount -m MODEL.gguf -e NAME --chat`).
@Suite struct GGUFTemplateTokenizerTests {
    @Test func theTemplateCountsWithTheModelsTokenizerWhenAnotherCountsText() throws {
        let profile = try ModelProfile(gguf: TestRepository.gguf.appendingPathComponent("ggml-vocab-qwen2.gguf"), contextWindow: 4_096)
        let conversation = try Conversation(json: #"{"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi there"}]}"#)
        let own = try ConversationCounter(profile: profile).count(conversation)
        let otherText = try ConversationCounter(profile: profile, tokenizer: Tokenizer.named("cl100k_base")).count(conversation)
        #expect(own.renderedPrompt?.contains("<|im_start|>") == true)
        #expect(otherText.total == own.total)
        #expect(otherText.renderedPrompt == own.renderedPrompt)
    }
}
