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
}
