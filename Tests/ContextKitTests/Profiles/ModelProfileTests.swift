import ContextKit
import Foundation
import TestSupport
import Testing

@Suite struct ModelProfileTests {
    @Test func builtInProfilesLoad() throws {
        let catalog = try ProfileCatalog.builtIn()
        let expected: [(String, Int, TokenizerSpec)] = [
            ("apple-on-device", 4_096, .encoding("cl100k_base")), ("gpt-4o", 128_000, .encoding("o200k_base")),
            ("gpt-4", 8_192, .encoding("cl100k_base")), ("gpt-3.5-turbo", 16_385, .encoding("cl100k_base")),
            ("gpt-4o-mini", 128_000, .encoding("o200k_base")), ("gpt-4.1", 1_047_576, .encoding("o200k_base"))
        ]
        for (name, window, tokenizer) in expected {
            let p = try catalog.profile(named: name)
            #expect(p.contextWindow == window && p.tokenizer == tokenizer)
            _ = try p.tokenizer.load()
        }
        #expect(try catalog.defaultProfile().name == "gpt-4o")
    }

    /// Apple's profile is an estimate, and says so, with its calibration.
    @Test func appleOnDeviceIsAnEstimateFittedOnTheFieldNotes() throws {
        let apple = try ProfileCatalog.builtIn().profile(named: "apple-on-device")
        let e = try #require(apple.estimate)
        #expect(apple.isEstimate && e.method.contains("12,641") && e.errorBar > 0)
        #expect(apple.overheads == .init(perRequest: 22, perMessage: 0, schemaFraming: 6))
        // 47,428 English characters at cl100k_base's 4.56 characters per token → Apple's 12,641, within the error bar.
        let proxy = Int((47_428 / 4.56).rounded())
        let estimated = Double(e.tokens(proxyTokens: proxy, cjkCharacters: 0))
        #expect(abs(estimated - 12_641) / 12_641 < 0.01)
        // Pure CJK: about one token per character.
        #expect(e.tokens(proxyTokens: 1_350, cjkCharacters: 1_000) == 1_000)
    }

    @Test func userProfilesAddAndReplace() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("profiles-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("profiles.json")
        try Data(
            """
            {"default": "mine", "profiles": [
              {"name": "mine", "contextWindow": 2048, "tokenizer": {"file": "vocab.tiktoken"}},
              {"name": "gpt-4", "contextWindow": 9000, "tokenizer": {"encoding": "cl100k_base"}}
            ]}
            """.utf8
        ).write(to: file)
        var catalog = try ProfileCatalog.builtIn()
        try catalog.merge(contentsOf: file)
        #expect(catalog.defaultName == "mine")
        #expect(try catalog.profile(named: "mine").tokenizer == .file(dir.appendingPathComponent("vocab.tiktoken").path))
        #expect(try catalog.profile(named: "gpt-4").contextWindow == 9000)
        #expect(try catalog.profile(named: "GPT-4O").name == "gpt-4o")
    }

    @Test func badProfilesSayWhatIsWrong() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json")
        try Data(#"{"profiles": [{"name": "x", "tokenizer": {"encoding": "cl100k_base"}}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var catalog = try ProfileCatalog.builtIn()
        #expect { try catalog.merge(contentsOf: file) } throws: { "\($0)".contains("missing \"contextWindow\"") }
        #expect { try catalog.profile(named: "nope") } throws: { "\($0)".contains("known profiles: apple-on-device") }
    }

    /// A profile file is read by the one JSON reader: a repeated key gives
    /// its last value, as the servers and Python's `json` read one
    /// (Foundation's decoder alone kept the first), and a text that is not
    /// JSON says where it stops being JSON.
    @Test func aRepeatedKeyInAProfileFileTakesItsLastValue() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("repeated-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"profiles": [{"name": "twice", "contextWindow": 1000, "tokenizer": {"encoding": "cl100k_base"}, "contextWindow": 2000}]}"#.utf8).write(to: file)
        var catalog = try ProfileCatalog.builtIn()
        try catalog.merge(contentsOf: file)
        #expect(try catalog.profile(named: "twice").contextWindow == 2000)
        try Data(#"{"profiles": [{"name": "x",}]}"#.utf8).write(to: file)
        #expect { try catalog.merge(contentsOf: file) } throws: { "\($0)".contains("line 1, column") }
    }

    @Test func theXDGConfigFileIsRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("contextkit"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"[{"name": "tiny", "contextWindow": 64, "tokenizer": {"encoding": "r50k_base"}}]"#.utf8)
            .write(to: dir.appendingPathComponent("contextkit/profiles.json"))
        let catalog = try ProfileCatalog.standard(environment: ["XDG_CONFIG_HOME": dir.path])
        #expect(try catalog.profile(named: "tiny").contextWindow == 64)
    }
}

@Suite struct TokenizerSpecTests {
    @Test func nameOrPath() {
        #expect(TokenizerSpec(nameOrPath: "gpt2") == .encoding("gpt2"))
        #expect(TokenizerSpec(nameOrPath: "o200k") == .encoding("o200k_base"))
        #expect(TokenizerSpec(nameOrPath: "o200k_harmony") == .encoding("o200k_harmony"))
        #expect(TokenizerSpec(nameOrPath: "./vocab.tiktoken") == .file("./vocab.tiktoken"))
    }
}
