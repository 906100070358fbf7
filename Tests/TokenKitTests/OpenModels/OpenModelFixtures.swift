import Foundation
@testable import TokenKit

/// Where the shared reference data lives: `../shared/data` beside the package.
enum OpenModelFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sharedData = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    static let ggufFolder = sharedData.appendingPathComponent("gguf")
    static let hfFolder = sharedData.appendingPathComponent("hf")
    static let udhrFolder = sharedData.appendingPathComponent("udhr")

    /// llama.cpp's test vectors for one vocabulary: `name.gguf`, `name.gguf.inp`, `name.gguf.out`.
    struct VocabularyVectors: CustomStringConvertible, Sendable {
        let gguf: URL
        var description: String { gguf.lastPathComponent }

        /// The cases of `.inp`: UTF-8 texts, each followed by `\n__ggml_vocab_test__\n`.
        func inputs() throws -> [[UInt8]] {
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gguf.path + ".inp")))
            let separator = Array("\n__ggml_vocab_test__\n".utf8)
            var cases: [[UInt8]] = []
            var start = 0
            var i = 0
            while i + separator.count <= data.count {
                if data[i..<(i + separator.count)].elementsEqual(separator) {
                    cases.append(Array(data[start..<i]))
                    i += separator.count
                    start = i
                } else {
                    i += 1
                }
            }
            if start < data.count { cases.append(Array(data[start...])) }
            return cases
        }

        /// The lines of `.out`: the expected ids of each case.
        func outputs() throws -> [[Int]] {
            let text = try String(contentsOf: URL(fileURLWithPath: gguf.path + ".out"), encoding: .utf8)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            return lines.map { $0.split(separator: " ").map { Int($0)! } }
        }
    }

    /// Every `.gguf` with an `.inp` and an `.out` beside it, in the shared folder
    /// and in any folder named by `CONTEXTKIT_GGUF_VECTORS` (colon-separated).
    static func vocabularies() -> [VocabularyVectors] {
        var folders = [ggufFolder]
        if let extra = ProcessInfo.processInfo.environment["CONTEXTKIT_GGUF_VECTORS"] {
            folders += extra.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        }
        let fm = FileManager.default
        return folders.flatMap { folder -> [VocabularyVectors] in
            let names = (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".gguf") && names.contains($0 + ".inp") && names.contains($0 + ".out") }
                .sorted().map { VocabularyVectors(gguf: folder.appendingPathComponent($0)) }
        }
    }

    /// Encodes raw bytes (a case may be any UTF-8, even a lone `\r`).
    static func encode(_ tokenizer: Tokenizer, _ bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBufferPointer { tokenizer.encodeOrdinary(utf8: $0) }
    }
}

/// One case of `Tests/Fixtures/openmodels/<name>.jsonl`, written by
/// `Tests/Fixtures/openmodels/generate.py` from Hugging Face `tokenizers`.
struct HuggingFaceFixture {
    let name: String
    let text: String
    let count: Int
    let fnv1a64: UInt64
    /// All ids when the case has at most 4,096 tokens, else the first 256.
    let ids: [Int]

    /// Decoded with `JSONDecoder`, which keeps U+FEFF inside strings.
    private struct Line: Decodable {
        struct Input: Decodable {
            let text: String?
            let shared: String?
            let `repeat`: String?
            let times: Int?
        }
        let `case`: String
        let input: Input
        let count: Int
        let fnv1a64: String
        let ids: [Int]
    }

    static func load(_ name: String) throws -> [HuggingFaceFixture] {
        let url = OpenModelFixtures.packageRoot.appendingPathComponent("Tests/Fixtures/openmodels/\(name).jsonl")
        let decoder = JSONDecoder()
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { text in
            let line = try decoder.decode(Line.self, from: Data(text.utf8))
            let input: String
            if let text = line.input.text {
                input = text
            } else if let path = line.input.shared {
                input = try String(contentsOf: OpenModelFixtures.sharedData.deletingLastPathComponent().appendingPathComponent(path), encoding: .utf8)
            } else if let unit = line.input.repeat, let times = line.input.times {
                input = String(repeating: unit, count: times)
            } else {
                throw CocoaError(.coderInvalidValue)
            }
            return HuggingFaceFixture(name: line.case, text: input, count: line.count,
                                      fnv1a64: UInt64(line.fnv1a64, radix: 16)!, ids: line.ids)
        }
    }

    /// 64-bit FNV-1a over the ids, each as four little-endian bytes.
    static func fnv1a64(_ ids: [Int]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in ids {
            var v = UInt32(id)
            for _ in 0..<4 {
                h = (h ^ UInt64(v & 0xFF)) &* 0x100_0000_01b3
                v >>= 8
            }
        }
        return h
    }
}
