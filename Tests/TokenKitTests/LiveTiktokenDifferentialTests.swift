import Foundation
import TestSupport
import Testing
@testable import TokenKit

/// A larger seeded sample than the committed fixtures, compared against
/// tiktoken running in the same test run (`scripts/tiktoken-oracle.py`).
/// Skipped only outside CI when the Python peers are not installed.
@Suite("live differential against tiktoken")
struct LiveTiktokenDifferentialTests {
    struct Sample: Decodable {
        let `case`: String
        let encoding: String
        let text: String
        let ids: [Int]
    }

    @Test(
        "identical ids on a fresh seeded sample",
        .enabled(if: PythonPeer.python != nil || TestRepository.isCI, "Python peers not installed: run scripts/python-env"))
    func freshSample() throws {
        let output = try PythonPeer.run(script: "scripts/tiktoken-oracle.py", arguments: ["--sample", "2000", "--seed", "20261129"])
        let decoder = JSONDecoder()
        var compared = 0, tokens = 0
        var mismatches: [String] = []
        for line in output.split(separator: UInt8(ascii: "\n")) {
            let sample = try decoder.decode(Sample.self, from: Data(line))
            let ids = try Tokenizer.named(sample.encoding).encodeOrdinary(sample.text)
            compared += 1
            tokens += sample.ids.count
            if ids != sample.ids { mismatches.append("\(sample.encoding) \(sample.case)") }
        }
        print("live tiktoken differential: \(compared) cases, \(tokens) tokens compared, \(mismatches.count) mismatches")
        #expect(compared >= 8000)
        #expect(mismatches.isEmpty, "differs from tiktoken: \(mismatches.prefix(20))")
    }

    @Test(
        "identical ids, counts and token ranges on texts long enough for the piece memo",
        .enabled(if: PythonPeer.python != nil || TestRepository.isCI, "Python peers not installed: run scripts/python-env"))
    func longTexts() throws {
        let output = try PythonPeer.run(script: "scripts/tiktoken-oracle.py", arguments: ["--long", "6", "--seed", "20261201"])
        let decoder = JSONDecoder()
        var compared = 0, tokens = 0
        var mismatches: [String] = []
        for line in output.split(separator: UInt8(ascii: "\n")) {
            let sample = try decoder.decode(Sample.self, from: Data(line))
            let tokenizer = try Tokenizer.named(sample.encoding)
            var text = sample.text
            let (ids, count, rangesHoldTheirTokens) = try text.withUTF8 { bytes in
                let listed = try tokenizer.tokens(utf8: bytes, allowedSpecial: .plainText)
                let exact = try listed.allSatisfy { token in
                    try tokenizer.decodeBytes([token.id]).elementsEqual(bytes[token.bytes])
                }
                let tiled = zip(listed, listed.dropFirst()).allSatisfy { $0.bytes.upperBound == $1.bytes.lowerBound }
                return (tokenizer.encodeOrdinary(utf8: bytes), tokenizer.count(utf8: bytes), exact && tiled && listed.map(\.id) == sample.ids)
            }
            #expect(sample.text.utf8.count >= 64 * 1_024, "\(sample.case) is too short to reach the piece memo")
            compared += 1
            tokens += sample.ids.count
            if ids != sample.ids || count != sample.ids.count || !rangesHoldTheirTokens { mismatches.append("\(sample.encoding) \(sample.case)") }
        }
        print("live tiktoken differential, long texts: \(compared) cases, \(tokens) tokens compared, \(mismatches.count) mismatches")
        #expect(compared == 24)
        #expect(mismatches.isEmpty, "differs from tiktoken: \(mismatches)")
    }
    /// tiktoken decides `\p{L}` and the rest by Unicode 16.0 (its regex
    /// crate's tables), while both of TokenKit's sources are 15.0: every
    /// character whose classes changed since, in the contexts where a class
    /// decides a piece boundary, through each pattern.
    @Test(
        "identical ids on every character whose classes changed since Unicode 15.0",
        .enabled(if: PythonPeer.python != nil || TestRepository.isCI, "Python peers not installed: run scripts/python-env"))
    func charactersNewerThanUnicode15() throws {
        let changed = CharacterClassTable.UnicodeVersion.v16_0.changesSince15.flatMap { $0.0...$0.1 }.compactMap(Unicode.Scalar.init)
        var texts: [String] = []
        for start in stride(from: 0, to: changed.count, by: 400) {
            texts.append(
                changed[start..<min(start + 400, changed.count)].map { c in
                    "a\(c)'S \(c)\(c)1 1\(c) '\(c)' A\(c)b \(c)ʕ\(c)x.\(c)!\n"
                }.joined())
        }
        let encodings = ["cl100k_base", "o200k_base", "r50k_base"]
        var requests = Data()
        for encoding in encodings {
            for text in texts {
                requests += try JSONSerialization.data(withJSONObject: ["encoding": encoding, "text": text]) + Data("\n".utf8)
            }
        }
        let answers = try PythonPeer.run(script: "scripts/tiktoken-oracle.py", arguments: [], input: requests)
            .split(separator: UInt8(ascii: "\n"))
        #expect(answers.count == encodings.count * texts.count)
        var mismatches: [String] = [], tokens = 0
        for (n, answer) in answers.enumerated() {
            let ids = try JSONDecoder().decode([String: [Int]].self, from: Data(answer))["ids"] ?? []
            let encoding = encodings[n / texts.count]
            tokens += ids.count
            if try Tokenizer.named(encoding).encodeOrdinary(texts[n % texts.count]) != ids { mismatches.append("\(encoding) text \(n % texts.count)") }
        }
        print("live tiktoken differential, characters changed since Unicode 15.0: \(changed.count) characters, \(tokens) tokens compared, \(mismatches.count) mismatches")
        #expect(changed.count > 4_000)
        #expect(mismatches.isEmpty, "differs from tiktoken: \(mismatches)")
    }
}
