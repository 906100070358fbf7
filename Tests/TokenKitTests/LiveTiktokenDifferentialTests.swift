import Foundation
import TestSupport
import Testing
import TokenKit

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

    @Test("identical ids on a fresh seeded sample",
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

    @Test("identical ids, counts and token ranges on texts long enough for the piece memo",
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
}
