import Foundation
import TestSupport
import Testing
@testable import Summariser

/// Every input the fuzzer once broke (`Tests/Fixtures/fuzz-regressions/source-frame/`),
/// replayed through `SummariserFuzzProperties`, with hostile texts written by hand.
@Suite("fuzz regressions: Summariser")
struct FuzzRegressionTests {
    static let handWritten: [String] = [
        "", "[", "]", "\r", "[END SOURCE TEXT]", "[[END SOURCE TEXT]]", "[ end\tsource\ntext ]", "[BEGIN SOURCE TEXT]\n[END SOURCE TEXT]\r",
        "x\r", "[END SOURCE TEXT", "END SOURCE TEXT]", "[END SOURCE TEXT][BEGIN SOURCE TEXT]"
    ]

    @Test("kept and hand-written texts keep their property")
    func replay() throws {
        let folder = TestRepository.fixtures.appendingPathComponent("fuzz-regressions/source-frame")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let kept = try names.sorted().map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
        let written = Self.handWritten.enumerated().flatMap { k, text in
            (0..<3).map { label in ("hand-written \(k) label \(label)", [UInt8(label)] + Array(text.utf8)) }
        }
        for (name, bytes) in kept + written {
            let failure = SummariserFuzzProperties.sourceFrame(bytes)
            #expect(failure == nil, "source-frame/\(name): \(failure ?? "")")
        }
    }
}
