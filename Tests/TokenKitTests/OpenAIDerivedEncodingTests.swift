import Foundation
import TestSupport
import Testing
import TokenKit

/// o200k_harmony and p50k_edit give tiktoken 0.14's ids: compared live
/// (`scripts/tiktoken-oracle.py`, which builds them with tiktoken's own
/// constructors) on seeded fuzz texts and documents, as plain text and with
/// their special-token strings allowed (`--special allow`), and each special
/// token alone.
@Suite("o200k_harmony and p50k_edit against tiktoken")
struct OpenAIDerivedEncodingTests {
    struct Sample: Decodable {
        let `case`: String
        let encoding: String
        let text: String
        let allowed_special: String?
        let ids: [Int]
    }

    static let enabled = PythonPeer.python != nil || TestRepository.isCI

    @Test("identical ids, plain and with special tokens allowed", .enabled(if: enabled, "Python peers not installed: run scripts/python-env"))
    func identicalIDs() throws {
        let encodings = "o200k_harmony,p50k_edit"
        let plain = try PythonPeer.run(script: "scripts/tiktoken-oracle.py", arguments: ["--sample", "600", "--seed", "20261201", "--encodings", encodings])
        let special = try PythonPeer.run(script: "scripts/tiktoken-oracle.py", arguments: ["--sample", "600", "--seed", "20261202", "--encodings", encodings, "--specials"])
        var compared: [String: (cases: Int, tokens: Int)] = [:]
        var mismatches: [String] = []
        for line in (plain + [0x0A] + special).split(separator: UInt8(ascii: "\n")) {
            let sample = try JSONDecoder().decode(Sample.self, from: Data(line))
            let tokenizer = try Tokenizer.named(sample.encoding)
            let ids: [Int]
            if sample.allowed_special == "all" {
                ids = try tokenizer.encode(sample.text, allowedSpecial: .all)
                // tiktoken's default refuses any special-token text; so does .none.
                #expect(throws: TokenKitError.self) { try tokenizer.encode(sample.text) }
                #expect(try tokenizer.count(sample.text, allowedSpecial: .all) == ids.count)
            } else {
                ids = tokenizer.encodeOrdinary(sample.text)
            }
            compared[sample.encoding, default: (0, 0)].cases += 1
            compared[sample.encoding, default: (0, 0)].tokens += ids.count
            if ids != sample.ids { mismatches.append("\(sample.encoding) \(sample.case)") }
        }
        for (encoding, c) in compared.sorted(by: { $0.key < $1.key }) {
            print("tiktoken parity \(encoding) (live): \(c.cases) cases, \(c.tokens) tokens compared")
        }
        print("o200k_harmony and p50k_edit vs tiktoken: \(mismatches.count) mismatches")
        #expect(compared["o200k_harmony"]?.cases ?? 0 > 2000, "600 + 30 plain, as many with specials, 1,091 special tokens alone")
        #expect(compared["p50k_edit"]?.cases ?? 0 > 1200)
        #expect(mismatches.isEmpty, "differs from tiktoken: \(mismatches.prefix(20))")
    }

    @Test func harmonySpecialTokens() throws {
        let harmony = try Tokenizer.named("o200k_harmony")
        #expect(harmony.specialTokens.count == 1091)
        #expect(harmony.specialTokens["<|start|>"] == 200006 && harmony.specialTokens["<|reserved_201087|>"] == 201087)
        // One id, two texts; it decodes as tiktoken decodes it.
        #expect(try harmony.encode("<|endofprompt|><|reserved_200018|>", allowedSpecial: .all) == [200018, 200018])
        #expect(try harmony.decode([200018]) == "<|endofprompt|>")
        let message = "<|start|>user<|message|>What is 2+2?<|end|><|start|>assistant<|channel|>final<|message|>4<|return|>"
        #expect(try harmony.decode(harmony.encode(message, allowedSpecial: .all)) == message)
        #expect(harmony.encodeOrdinary("Hello world") == (try Tokenizer.named("o200k_base")).encodeOrdinary("Hello world"))
        #expect(throws: TokenKitError.disallowedSpecialToken(token: "<|call|>")) { try harmony.encode("x<|call|>") }
        #expect(try Tokenizer.named("p50k_edit").encode("<|fim_prefix|>", allowedSpecial: .all) == [50281])
    }
}
