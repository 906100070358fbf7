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
            return nil  // the scratch folder is not the code under test
        }
        return check { try Tokenizer.load(contentsOf: url) }
    }

    /// Any bytes as a Hugging Face tokenizer.json.
    static func tokenizerJSON(_ bytes: [UInt8]) -> String? {
        check { try HuggingFaceTokenizerFile.tokenizer(json: Data(bytes), path: "fuzz/tokenizer.json", name: "fuzz") }
    }

    /// all-MiniLM-L6-v2's WordPiece tokenizer (`Tests/Fixtures/wordpiece`), found from this file.
    static let wordPieceTokenizer: Tokenizer = try! Tokenizer.load(
        contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wordpiece/all-minilm-l6-v2/tokenizer.json"))

    /// For any bytes through the WordPiece tokenizer: the count is the
    /// number of ids, the ids decode, token ranges are in order inside the
    /// text, and each word's ids are what `tokenizers`' own algorithm (cut
    /// the longest vocabulary string off the front, `##` after the first;
    /// `[UNK]` for the word if none fits, or past 100 characters) gives for
    /// the words the normalizer and pre-tokenizer make.
    static func wordPiece(_ bytes: [UInt8]) -> String? {
        let tokenizer = wordPieceTokenizer
        let tokens = bytes.withUnsafeBufferPointer { b in (try? tokenizer.tokens(utf8: b, allowedSpecial: .plainText)) ?? [] }
        let ids = bytes.withUnsafeBufferPointer { tokenizer.encodeOrdinary(utf8: $0) }
        if tokens.map(\.id) != ids { return "tokens() ids differ from encode()" }
        if bytes.withUnsafeBufferPointer({ tokenizer.count(utf8: $0) }) != ids.count { return "count != encode().count" }
        if (try? tokenizer.decodeBytes(ids)) == nil { return "an id decode does not know: \(ids)" }
        var start = 0
        for t in tokens {
            if t.bytes.lowerBound < start || t.bytes.upperBound > bytes.count {
                return "token range \(t.bytes) starts before \(start) or ends past \(bytes.count) bytes"
            }
            start = t.bytes.lowerBound
        }
        guard let text = String(validating: bytes, as: UTF8.self),
            case .openModel(let pipeline) = tokenizer.model, case .wordPiece(let encoder) = pipeline.model
        else { return nil }
        var expected: [Int] = []
        for word in pipeline.pieces(of: text) {
            let bytes = Array(word.utf8)
            // Character boundaries: tokenizers shortens a candidate one character at a time.
            let cuts = bytes.indices.filter { bytes[$0] & 0xC0 != 0x80 } + [bytes.count]
            guard cuts.count - 1 <= encoder.maxInputCharsPerWord else { expected.append(Int(encoder.unknownID)); continue }
            var pieces: [Int] = [], k = 0
            while k < cuts.count - 1 {
                var candidate = Array((k > 0 ? "##" : "").utf8) + bytes[cuts[k]...]
                let offset = cuts[k] - (k > 0 ? 2 : 0)
                var found: (id: Int, end: Int)? = nil
                for e in stride(from: cuts.count - 1, to: k, by: -1) {
                    if let id = candidate.withUnsafeMutableBufferPointer({ tokenizer.vocabulary.id(of: $0.baseAddress!, count: cuts[e] - offset) }) {
                        found = (Int(id), e)
                        break
                    }
                }
                guard let (id, e) = found else { pieces = [Int(encoder.unknownID)]; break }
                pieces.append(id)
                k = e
                candidate.removeAll()
            }
            expected += pieces
        }
        return ids == expected ? nil : "WordPiece ids \(ids) but the reference algorithm gives \(expected)"
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
