import Foundation
import TestSupport
import Testing
import TokenKit

/// `-m MODEL.gguf`: every tool takes a GGUF file as its profile, and tokcount
/// says where the window and overheads came from.
@Suite struct ModelFileCLITests {
    let tokcount = ToolRunner(tool: "tokcount")
    let prose = "The lighthouse keeper wound the clockwork every four hours.\n"
    static let gpt2Vocabulary = GGUFFixtures.gpt2Vocabulary.path

    static func vocabularyWithoutContextLength(in dir: TempDir) throws -> String {
        let path = dir.path("no-window.gguf")
        try GGUFFixtures.writeVocabularyWithoutContextLength(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aVocabularyFileSaysItsTemplateIsMissing() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["-m", Self.gpt2Vocabulary, try dir.write("notes.txt", prose)])
        #expect(r.field("source") == "window from gpt2.context_length; overheads 0: the file has no tokenizer.chat_template")
    }

    /// A Hugging Face model folder (all-MiniLM-L6-v2's tokenizer files) is a profile too.
    @Test func aModelFolderGivesItsWindowAndSpecialTokens() throws {
        let dir = try TempDir()
        let folder = TestRepository.fixtures.appendingPathComponent("wordpiece/all-minilm-l6-v2").path
        let r = try tokcount.run(["-m", folder, try dir.write("notes.txt", prose)])
        #expect(r.status == 0)
        #expect(r.field("fit")?.contains(" of 512 tokens") == true)
        #expect(r.field("source") == "window from config.json max_position_embeddings; overheads 2: no chat template; the post-processor adds [CLS] … [SEP] around each input")
        // tokenizers gives 11 ids: the lighthouse keeper wound the clock ##work every four hours .
        #expect(r.field("tokens")?.hasPrefix("11 ") == true)
    }

    @Test func aVocabularyFileGivesItsWindow() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["-m", Self.gpt2Vocabulary, try dir.write("notes.txt", prose)])
        #expect(r.field("fit")?.contains(" of 1,024 tokens") == true)
    }

    @Test func theJSONProfileCarriesTheProvenance() throws {
        let dir = try TempDir()
        let json = try tokcount.run(["-m", Self.gpt2Vocabulary, "--json", try dir.write("notes.txt", prose)]).json()
        let profile = json["profile"] as? [String: Any]
        #expect(profile?["provenance"] as? [String] == ["window from gpt2.context_length", "overheads 0: the file has no tokenizer.chat_template"])
    }

    @Test func aBuiltInProfilesJSONHasNoProvenance() throws {
        let dir = try TempDir()
        let json = try tokcount.run(["-m", "gpt-4", "--json", try dir.write("notes.txt", prose)]).json()
        #expect((json["profile"] as? [String: Any])?.keys.contains("provenance") == false)
    }

    @Test func severalInputsNameTheSourceUnderTheTable() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["-m", Self.gpt2Vocabulary, try dir.write("a.txt", prose), try dir.write("b.txt", prose)])
        #expect(r.stdout.contains("\nsource: window from gpt2.context_length; overheads 0: the file has no tokenizer.chat_template\n"))
    }

    @Test func aModelFileWithoutAContextLengthAsksForTheWindow() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["-m", try Self.vocabularyWithoutContextLength(in: dir), try dir.write("notes.txt", prose)])
        #expect(r.stderr.contains("it has no gpt2.context_length, so its context window is unknown; give it with --window N"))
    }

    @Test func theWindowOptionGivesAModelFileItsMissingWindow() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["-m", try Self.vocabularyWithoutContextLength(in: dir), "--window", "2k", try dir.write("notes.txt", prose)])
        #expect(r.field("source")?.hasPrefix("window from --window;") == true)
    }

    @Test func aFileThatIsNotAModelIsAUsageError() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["-m", try dir.write("model.gguf", "not a model\n"), try dir.write("notes.txt", prose)])
        #expect(r.status == 2)
        #expect(r.stderr.contains("it is not a GGUF model"))
    }

    @Test func anUnknownNameStillListsTheProfiles() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["-m", "no-such-model", try dir.write("notes.txt", prose)])
        #expect(r.stderr.contains("unknown model profile 'no-such-model'; known profiles: "))
    }

    // MARK: SmolLM2, the model llama-server tests run

    /// Under CI a missing model fails (`modelPath()` throws); elsewhere it skips.
    @Test(.enabled(if: LlamaServer.shouldRun, "the SmolLM2 model is not installed (scripts/llama-server install)"))
    func smolLM2sWindowAndTemplateOverheadAreTheFilesOwn() throws {
        let model = try LlamaServer.modelPath().path
        let dir = try TempDir()
        let text = try Tokenizer.load(contentsOf: URL(fileURLWithPath: model)).count(prose)
        let r = try tokcount.run(["-m", model, try dir.write("notes.txt", prose)])
        // 30 = the template's prompt for one empty user message, as llama-tokenize counts it;
        // 512 = the answer reserve, the default rule's for an 8,192-token window.
        #expect(r.field("fit")?.hasPrefix("\(text + 30 + 512) of 8,192 tokens") == true)
    }

    @Test(.enabled(if: LlamaServer.shouldRun, "the SmolLM2 model is not installed (scripts/llama-server install)"))
    func smolLM2sSourceLineNamesTheKeyAndTheTemplate() throws {
        let model = try LlamaServer.modelPath().path
        let dir = try TempDir()
        let r = try tokcount.run(["-m", model, try dir.write("notes.txt", prose)])
        #expect(r.field("source") == "window from llama.context_length; overheads from tokenizer.chat_template")
    }

    // MARK: The other tools, through the same resolver

    @Test func schemaCostTakesAModelFile() throws {
        let dir = try TempDir()
        let schema = try dir.write("schema.json", #"{"type": "object", "properties": {"title": {"type": "string"}}}"#)
        let r = try ToolRunner(tool: "schema-cost").run(["-m", Self.gpt2Vocabulary, schema])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func ctxkitPlanTakesAModelFile() throws {
        let dir = try TempDir()
        let r = try ToolRunner(tool: "ctxkit").run(["plan", "-m", Self.gpt2Vocabulary, try dir.write("notes.txt", prose)])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
