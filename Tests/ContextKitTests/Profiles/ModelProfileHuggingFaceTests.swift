import ContextKit
import Foundation
import TestSupport
import Testing

/// A Hugging Face model folder (or a tokenizer.json in one) is a profile by
/// itself; the numbers are those `Tests/Fixtures/hf-profiles/generate.py`
/// computed with jinja2 and Hugging Face `tokenizers`.
@Suite struct ModelProfileHuggingFaceTests {
    static let miniLM = TestRepository.fixtures.appendingPathComponent("wordpiece/all-minilm-l6-v2")
    static let profiles = TestRepository.fixtures.appendingPathComponent("hf-profiles")

    struct Expected: Decodable {
        let contextWindow: Int
        let perRequest: Int
        let perMessage: Int
    }

    static func expected(_ name: String) throws -> Expected {
        let data = try Data(contentsOf: profiles.appendingPathComponent("expected.json"))
        return try #require(try JSONDecoder().decode([String: Expected].self, from: data)[name])
    }

    /// The Qwen3 folder: this repository's config files with Qwen3's tokenizer.json from the reference data.
    static func qwen3Folder(in dir: TempDir) throws -> URL {
        let folder = dir.url.appendingPathComponent("qwen3-chat")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["config.json", "tokenizer_config.json"] {
            try FileManager.default.copyItem(at: profiles.appendingPathComponent("qwen3-chat/\(name)"), to: folder.appendingPathComponent(name))
        }
        try FileManager.default.copyItem(
            at: TestRepository.huggingFace.appendingPathComponent("qwen3.tokenizer.json"),
            to: folder.appendingPathComponent("tokenizer.json"))
        return folder
    }

    @Test func anEmbeddingModelFolderGivesItsWindowAndSpecialTokens() throws {
        let expected = try Self.expected("all-minilm-l6-v2")
        for url in [Self.miniLM, Self.miniLM.appendingPathComponent("tokenizer.json")] {
            let profile = try ProfileCatalog.builtIn().profile(named: url.path)
            #expect(profile.name == "all-minilm-l6-v2")
            #expect(profile.contextWindow == expected.contextWindow)
            #expect(profile.overheads == .init(perRequest: expected.perRequest, perMessage: expected.perMessage))
            #expect(profile.tokenizer == .file(Self.miniLM.appendingPathComponent("tokenizer.json").path))
            #expect(
                profile.provenance == [
                    "window from config.json max_position_embeddings",
                    "overheads 2: no chat template; the post-processor adds [CLS] … [SEP] around each input"
                ])
        }
    }

    @Test func aChatModelFolderGivesItsTemplateOverheads() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }  // the folder goes when the test ends
        let folder = try Self.qwen3Folder(in: dir)
        let expected = try Self.expected("qwen3-chat")
        let profile = try ModelProfile(huggingFace: folder)
        #expect(profile.contextWindow == expected.contextWindow)
        #expect(profile.overheads == .init(perRequest: expected.perRequest, perMessage: expected.perMessage))
        #expect(profile.provenance == ["window from config.json max_position_embeddings", "overheads from tokenizer_config.json chat_template"])
        #expect(profile.summary == "Hugging Face model folder, qwen3, Qwen3ForCausalLM")
    }

    @Test func aGivenWindowWins() throws {
        let profile = try ModelProfile(huggingFace: Self.miniLM, contextWindow: 256)
        #expect(profile.contextWindow == 256)
        #expect(profile.provenance.first == "window from --window")
    }

    @Test func aTokenizerJSONAloneIsRefusedWithWhatToDo() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }
        let path = try dir.write("tokenizer.json", try String(contentsOf: Self.miniLM.appendingPathComponent("tokenizer.json"), encoding: .utf8))
        #expect(
            throws: ProfileError.modelFile(
                path: path,
                reason: "there is no config.json or tokenizer_config.json beside it, so nothing gives a window or a template (to count with the tokenizer alone, use -e FILE)")
        ) {
            try ProfileCatalog.builtIn().profile(named: path)
        }
    }

    @Test func aFolderWithoutAWindowIsRefusedWithWhatToDo() throws {
        let dir = try TempDir()
        defer { withExtendedLifetime(dir) {} }
        _ = try dir.write("tokenizer.json", try String(contentsOf: Self.miniLM.appendingPathComponent("tokenizer.json"), encoding: .utf8))
        _ = try dir.write("tokenizer_config.json", #"{"model_max_length": 1000000000000000019884624838656}"#)
        #expect(
            throws: ProfileError.modelFile(
                path: dir.url.path,
                reason: "neither config.json (max_position_embeddings) nor tokenizer_config.json (model_max_length) gives a context window; give it with --window N")
        ) {
            try ModelProfile(huggingFace: dir.url)
        }
    }
}
