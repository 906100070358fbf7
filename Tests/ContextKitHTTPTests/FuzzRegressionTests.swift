import Foundation
import TestSupport
import Testing
@testable import ContextKitHTTP

/// Every input the fuzzer once broke (`Tests/Fixtures/fuzz-regressions/sse/`),
/// replayed through `ContextKitHTTPFuzzProperties`, with a few hostile streams
/// written by hand so the property runs even while the folder is empty.
@Suite("fuzz regressions: ContextKitHTTP")
struct FuzzRegressionTests {
    static let handWritten: [[UInt8]] = [
        [], [0x0D], [0x0D, 0x0A, 0x0D], Array("data: a\r\r\ndata: b\n\n".utf8), [0xEF, 0xBB, 0xBF] + Array("data:x\n\n".utf8),
        Array("id: a\u{0}b\ndata: x\n\nretry: 99999999999999999999999\n\n".utf8), Array("data".utf8) + [0x0A, 0x0A, 0xFF, 0x0A, 0x0A]
    ]

    @Test("kept and hand-written streams keep their property")
    func replay() throws {
        let folder = TestRepository.fixtures.appendingPathComponent("fuzz-regressions/sse")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let kept = try names.sorted().map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
        for (name, bytes) in kept + Self.handWritten.enumerated().map({ ("hand-written \($0.offset)", $0.element) }) {
            let failure = ContextKitHTTPFuzzProperties.serverSentEvents(bytes)
            #expect(failure == nil, "sse/\(name): \(failure ?? "")")
        }
    }
}
