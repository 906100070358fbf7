import ContextKit
import ContextKitJSON
import Foundation
import TestSupport
import Testing

/// A Hugging Face chat model folder is a profile, and its conversations count as
/// `apply_chat_template(tokenize=True)` counts them: the prompt Jinja2 renders
/// and the ids `tokenizers` gives it (Tests/Fixtures/hf-chat-model/generate.py).
@Suite struct HuggingFaceChatModelTests {
    static let folder = TestRepository.fixtures.appendingPathComponent("hf-chat-model")

    struct Case: Decodable { let name: String; let prompt: String; let ids: [Int] }

    @Test func theFolderIsAProfile() throws {
        let profile = try ProfileCatalog.builtIn().profile(named: Self.folder.path)
        #expect(profile.contextWindow == 2048)
        #expect(profile.tokenizer == .file(Self.folder.appendingPathComponent("tokenizer.json").path))
        #expect(profile.provenance.contains("window from tokenizer_config.json model_max_length"))
        #expect(profile.overheads.perMessage > 0)
        let viaConfig = try ProfileCatalog.builtIn().profile(named: Self.folder.appendingPathComponent("tokenizer_config.json").path)
        #expect(viaConfig.tokenizer == profile.tokenizer && viaConfig.overheads == profile.overheads)
    }

    @Test func conversationsCountAsHuggingFaceCountsThem() throws {
        let counter = try ConversationCounter(profile: try ModelProfile(huggingFace: Self.folder))
        guard case .template = counter.framing else { Issue.record("a folder with a chat template renders it"); return }
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
        let bodies = try JSONParser.parse([UInt8](Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))).elements!.map { $0["body"]! }
        var tokens = 0, mismatches = 0
        for (want, body) in zip(cases, bodies) {
            let conversation = try Conversation(json: body)
            let count = try counter.count(conversation)
            if count.renderedPrompt != want.prompt || count.total != want.ids.count { mismatches += 1 }
            #expect(count.renderedPrompt == want.prompt, "\(want.name)")
            #expect(count.total == want.ids.count, "\(want.name)")
            #expect(try counter.tokenizer.encode(want.prompt, allowedSpecial: .all) == want.ids, "\(want.name)")
            #expect(count.messages.allSatisfy { $0.promptBytes != nil }, "\(want.name)")
            tokens += want.ids.count
        }
        #expect(cases.count == 10 && tokens > 1000 && mismatches == 0)
    }

    /// One answer to "does a Hugging Face chat add BOS": the profile's
    /// overheads and the conversation counter agree even when
    /// `tokenizer_config.json` says `add_bos_token` (which `apply_chat_template`
    /// does not act on: the template writes any BOS).
    @Test func theProfileAndTheCounterAgreeOnBOS() throws {
        let dir = try TempDir()
        _ = try dir.write("model/tokenizer.json", try Data(contentsOf: Self.folder.appendingPathComponent("tokenizer.json")))
        let config = try JSONParser.parse([UInt8](Data(contentsOf: Self.folder.appendingPathComponent("tokenizer_config.json"))))
        let withBOS = config.setting("bos_token", to: .string("<|endoftext|>")).setting("add_bos_token", to: .bool(true)).setting("add_eos_token", to: .bool(true))
        _ = try dir.write("model/tokenizer_config.json", JSONWriter(style: .spaced).write(withBOS))
        let profile = try ModelProfile(huggingFace: dir.url.appendingPathComponent("model"))
        let counter = try ConversationCounter(profile: profile)
        let one = try counter.count(try Conversation(json: JSONParser.parse(Array(#"{"messages": [{"role": "user", "content": ""}]}"#.utf8))))
        #expect(one.total == profile.overheads.perRequest + profile.overheads.perMessage)
        #expect(profile.provenance.last == "overheads from tokenizer_config.json chat_template")
    }

    @Test func aFolderWithoutATokenizerIsRefusedWithTheReason() throws {
        let dir = try TempDir()
        _ = try dir.write("tokenizer_config.json", #"{"chat_template": "{{ messages }}"}"#)
        #expect(throws: ProfileError.self) { try ModelProfile(huggingFace: dir.url) }
        do { _ = try ModelProfile(huggingFace: dir.url) } catch { #expect("\(error)".contains("no tokenizer.json")) }
    }
}
