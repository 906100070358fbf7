import Foundation
import TestSupport
import Testing
@testable import TokenKit

/// Mistral's tekken files give mistral-common's ids (`Tekkenizer.encode(text,
/// bos=False, eos=False)`), computed at test time by `Tests/Fixtures/tekken/reference.py`
/// from the files the installed mistral-common ships.
@Suite("tekken against mistral-common")
struct TekkenReferenceTests {
    static let enabled = PythonPeer.python != nil || TestRepository.isCI

    static func tekkenFiles() throws -> [URL] {
        let list = try PythonPeer.run(script: "Tests/Fixtures/tekken/reference.py", arguments: ["--list"])
        return String(decoding: list, as: UTF8.self).split(separator: "\n").map { URL(fileURLWithPath: String($0)) }
    }

    @Test("identical ids on UDHR, corpora, adversarial, fuzz and control-token texts", .enabled(if: enabled, "Python peers not installed: run scripts/python-env"))
    func identicalIDs() throws {
        let files = try Self.tekkenFiles()
        #expect(files.count >= 2, "mistral-common ships tekken_240718.json and tekken_240911.json")
        for file in files {
            // Known by its content: a copy without "tekken" or ".json" in its name.
            let renamed = FileManager.default.temporaryDirectory.appendingPathComponent("vocabulary-\(UUID().uuidString).bin")
            try FileManager.default.copyItem(at: file, to: renamed)
            defer { try? FileManager.default.removeItem(at: renamed) }
            let tokenizer = try Tokenizer.load(contentsOf: renamed)
            #expect(tokenizer.specialTokens.isEmpty, "Tekkenizer.encode reads no special token out of text")
            let output = try PythonPeer.run(script: "Tests/Fixtures/tekken/reference.py", arguments: [file.path])
            let cases = try TokenFixture.parse(String(decoding: output, as: UTF8.self))
            var mismatches: [String] = []
            var tokens = 0
            var udhr = 0
            for fixture in cases {
                let ids = tokenizer.encodeOrdinary(fixture.text)
                tokens += ids.count
                if fixture.name.hasPrefix("udhr/") { udhr += 1 }
                let head = Array(ids.prefix(fixture.ids.count))
                if ids.count != fixture.count || TokenFixture.fnv1a64(ids) != fixture.fnv1a64 || head != fixture.ids {
                    let at = zip(head, fixture.ids).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    mismatches.append(
                        "\(fixture.name): \(ids.count) tokens, mistral-common \(fixture.count); first difference at token \(at.map(String.init) ?? "past the stored head")")
                }
                #expect(tokenizer.count(fixture.text) == ids.count, "count disagrees with encode on \(fixture.name)")
                if fixture.name.hasPrefix("control/") {
                    // --special allow and --special error mean what Tekkenizer.encode does: plain text.
                    #expect(try tokenizer.encode(fixture.text, allowedSpecial: .all) == ids, "\(fixture.name) under .all")
                    #expect(try tokenizer.encode(fixture.text, allowedSpecial: .none) == ids, "\(fixture.name) under .none")
                }
            }
            print("tekken \(file.lastPathComponent) vs mistral-common: \(cases.count) cases (\(udhr) UDHR), \(tokens) tokens compared, \(mismatches.count) mismatches")
            #expect(udhr == 388 || !TestRepository.isCI, "the UDHR has 388 languages")
            #expect(cases.count > 1400)
            #expect(mismatches.isEmpty, "\(mismatches.count) cases differ from mistral-common:\n\(mismatches.prefix(20).joined(separator: "\n"))")
        }
    }

    @Test("special tokens decode to mistral-common's texts, ordinary ids round-trip", .enabled(if: enabled, "Python peers not installed: run scripts/python-env"))
    func decoding() throws {
        for file in try Self.tekkenFiles() {
            let tokenizer = try Tokenizer.load(contentsOf: file)
            let output = try PythonPeer.run(script: "Tests/Fixtures/tekken/reference.py", arguments: ["--specials", file.path])
            let specials = try JSONDecoder().decode([String].self, from: output)
            #expect(specials.count == 1000)
            for (rank, text) in specials.enumerated() {
                #expect(try tokenizer.decode([rank]) == text, "\(file.lastPathComponent): special token \(rank)")
            }
            let text = try String(contentsOf: TestRepository.path("corpora/prose/ja.txt"), encoding: .utf8)
            #expect(try tokenizer.decode(tokenizer.encodeOrdinary(text)) == text)
            #expect(throws: TokenKitError.unknownTokenID(131_072)) { try tokenizer.decode([131_072]) }
        }
    }

    @Test("counts add up across every safe cut", .enabled(if: enabled, "Python peers not installed: run scripts/python-env"))
    func safeCuts() throws {
        let tokenizer = try Tokenizer.load(contentsOf: try Self.tekkenFiles()[0])
        let boundary = try #require(tokenizer.pieceBoundary)
        for name in ["prose/en.txt", "prose/ja.txt", "prose/ar.txt", "code/sample.py", "code/sample.json"] {
            var bytes = Array(try Data(contentsOf: TestRepository.path("corpora/" + name)))
            bytes.withUnsafeMutableBufferPointer { buffer in
                let text = UnsafeBufferPointer(buffer)
                let whole = tokenizer.count(utf8: text)
                var cuts = 0
                var p = 1
                while let cut = boundary.firstSafe(in: text, from: p) {
                    let left = tokenizer.count(utf8: UnsafeBufferPointer(rebasing: text[..<cut]))
                    let right = tokenizer.count(utf8: UnsafeBufferPointer(rebasing: text[cut...]))
                    #expect(left + right == whole, "\(name): cut at byte \(cut)")
                    cuts += 1
                    p = cut + 97
                }
                #expect(cuts > 10, "\(name) has safe cuts")
            }
        }
    }
}

/// What the reader refuses, and the special-token rules, on small tekken files written here.
@Suite("tekken files")
struct TekkenFileTests {
    /// A tekken file: the 256 bytes, then `merges`, with `config` overrides.
    static func file(
        version: String = "v7", merges: [String] = ["ab", "abc"], specials: [String]? = ["<unk>", "<s>", "</s>"],
        numSpecial: Int = 5, vocabSize: Int? = nil, edit: (inout [[String: Any]]) -> Void = { _ in }
    ) -> Data {
        var vocab: [[String: Any]] = (0..<256).map { ["rank": $0, "token_bytes": Data([UInt8($0)]).base64EncodedString(), "token_str": NSNull()] }
        for (i, m) in merges.enumerated() { vocab.append(["rank": 256 + i, "token_bytes": Data(m.utf8).base64EncodedString(), "token_str": m]) }
        edit(&vocab)
        var root: [String: Any] = [
            "config": [
                "pattern": PreTokenizer.tekken.pattern, "num_vocab_tokens": vocab.count,
                "default_vocab_size": vocabSize ?? (vocab.count + numSpecial), "default_num_special_tokens": numSpecial,
                "version": version
            ],
            "vocab": vocab
        ]
        if let specials { root["special_tokens"] = specials.enumerated().map { ["rank": $0.offset, "token_str": $0.element, "is_control": true] } }
        return try! JSONSerialization.data(withJSONObject: root)
    }

    static func load(_ data: Data) throws -> Tokenizer {
        try data.withUnsafeBytes { try JSONModelFile.tokenizer(json: $0, path: "t.json", name: "t.json") }
    }

    static func refusal(_ data: Data) -> String {
        do {
            _ = try load(data)
            return "loaded"
        } catch {
            return "\(error)"
        }
    }

    @Test func idsAreRanksAfterTheSpecialTokens() throws {
        let t = try Self.load(Self.file())
        #expect(t.encodeOrdinary("abc ab") == [256 + 5 + 1, 32 + 5, 256 + 5], "abc, then \" ab\" as a space and ab")
        #expect(try t.decode([1, 261, 2]) == "<s>ab</s>")
        #expect(try t.decode([4]) == "<SPECIAL_4>", "fillers up to default_num_special_tokens")
        #expect(try t.encode("<s>ab</s>", allowedSpecial: .all) == t.encodeOrdinary("<s>ab</s>"), "special-token text is plain text, as in Tekkenizer.encode")
        #expect(t.modelDescription == "tiktoken BPE")
    }

    @Test func vocabularyIsCutToTheDefaultSize() throws {
        let t = try Self.load(Self.file(vocabSize: 256 + 5 + 1))
        #expect(t.encodeOrdinary("abc") == [261, 99 + 5], "abc is past the cut: ab + c")
        #expect(throws: TokenKitError.unknownTokenID(262)) { try t.decode([262]) }
    }

    @Test func defaultSpecialTokensForV7AndEarlier() throws {
        let t = try Self.load(Self.file(specials: nil, numSpecial: 1000))
        #expect(try t.decode([3, 4, 19, 20, 999]) == "[INST][/INST][TOOL_CONTENT]<SPECIAL_20><SPECIAL_999>")
    }

    @Test func refusals() {
        #expect(Self.refusal(Self.file(version: "v2")).contains("tekken version 'v2', which ContextKit does not implement; supported: tekken v3, tekken v7"))
        #expect(Self.refusal(Self.file(version: "v99")).contains("tekken version 'v99'"))
        #expect(Self.refusal(Self.file(version: "v11", specials: nil)).contains("has no special_tokens (a tekken v11 file must list its special tokens)"))
        #expect(Self.refusal(Self.file(vocabSize: 10_000)).contains("config.default_vocab_size (10000) is more than the 258 vocab entries and the 5 special tokens"))
        #expect(Self.refusal(Self.file(vocabSize: 200)).contains("leaves 195 ordinary tokens"))
        #expect(Self.refusal(Self.file(specials: ["<s>", "<s>"])).contains("special_tokens[1] repeats \"<s>\""))
        #expect(Self.refusal(Self.file(specials: ["<SPECIAL_4>"])).contains("the name of the filler for rank 4"))
        #expect(Self.refusal(Self.file(specials: ["a", "b", "c"], numSpecial: 2)).contains("lists 3 tokens but config.default_num_special_tokens is 2"))
        #expect(Self.refusal(Self.file { $0[257]["rank"] = 300 }).contains("vocab[257] has rank 300"))
        #expect(Self.refusal(Self.file { $0[256]["token_bytes"] = "!!" }).contains("vocab[256].token_bytes \"!!\" is not base64"))
        #expect(Self.refusal(Self.file { $0[65]["token_bytes"] = "QkI=" }).contains("vocab[65] is not the single byte 65"))
        #expect(Self.refusal(Self.file(merges: ["ab", "ab"])).contains("vocab[257]: token 262 repeats the bytes of an earlier token"))
        #expect(Self.refusal(Self.file { $0[256].removeValue(forKey: "token_bytes") }).contains("has no vocab[256].token_bytes"))
        #expect(Self.refusal(Data(#"{"config": {"version": "v3"}, "vocab": []}"#.utf8)).contains("has no config.pattern"))
        #expect(Self.refusal(Data(#"{"config": {}, "vocab": [}"#.utf8)).contains("invalid JSON at line 1"))
    }

    @Test func anotherPatternGoesThroughTheRegexPath() throws {
        var root = try JSONSerialization.jsonObject(with: Self.file()) as! [String: Any]
        var config = root["config"] as! [String: Any]
        config["pattern"] = #"\p{L}+|\s+|[^\p{L}\s]+"#
        root["config"] = config
        let t = try Self.load(try JSONSerialization.data(withJSONObject: root))
        guard case .regex = t.preTokenizer else { Issue.record("expected the regex path"); return }
        #expect(t.encodeOrdinary("ab, abc") == [261, 44 + 5, 32 + 5, 262])
        config["pattern"] = "(unclosed"
        root["config"] = config
        #expect(Self.refusal(try JSONSerialization.data(withJSONObject: root)).contains("config.pattern does not compile"))
        // 82 bytes took 38 s through this pattern; it is refused when the file is read.
        config["pattern"] = "(a*)*b"
        root["config"] = config
        let refusal = Self.refusal(try JSONSerialization.data(withJSONObject: root))
        #expect(refusal.contains("config.pattern does not compile") && refusal.contains("(a*)* repeats a group that matches the same text in more than one way"), "\(refusal)")
    }
}
