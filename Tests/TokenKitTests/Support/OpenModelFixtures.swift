import Foundation
import TestSupport
@testable import TokenKit

/// Where the shared reference data lives: `../shared/data` beside the package.
enum OpenModelFixtures {
    static let sharedData = TestRepository.shared.appendingPathComponent("data")
    static let ggufFolder = sharedData.appendingPathComponent("gguf")
    static let hfFolder = sharedData.appendingPathComponent("hf")
    static let udhrFolder = sharedData.appendingPathComponent("udhr")

    /// Every UDHR text, by file name, in name order (empty if the data is missing).
    static let udhrTexts: [(name: String, text: String)] = {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: udhrFolder.path)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
        return names.compactMap { name in
            (try? String(contentsOf: udhrFolder.appendingPathComponent(name), encoding: .utf8)).map { (name, $0) }
        }
    }()

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

    /// Every `.gguf` with an `.inp` and an `.out` beside it, in the shared folder,
    /// in `Tests/Fixtures/llama-vocab` and in any folder named by
    /// `CONTEXTKIT_GGUF_VECTORS` (colon-separated).
    static func vocabularies() -> [VocabularyVectors] {
        var folders = [ggufFolder, TestRepository.fixtures.appendingPathComponent("llama-vocab")]
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
