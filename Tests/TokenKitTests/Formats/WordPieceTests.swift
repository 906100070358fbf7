import Foundation
import TestSupport
import Testing
@testable import TokenKit

extension OpenModels {
    /// WordPiece `tokenizer.json` (all-MiniLM-L6-v2) against Hugging Face `tokenizers`.
    @Suite struct WordPieceTests {
        static let folder = TestRepository.fixtures.appendingPathComponent("wordpiece/all-minilm-l6-v2")
        static let file = folder.appendingPathComponent("tokenizer.json")

        /// Every case `tokenizers` encoded (UDHR, corpora, llama.cpp's cases,
        /// BERT's corner cases, repeats, fuzz) gives the same ids here.
        @Test func sameIDsAsHuggingFace() throws {
            let tokenizer = try Tokenizer.load(contentsOf: Self.file)
            let fixtures = try TokenFixture.load(path: "wordpiece/all-minilm-l6-v2.jsonl")
            var failures: [String] = []
            var tokens = 0
            for f in fixtures {
                let ids = try tokenizer.encode(f.text, allowedSpecial: .all)
                tokens += f.count
                if ids.count != f.count || TokenFixture.fnv1a64(ids) != f.fnv1a64 || Array(ids.prefix(f.ids.count)) != f.ids {
                    let at = zip(ids, f.ids).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ids.count, f.ids.count)
                    failures.append(
                        "\(f.name): \(ids.count) tokens, expected \(f.count); first difference at \(at): \(ids.dropFirst(at).prefix(6)) vs \(f.ids.dropFirst(at).prefix(6))")
                }
            }
            let udhr = fixtures.filter { $0.name.hasPrefix("udhr/") }.count
            print("parity all-minilm-l6-v2 WordPiece: \(fixtures.count - failures.count)/\(fixtures.count) cases (\(udhr) UDHR), \(tokens) tokens, \(failures.count) mismatches")
            #expect(udhr >= 388)
            #expect(failures.isEmpty, "\(failures.count) cases differ:\n\(failures.prefix(20).joined(separator: "\n"))")
        }

        /// Counting, token ranges and decoding agree with encoding.
        @Test func rangesAndDecoding() throws {
            let tokenizer = try Tokenizer.load(contentsOf: Self.file)
            #expect(tokenizer.modelDescription == "Hugging Face WordPiece, BERT normalizer")
            let text = "Unaffable CAFÉ, 北京!"
            let ids = tokenizer.encodeOrdinary(text)
            #expect(tokenizer.count(text) == ids.count)
            // una ##ffa ##ble cafe , 北 京 ! (tokenizers: [14477, 20961, 3468, 7668, 1010, 1781, 1755, 999])
            #expect(ids == [14477, 20961, 3468, 7668, 1010, 1781, 1755, 999])
            #expect(try tokenizer.decode(ids) == "unaffable cafe , 北 京 !")
            var ranges: [Range<Int>] = []
            var bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { b in tokenizer.forEachToken(utf8: b, from: 0, to: b.count) { ranges.append($0.bytes) } }
            #expect(ranges.count == ids.count)
            #expect(ranges.first == 0..<3)
            #expect(String(decoding: bytes[ranges[3]], as: UTF8.self) == "CAFÉ")
            bytes.removeAll()
        }

        /// A word past `max_input_chars_per_word`, or with a character no token
        /// continues, is the one `[UNK]`.
        @Test func unknownWords() throws {
            let tokenizer = try Tokenizer.load(contentsOf: Self.file)
            #expect(tokenizer.encodeOrdinary(String(repeating: "a", count: 101)) == [100])
            // What tokenizers gives: the snowman continues nothing, so the whole word is unknown.
            #expect(tokenizer.encodeOrdinary("xa\u{2603}b x") == [100, 1060])
        }

        /// A vocabulary without its unknown token is refused with the file and the token.
        @Test func missingUnknownTokenIsRefused() throws {
            let json = ###"{"model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"a": 0, "##b": 1}}}"###
            #expect {
                try HuggingFaceTokenizerFile.tokenizer(json: Data(json.utf8), path: "x/tokenizer.json", name: "tokenizer.json")
            } throws: { error in
                "\(error)".contains("x/tokenizer.json") && "\(error)".contains("[UNK]")
            }
        }
    }
}
