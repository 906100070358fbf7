import Foundation
import Testing
@testable import TokenKit

extension OpenModels {
    @Suite struct HuggingFaceTokenizerTests {
        static let qwen3 = OpenModelFixtures.hfFolder.appendingPathComponent("qwen3.tokenizer.json")
        static let claude = OpenModelFixtures.hfFolder.appendingPathComponent("claude-legacy.tokenizer.json")

        /// Every case Hugging Face `tokenizers` encoded (UDHR, llama.cpp's cases,
        /// long repeats, fuzz) gives the same ids here.
        @Test(arguments: [("qwen3", qwen3), ("claude-legacy", claude)])
        func sameIDsAsHuggingFace(_ name: String, _ file: URL) throws {
            let tokenizer = try Tokenizer.load(contentsOf: file)
            var failures: [String] = []
            let fixtures = try TokenFixture.load(path: "openmodels/\(name).jsonl")
            for f in fixtures {
                let ids = try tokenizer.encode(f.text, allowedSpecial: .all)
                if ids.count != f.count || TokenFixture.fnv1a64(ids) != f.fnv1a64 || Array(ids.prefix(f.ids.count)) != f.ids {
                    let at = zip(ids, f.ids).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ids.count, f.ids.count)
                    failures.append(
                        "\(f.name): \(ids.count) tokens, expected \(f.count); first difference at \(at): \(ids.dropFirst(at).prefix(6)) vs \(f.ids.dropFirst(at).prefix(6))")
                }
            }
            print("parity \(name): \(fixtures.count - failures.count)/\(fixtures.count)")
            #expect(failures.isEmpty, "\(failures.count) cases differ:\n\(failures.prefix(20).joined(separator: "\n"))")
        }

        /// Qwen3's tokenizer.json and the Qwen2 GGUF share their BPE: same ids on llama.cpp's cases.
        @Test func qwen3MatchesQwen2GGUF() throws {
            let json = try Tokenizer.load(contentsOf: Self.qwen3)
            let vectors = OpenModelFixtures.VocabularyVectors(gguf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-qwen2.gguf"))
            let inputs = try vectors.inputs(), outputs = try vectors.outputs()
            var passed = 0
            for (input, expected) in zip(inputs, outputs) {
                let ids = OpenModelFixtures.encode(json, input)
                #expect(ids == expected, "\(String(decoding: input, as: UTF8.self).debugDescription)")
                if ids == expected { passed += 1 }
            }
            print("conformance qwen3.tokenizer.json on qwen2 cases: \(passed)/\(inputs.count)")
        }

        /// The NFKC-normalizing tokenizer gives back the normalized text of every UDHR translation.
        @Test func claudeRoundTripsUDHR() throws {
            let tokenizer = try Tokenizer.load(contentsOf: Self.claude)
            let files = try FileManager.default.contentsOfDirectory(atPath: OpenModelFixtures.udhrFolder.path).filter { $0.hasSuffix(".txt") }.sorted()
            #expect(files.count > 300)
            var mismatches: [String] = []
            for file in files {
                let text = try String(contentsOf: OpenModelFixtures.udhrFolder.appendingPathComponent(file), encoding: .utf8)
                let decoded = try tokenizer.decode(tokenizer.encodeOrdinary(text))
                if decoded != text.precomposedStringWithCompatibilityMapping { mismatches.append(file) }
            }
            print("claude-legacy UDHR round trip: \(files.count - mismatches.count)/\(files.count)")
            #expect(mismatches.isEmpty, "\(mismatches)")
        }
    }
}
