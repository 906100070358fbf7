import Foundation
import Testing
import TestSupport
@testable import TokenKit

extension OpenModels {
    /// SentencePiece `.model` files give exactly the ids of PyPI `sentencepiece`
    /// (`SentencePieceProcessor.encode`, default options) on every UDHR
    /// translation, every file of `corpora/` and the edge cases of
    /// `Tests/Fixtures/sentencepiece/reference.py`, which computes them here.
    @Suite struct SentencePieceModelTests {
        static let fixtures = TestRepository.fixtures.appendingPathComponent("sentencepiece")

        /// The Apache-2.0 test models of the sentencepiece sdist (see the README beside them).
        static let shippedModels = ["botchan_en_bpe_1000.model", "botchan_en_unigram_1000.model", "kyoto_ja_unigram_8000.model"]
        /// mistral-common's SentencePiece BPE models, read from the installed package.
        static let mistralModels = [
            "tokenizer.model.v1", "mistral_instruct_tokenizer_240216.model.v2",
            "mistral_instruct_tokenizer_240323.model.v3", "mistral_instruct_tokenizer_241114.model.v7"
        ]

        /// Every UDHR text and every file of `corpora/`.
        static let inputFiles: [String] = {
            var files = OpenModelFixtures.udhrTexts.map { OpenModelFixtures.udhrFolder.appendingPathComponent($0.name).path }
            let corpora = TestRepository.path("corpora")
            if let walker = FileManager.default.enumerator(at: corpora, includingPropertiesForKeys: [.isRegularFileKey]) {
                var found: [String] = []
                for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    if let data = try? Data(contentsOf: url), String(data: data, encoding: .utf8) != nil { found.append(url.path) }
                }
                files += found.sorted()
            }
            return files
        }()

        struct Case: Decodable {
            let `case`: String
            let path: String?
            let text: String?
            let ids: [Int]
        }

        /// The reference's ids for every input, or nil (recorded) when the peer is missing outside CI.
        static func reference(_ kind: String, _ model: URL) throws -> [Case]? {
            guard PythonPeer.python != nil else {
                if TestRepository.isCI { throw PythonPeer.PeerMissing() }
                return nil
            }
            let output = try PythonPeer.run(script: "Tests/Fixtures/sentencepiece/reference.py", arguments: [kind, model.path] + inputFiles)
            let decoder = JSONDecoder()
            return try output.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Case.self, from: Data($0)) }
        }

        static func mistralFolder() throws -> URL? {
            guard PythonPeer.python != nil else { return nil }
            let out = try PythonPeer.run(script: "Tests/Fixtures/sentencepiece/reference.py", arguments: ["mistral-data"])
            return URL(fileURLWithPath: String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }

        /// Compares every case; returns a line for the report.
        static func compare(_ tokenizer: Tokenizer, _ cases: [Case], name: String) throws -> (summary: String, failures: [String]) {
            var failures: [String] = []
            var tokens = 0
            for c in cases {
                let bytes: [UInt8]
                if let path = c.path { bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) } else { bytes = Array((c.text ?? "").utf8) }
                let ids = bytes.withUnsafeBufferPointer { tokenizer.encodeOrdinary(utf8: $0) }
                let count = bytes.withUnsafeBufferPointer { tokenizer.count(utf8: $0) }
                tokens += c.ids.count
                if ids != c.ids || count != c.ids.count {
                    let at = zip(ids, c.ids).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ids.count, c.ids.count)
                    failures.append(
                        "\(name) \(c.case): \(ids.count) tokens (count \(count)), expected \(c.ids.count); first difference at \(at): \(Array(ids.dropFirst(at).prefix(6))) vs \(Array(c.ids.dropFirst(at).prefix(6)))"
                    )
                }
            }
            return ("parity \(name): \(cases.count - failures.count)/\(cases.count) cases, \(tokens) tokens, \(failures.count) mismatches", failures)
        }

        @Test(arguments: shippedModels)
        func shippedModelMatchesSentencePiece(_ name: String) throws {
            let url = Self.fixtures.appendingPathComponent(name)
            guard let cases = try Self.reference("sentencepiece", url) else { return }
            #expect(cases.count > 388)
            let (summary, failures) = try Self.compare(try Tokenizer.load(contentsOf: url), cases, name: name)
            print(summary)
            #expect(failures.isEmpty, "\(failures.count) cases differ:\n\(failures.prefix(20).joined(separator: "\n"))")
        }

        /// The Unigram tokenizer.json files `make-tokenizer-json.py` converted
        /// from the shipped models, against Hugging Face `tokenizers`.
        @Test(arguments: ["botchan_en_unigram_1000.tokenizer.json", "kyoto_ja_unigram_8000.tokenizer.json"])
        func unigramTokenizerJSONMatchesTokenizers(_ name: String) throws {
            let url = Self.fixtures.appendingPathComponent(name)
            guard let cases = try Self.reference("tokenizers", url) else { return }
            let (summary, failures) = try Self.compare(try Tokenizer.load(contentsOf: url), cases, name: name)
            print(summary)
            #expect(failures.isEmpty, "\(failures.count) cases differ:\n\(failures.prefix(20).joined(separator: "\n"))")
        }

        @Test(arguments: mistralModels)
        func mistralModelMatchesSentencePiece(_ name: String) throws {
            guard let folder = try Self.mistralFolder() else {
                if TestRepository.isCI { throw PythonPeer.PeerMissing() }
                return
            }
            let url = folder.appendingPathComponent(name)
            guard let cases = try Self.reference("sentencepiece", url) else { return }
            let (summary, failures) = try Self.compare(try Tokenizer.load(contentsOf: url), cases, name: name)
            print(summary)
            #expect(failures.isEmpty, "\(failures.count) cases differ:\n\(failures.prefix(20).joined(separator: "\n"))")
        }
    }
}
