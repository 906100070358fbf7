import Foundation
import TestSupport
import Testing
@testable import TokenKit

extension OpenModels {
    /// Texts of 64 KB or more go through `PieceCache`; these compare such
    /// texts, encoded whole, with the reference library of each kind of open
    /// model (`Tests/Fixtures/sentencepiece/reference.py`). The OpenAI
    /// encodings' long texts are compared with tiktoken in
    /// `LiveTiktokenDifferentialTests.longTexts`.
    @Suite struct PieceCacheTests {
        /// Every UDHR text joined (6 MB, many scripts: most pieces are new and
        /// evict one another), and the first 20 joined five times over (the
        /// same pieces again: most are hits).
        static func writeLongFiles(into folder: TempDir) throws -> [String] {
            let texts = OpenModelFixtures.udhrTexts.map(\.text)
            try #require(texts.count >= 20, "the UDHR texts in ../shared/data/udhr are missing")
            let repeated = Array(repeating: texts.prefix(20).joined(separator: "\n"), count: 5).joined(separator: "\n\n")
            return [try folder.write("udhr-all.txt", texts.joined(separator: "\n")),
                    try folder.write("udhr-20-five-times.txt", repeated)]
        }

        static let models: [(kind: String, path: String)] = [
            ("sentencepiece", TestRepository.fixtures.appendingPathComponent("sentencepiece/botchan_en_bpe_1000.model").path),
            ("sentencepiece", TestRepository.fixtures.appendingPathComponent("sentencepiece/kyoto_ja_unigram_8000.model").path),
            ("tokenizers", TestRepository.fixtures.appendingPathComponent("sentencepiece/botchan_en_unigram_1000.tokenizer.json").path),
            ("tokenizers", TestRepository.fixtures.appendingPathComponent("wordpiece/all-minilm-l6-v2/tokenizer.json").path),
            ("tokenizers", OpenModelFixtures.hfFolder.appendingPathComponent("qwen3.tokenizer.json").path),
            ("tokenizers", OpenModelFixtures.hfFolder.appendingPathComponent("claude-legacy.tokenizer.json").path),
        ]

        @Test("long texts, encoded through the piece memo, give the reference library's ids",
              .enabled(if: PythonPeer.python != nil || TestRepository.isCI, "Python peers not installed: run scripts/python-env"),
              arguments: models.map(\.path))
        func longTextsMatchTheReference(_ path: String) throws {
            let folder = try TempDir()
            let files = try Self.writeLongFiles(into: folder)
            for file in files {
                let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0
                #expect(size >= PieceCache.minimumText, "\(file) is too short to reach the piece memo")
            }
            let kind = try #require(Self.models.first { $0.path == path }).kind
            let output = try PythonPeer.run(script: "Tests/Fixtures/sentencepiece/reference.py", arguments: [kind, path] + files)
            let decoder = JSONDecoder()
            let cases = try output.split(separator: UInt8(ascii: "\n"))
                .map { try decoder.decode(SentencePieceModelTests.Case.self, from: Data($0)) }
                .filter { $0.path != nil }
            try #require(cases.count == files.count)
            let tokenizer = try Tokenizer.load(contentsOf: URL(fileURLWithPath: path))
            let (summary, failures) = try SentencePieceModelTests.compare(tokenizer, cases, name: "long texts, \(URL(fileURLWithPath: path).lastPathComponent)")
            print(summary)
            #expect(failures.isEmpty, "\(failures)")
        }
    }
}
