import Foundation
import TestSupport
import Testing

/// Every template the `chat-template` fuzz target once broke
/// (`Tests/Fixtures/fuzz-regressions/chat-template/`), replayed through
/// `ChatTemplateFuzzProperties.render`, with the hostile constructs of issue 44
/// written by hand so the property runs even while the folder is empty.
@Suite("fuzz regressions: chat templates")
struct ChatTemplateFuzzRegressionTests {
    static let handWritten = [
        "", "{{", "{% for %}", "{{ 9223372036854775807 + 1 }}", "{{ -9223372036854775807 - 2 }}", "{{ 9223372036854775807 * 2 }}",
        "{{ -(-9223372036854775807 - 1) }}", "{{ (-9223372036854775807 - 1) // -1 }}", "{{ (-9223372036854775807 - 1) % -1 }}",
        "{{ range(0, 10, 0) }}", "{{ 'abc'[::0] }}", "{% for i in range(1000000000) %}x{% endfor %}", "{{ 'x' * 100000000 }}",
        "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s.replace('a', ns.s) %}{% endfor %}{{ ns.s }}",
        "{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% set ns.l = [ns.l] %}{% endfor %}{{ ns.l }}",
        String(repeating: "{% if true %}", count: 2000) + String(repeating: "{% endif %}", count: 2000),
        String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000),
        "{% for m in messages %}{% for n in messages %}{{ m.content ~ n.content }}{% endfor %}{% endfor %}{{ tools | tojson }}"
    ]

    @Test("kept and hand-written templates keep their property")
    func replay() throws {
        let folder = TestRepository.fixtures.appendingPathComponent("fuzz-regressions/chat-template")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let kept = try names.sorted().map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
        for (name, bytes) in kept + Self.handWritten.enumerated().map({ ("hand-written \($0.offset)", Array($0.element.utf8)) }) {
            let failure = ChatTemplateFuzzProperties.render(bytes)
            #expect(failure == nil, "chat-template/\(name): \(failure ?? "")")
        }
    }
}
