import Foundation
import TestSupport
import Testing
@testable import TokenKit

extension OpenModels {
    /// llama.cpp's tokenizer tests: every case of every vocabulary in
    /// the reference data's `gguf/` must give exactly the ids of its `.out` line (no BOS
    /// or EOS, special tokens not parsed). A new vocabulary is tested by adding its
    /// `.gguf`, `.gguf.inp` and `.gguf.out` to the folder.
    @Suite struct GGUFConformanceTests {
        static func isWordPiece(_ tokenizer: Tokenizer) -> Bool {
            if case .openModel(let pipeline) = tokenizer.model, case .wordPiece = pipeline.model { return true }
            return false
        }

        @Test(arguments: OpenModelFixtures.vocabularies())
        func everyCaseMatchesLlamaCpp(_ vectors: OpenModelFixtures.VocabularyVectors) throws {
            let tokenizer = try GGUFFile(contentsOf: vectors.gguf).tokenizer()
            let inputs = try vectors.inputs()
            let outputs = try vectors.outputs()
            try #require(inputs.count == outputs.count, "\(vectors): \(inputs.count) cases but \(outputs.count) expected lines")
            var passed = 0
            for (input, expected) in zip(inputs, outputs) {
                let ids = OpenModelFixtures.encode(tokenizer, input)
                if ids == expected {
                    passed += 1
                } else {
                    Issue.record("\(vectors): \(String(decoding: input, as: UTF8.self).debugDescription)\n  expected \(expected)\n  got      \(ids)")
                }
                // Decoding gives the text back (SentencePiece drops the space it
                // added); WordPiece lowercases and drops accents, so it cannot.
                if let text = String(validating: input, as: UTF8.self), !Self.isWordPiece(tokenizer) {
                    #expect(try tokenizer.decode(ids) == text, "\(vectors): decode of \(text.debugDescription)")
                }
                #expect(tokenizer.count(String(decoding: input, as: UTF8.self)) == ids.count)
            }
            print("conformance \(vectors.description): \(passed)/\(inputs.count)")
        }

        /// The reference data is too big for the repository; `scripts/test`
        /// fetches it (`scripts/reference-data`) and CI must not pass without it.
        @Test(.enabled(if: TestRepository.isCI, "outside CI the larger vocabularies are optional"))
        func largerVocabulariesAreTestedInCI() {
            let names = Set(OpenModelFixtures.vocabularies().map { $0.gguf.lastPathComponent })
            for name in ["ggml-vocab-llama-bpe.gguf", "ggml-vocab-qwen2.gguf", "ggml-vocab-gemma-4.gguf", "ggml-vocab-command-r.gguf", "ggml-vocab-qwen35.gguf"] {
                #expect(names.contains(name), "\(name) is missing: run scripts/reference-data and name its folder in CONTEXTKIT_REFERENCE_DATA")
            }
        }
    }
}
