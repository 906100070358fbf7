import Foundation
import TestSupport
import Testing
@testable import ContextKit

/// Every input the fuzzer once broke (`Tests/Fixtures/fuzz-regressions/<target>/`),
/// replayed through the property of its target (`ContextKitFuzzProperties`,
/// `PlannerFuzzProperties`), with a few hostile inputs written by hand so
/// each property runs even while its folder is empty.
@Suite("fuzz regressions: ContextKit")
struct FuzzRegressionTests {
    static let targets = ["schema-json", "schema-swift", "chunk-planner", "chat", "jsonl"]

    static func property(_ target: String, _ bytes: [UInt8]) -> String? {
        switch target {
        case "schema-json": return ContextKitFuzzProperties.schemaJSON(bytes)
        case "schema-swift": return ContextKitFuzzProperties.schemaSwift(bytes)
        case "chunk-planner": return PlannerFuzzProperties.plan(bytes)
        case "chat": return ConversationFuzzProperties.chat(bytes)
        case "jsonl": return CorpusFuzzProperties.jsonl(bytes)
        default: return "no property for \(target)"
        }
    }

    static let handWritten: [String: [[UInt8]]] = [
        "schema-json": [
            [], Array(#"{"a": 1,}"#.utf8), Array(repeating: UInt8(ascii: "["), count: 600), Array(##"{"$ref":"#"}"##.utf8),
            Array(##"{"type":"object","properties":{"a":{"$ref":"#/properties/a"}}}"##.utf8), [0x22, 0xFF, 0x22]
        ],
        "schema-swift": [
            [], Array("@Generable struct".utf8), Array("@Generable struct A { @Guide(description: \"".utf8),
            Array("@Generable enum E { case a, b }\n@Generable struct S { var e: E; var s: [S] }".utf8)
        ],
        "chat": [
            [], Array("[\n{\"role\": \"user\", \"content\": \"x\"".utf8), Array(#"[{"role":"assistant","content":null,"tool_calls":[]}]"#.utf8),
            Array(#"{"messages":[{"role":"user","content":[{"type":"text","text":"<|im_start|>"}]}],"tools":[{"type":"function","function":{"name":"f"}}]}"#.utf8),
            Array(#"[{"role":"assistant","content":"prefill"}]"#.utf8), [0x5B, 0xFF, 0x5D]
        ],
        "jsonl": [
            [], [5, 3], [47, 3] + Array("{\"text\":\"a\"}\r\n\n   \n{\"id\":1,\"text\":\"\\ud83d\\ude00\"}\r\n[1]\n{\"text\":\"\\ud800\"}".utf8),
            [2, 1] + Array("{\"text\":\"much too long\"}\r\n{}\r".utf8), [47, 39] + Array(repeating: 0x0A, count: 100) + [0xFF, 0x0D]
        ],
        "chunk-planner": [[0, 0, 0], [1, 0, 0] + Array("👩‍👩‍👧‍👦".utf8), [2, 3, 4] + Array(repeating: 0x0A, count: 3000), [3, 255, 0] + [0xFF, 0xC3]]
    ]

    @Test("kept and hand-written inputs keep their property", arguments: targets)
    func replay(target: String) throws {
        let folder = TestRepository.fixtures.appendingPathComponent("fuzz-regressions/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let kept = try names.sorted().map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
        for (name, bytes) in kept + (Self.handWritten[target] ?? []).enumerated().map({ ("hand-written \($0.offset)", $0.element) }) {
            let failure = Self.property(target, bytes)
            #expect(failure == nil, "\(target)/\(name): \(failure ?? "")")
        }
    }
}
