import Foundation
import TestSupport
@testable import TokenKit

/// The reference data the open-model suites compare against (see `TestRepository`).
enum OpenModelFixtures {
    static let ggufFolder = TestRepository.gguf
    static let hfFolder = TestRepository.huggingFace
    static let udhrFolder = TestRepository.udhr

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

    /// Every `.gguf` with an `.inp` and an `.out` beside it, in the reference
    /// data's `gguf/` and in `Tests/Fixtures/llama-vocab`.
    static func vocabularies() -> [VocabularyVectors] {
        let folders = [ggufFolder, TestRepository.fixtures.appendingPathComponent("llama-vocab")]
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
