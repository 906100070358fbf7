import Foundation
import Testing
import TestSupport

/// Every input the fuzzer once broke (`Tests/Fixtures/fuzz-regressions/json/`),
/// replayed through `ContextKitJSONFuzzProperties.json`, with hostile inputs
/// written by hand so the property runs even while the folder is empty.
@Suite("fuzz regressions: ContextKitJSON")
struct FuzzRegressionTests {
    static let handWritten: [[UInt8]] = [
        [], [0xEF, 0xBB, 0xBF], Array("[1,]".utf8), Array("{\"a\": [1 ,\n],}".utf8), [0x31, 0x00], [0xFF, 0xFE, 0x31, 0x00],
        Array(repeating: UInt8(ascii: "["), count: 513) + Array(repeating: UInt8(ascii: "]"), count: 513),
        Array(repeating: UInt8(ascii: "{"), count: 100_000), Array("1e400".utf8), Array("-0".utf8), [0x22, 0xFF, 0x22],
        Array(#"["\ud800", "\udc00"]"#.utf8), Array("\"\u{7F}\u{85}\u{2028}/\"".utf8), Array("{\"a\":1,\"a\":2}".utf8), Array("{\"a\": [1e400], \"a\": 1}".utf8)
    ]

    @Test("kept and hand-written inputs keep their property")
    func replay() throws {
        let folder = TestRepository.root.appendingPathComponent("Tests/Fixtures/fuzz-regressions/json")
        let kept = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        var inputs = Self.handWritten.enumerated().map { ("hand-written \($0.offset)", $0.element) }
        for url in kept.sorted(by: { $0.path < $1.path }) { inputs.append((url.lastPathComponent, [UInt8](try Data(contentsOf: url)))) }
        for (name, bytes) in inputs {
            let failure = ContextKitJSONFuzzProperties.json(bytes)
            #expect(failure == nil, "json/\(name): \(failure ?? "")")
        }
    }
}
