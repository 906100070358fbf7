import Foundation
import Testing
@testable import ContextKit
import TokenKit

/// Every OpenAI model name tiktoken knows gives a profile (`-m NAME`), or a
/// message asking for its window; other names are refused with the nearest.
@Suite("OpenAI model names as profiles")
struct OpenAIModelProfileTests {
    let catalog = try! ProfileCatalog.builtIn()

    @Test func gpt5AndGptOssProfiles() throws {
        for name in ["gpt-5", "gpt-5-mini", "gpt-5-nano"] {
            let p = try catalog.profile(named: name)
            #expect(p.contextWindow == 400_000 && p.tokenizer == .encoding("o200k_base") && p.provenance.isEmpty)
        }
        for name in ["gpt-oss-20b", "gpt-oss-120b"] {
            let p = try catalog.profile(named: name)
            #expect(p.contextWindow == 131_072 && p.tokenizer == .encoding("o200k_harmony"))
            #expect(p.overheads == .init(perRequest: 2, perMessage: 4))
        }
    }

    /// Each profile's encoding is the one tiktoken's table gives for its name.
    @Test func profilesAgreeWithTiktokensTable() {
        for p in catalog.profiles where p.summary.hasPrefix("OpenAI") {
            guard let encoding = OpenAIModels.encodingName(forModel: p.name) else {
                Issue.record("tiktoken does not know \(p.name)")
                continue
            }
            #expect(p.tokenizer == .encoding(OpenAIEncoding(name: encoding)!.rawValue), "\(p.name)")
        }
    }

    @Test func datedAndFineTunedNamesTakeTheirModelsProfile() throws {
        let dated = try catalog.profile(named: "gpt-4o-mini-2024-07-18")
        #expect(dated.name == "gpt-4o-mini-2024-07-18" && dated.contextWindow == 128_000 && dated.overheads.perMessage == 3)
        #expect(
            dated.provenance == [
                "window and overheads of the profile gpt-4o-mini (gpt-4o-mini-2024-07-18 is a dated snapshot of it)",
                "encoding o200k_base from tiktoken's model table"
            ])
        #expect(try catalog.profile(named: "gpt-4-0613").contextWindow == 8192)
        #expect(try catalog.profile(named: "gpt-3.5-turbo-0613").contextWindow == 4096, "a snapshot with its own profile")
        #expect(try catalog.profile(named: "gpt-5-2025-08-07").contextWindow == 400_000)
        let tuned = try catalog.profile(named: "ft:gpt-4o-mini-2024-07-18:acme::abc123")
        #expect(tuned.tokenizer == .encoding("o200k_base") && tuned.provenance[0].contains("a fine-tuned model of it"))
    }

    @Test func namesKnownOnlyByTheirEncodingNeedAWindow() throws {
        #expect(throws: ProfileError.unknownWindow(name: "text-curie-001", encoding: "r50k_base")) { try catalog.profile(named: "text-curie-001") }
        let p = try catalog.profile(named: "text-curie-001", contextWindow: 2049)
        #expect(p.contextWindow == 2049 && p.tokenizer == .encoding("r50k_base"))
        #expect(p.provenance == ["window from --window", "encoding r50k_base from tiktoken's model table; no profile lists text-curie-001, so no overheads"])
        #expect(try catalog.profile(named: "text-davinci-edit-001", contextWindow: 2048).tokenizer == .encoding("p50k_edit"))
        #expect(try catalog.profile(named: "gpt-4-1106-preview", contextWindow: 128_000).tokenizer == .encoding("cl100k_base"))
        #expect("\(ProfileError.unknownWindow(name: "text-curie-001", encoding: "r50k_base"))".contains("give the window with --window N"))
    }

    /// Every name of tiktoken's exact table resolves, with a window or asking for one.
    @Test func everyTableNameResolves() throws {
        for (model, encoding) in OpenAIModels.encodingsByName {
            let p = try catalog.profile(named: model, contextWindow: 1000)
            #expect(p.tokenizer == .encoding(OpenAIEncoding(name: encoding)!.rawValue), "\(model)")
            #expect(throws: Never.self) { _ = try p.tokenizer.load() }
        }
    }

    @Test func unknownNamesAreRefusedWithTheNearest() {
        let message = "\(ProfileError.unknownProfile(name: "gpt4o", known: catalog.profiles.map(\.name)))"
        #expect(message.hasPrefix("unknown model profile 'gpt4o'; nearest: gpt-4o"), "\(message)")
        #expect(message.contains("--list-models"))
        let far = "\(ProfileError.unknownProfile(name: "zzzzzzzzzzzzzzzz", known: ["a", "b"]))"
        #expect(far == "unknown model profile 'zzzzzzzzzzzzzzzz'; known profiles: a, b (add your own with --profiles FILE)")
    }
}
