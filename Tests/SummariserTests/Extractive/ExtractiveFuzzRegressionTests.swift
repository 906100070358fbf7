import Foundation
import TestSupport
import Testing
@testable import Summariser

/// Every input kept in `Tests/Fixtures/fuzz-regressions/extractive/`, and a
/// few hostile ones written here, through the `extractive` fuzz target's
/// property (`ExtractiveFuzzProperties.summarise`).
@Suite struct ExtractiveFuzzRegressionTests {
    static let handWritten: [String] = [
        "", "***\n***\n", "```", "> \\\n> \\", "- \n  - \n    - ", "<!--", "---\ntitle:\n---", "| | |\n|-|-|",
        "1. A. B. C. D. E. F.\n   G.", "\u{301}e\u{301}. Ab\u{301} cd ef gh ij kl.", "[a]: b\n[c]:", "#\n##\n###### x ######", ".", "!?"
    ]

    @Test func keptAndHandWrittenInputsKeepTheProperty() throws {
        let folder = TestRepository.fixtures.appendingPathComponent("fuzz-regressions/extractive")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        let kept = try names.map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
        for (name, bytes) in kept + Self.handWritten.enumerated().map({ ("hand-written \($0.offset)", Array($0.element.utf8)) }) {
            let failure = ExtractiveFuzzProperties.summarise(bytes)
            #expect(failure == nil, "\(name): \(failure ?? "")")
        }
    }
}
