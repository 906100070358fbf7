import Foundation
@testable import TokenKit

/// What the open-model loaders must do with any file, checked by the `gguf`
/// and `tokenizer-json` libFuzzer targets in `scripts/fuzz` (which compile
/// this file) and replayed by `FuzzRegressionTests`. No `Testing` import: the
/// fuzzer builds it outside the test runner.
///
/// A file is refused with a `ModelFileError` or `TokenKitError` that has a
/// message, or it becomes a tokenizer whose ids all decode.
enum OpenModelFuzzProperties {
    static let samples = ["Hello world", " leading space and  two", "naïve café 東京 🙂", "<s>[INST] x [/INST]", "\u{0}\u{7F}\t\r\n"]

    /// Any bytes as a file given to `Tokenizer.load` (GGUF by its magic, else
    /// tokenizer.json, else .tiktoken). The loader maps files, so the bytes go
    /// through a scratch file.
    static func gguf(_ bytes: [UInt8]) -> String? {
        let url = scratchFile
        do {
            try Data(bytes).write(to: url)
        } catch {
            return nil   // the scratch folder is not the code under test
        }
        return check { try Tokenizer.load(contentsOf: url) }
    }

    /// Any bytes as a Hugging Face tokenizer.json.
    static func tokenizerJSON(_ bytes: [UInt8]) -> String? {
        check { try HuggingFaceTokenizerFile.tokenizer(json: Data(bytes), path: "fuzz/tokenizer.json", name: "fuzz") }
    }

    static let scratchFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("contextkit-fuzz-\(ProcessInfo.processInfo.processIdentifier).model")

    static func check(_ load: () throws -> Tokenizer) -> String? {
        let tokenizer: Tokenizer
        do {
            tokenizer = try load()
        } catch let error as ModelFileError {
            return error.description.isEmpty ? "a ModelFileError without a message" : nil
        } catch let error as TokenKitError {
            return error.description.isEmpty ? "a TokenKitError without a message" : nil
        } catch {
            return "an error of an unexpected type: \(error)"
        }
        for sample in samples {
            let ids = tokenizer.encodeOrdinary(sample)
            if tokenizer.count(sample) != ids.count { return "count(\(sample.debugDescription)) != encode().count" }
            if (try? tokenizer.decodeBytes(ids)) == nil { return "encode(\(sample.debugDescription)) gave an id that decode does not know: \(ids)" }
        }
        return nil
    }
}
