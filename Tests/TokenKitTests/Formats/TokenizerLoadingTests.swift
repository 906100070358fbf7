import Foundation
import Testing
import TestSupport
@testable import TokenKit

extension OpenModels {
    @Suite struct TokenizerLoadingTests {
        /// The format is read from the content, whatever the file is called.
        @Test func detectsEachFormat() throws {
            let gguf = OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-llama-bpe.gguf")
            let json = OpenModelFixtures.hfFolder.appendingPathComponent("qwen3.tokenizer.json")
            let tiktoken = TestRepository.path("Sources/TokenKit/Resources/cl100k_base.tiktoken")
            let text = "Hello, world! 123"
            #expect(try Tokenizer.load(contentsOf: gguf).encodeOrdinary(text) == [9906, 11, 1917, 0, 220, 4513])
            #expect(try Tokenizer.load(contentsOf: json).encodeOrdinary(text) == [9707, 11, 1879, 0, 220, 16, 17, 18])
            let cl100k = try Tokenizer.load(contentsOf: tiktoken)
            #expect(cl100k === (try Tokenizer.named("cl100k_base")))
            #expect(try Tokenizer.load(contentsOf: gguf).modelDescription == "byte-level BPE, llama.cpp pre-tokenizer llama-bpe")
            #expect(try Tokenizer.load(contentsOf: json).modelDescription == "Hugging Face BPE, byte-level")

            for source in [gguf, json] {
                let renamed = FileManager.default.temporaryDirectory.appendingPathComponent("renamed-\(UUID().uuidString).bin")
                try FileManager.default.copyItem(at: source, to: renamed)
                defer { try? FileManager.default.removeItem(at: renamed) }
                #expect(try Tokenizer.load(contentsOf: renamed).encodeOrdinary(text) == Tokenizer.load(contentsOf: source).encodeOrdinary(text))
            }
        }

        /// What `--model path.gguf` needs, read from the header alone.
        @Test func ggufMetadata() throws {
            let qwen2 = try GGUFFile(contentsOf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-qwen2.gguf"))
            #expect(qwen2.version == 3 && qwen2.architecture == "qwen2" && qwen2.contextLength == 32768)
            #expect(qwen2.chatTemplate?.contains("<|im_start|>") == true)
            #expect(qwen2.bosTokenID == 151643 && qwen2.eosTokenID == 151643 && !qwen2.addBOSToken)
            #expect(qwen2.tokenizerModel == "gpt2" && qwen2.preTokenizerName == "qwen2" && qwen2.vocabularySize == 151936)
            #expect(qwen2.tokenText(151645) == "<|im_end|>")
            let llama3 = try GGUFFile(contentsOf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-llama-bpe.gguf"))
            #expect(llama3.contextLength == 8192 && llama3.addBOSToken && llama3.bosTokenID == 128000)
            let spm = try GGUFFile(contentsOf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-llama-spm.gguf"))
            #expect(spm.addBOSToken && spm.bosTokenID == 1 && spm.eosTokenID == 2 && spm.chatTemplate == nil)
            #expect(spm.value(forKey: "tokenizer.ggml.tokens") == .array(elementType: .string, count: 32000))
        }

        /// A model file of several gigabytes: only the header is read. (The file is
        /// sparse, so the test takes no disk space; timing is measured elsewhere.)
        @Test func largeFileReadsOnlyTheHeader() throws {
            let source = OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-qwen2.gguf")
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).gguf")
            try FileManager.default.copyItem(at: source, to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 3 << 30)
            try handle.close()
            let file = try GGUFFile(contentsOf: url)
            #expect(file.fileSize == 3 << 30 && file.contextLength == 32768)
            #expect(try file.tokenizer().encodeOrdinary("Hello world") == [9707, 1879])
        }

        /// Special tokens are plain text unless allowed; user-defined tokens are always cut out.
        @Test func specialAndAddedTokens() throws {
            let qwen2 = try Tokenizer.load(contentsOf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-qwen2.gguf"))
            #expect(qwen2.specialTokens["<|im_start|>"] == 151644)
            #expect(try qwen2.encode("<|im_start|>user", allowedSpecial: .all) == [151644, 872])
            #expect(throws: TokenKitError.self) { try qwen2.encode("<|im_start|>", allowedSpecial: .none) }
            #expect(qwen2.encodeOrdinary("<|im_start|>").count > 1)
            #expect(qwen2.encodeOrdinary("a[PAD151646]b") == [64, 151646, 65])
            #expect(try qwen2.decode([151644, 872]) == "<|im_start|>user")
            let spm = try Tokenizer.load(contentsOf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-llama-spm.gguf"))
            #expect(try spm.encode("<s>Hi", allowedSpecial: .all) == [1, 6324])
        }
    }
}
