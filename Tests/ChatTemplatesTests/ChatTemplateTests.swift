import Foundation
import Testing
import ChatTemplates
import TokenKit
import TestSupport

/// ChatTemplate renders exactly what Jinja2 (as Hugging Face configures it)
/// renders; expected outputs come from Tests/Fixtures/chat-templates/generate.py.
@Suite("Chat templates")
struct ChatTemplateTests {
    struct Case: Decodable {
        let template: String
        let conversation: String
        let add_generation_prompt: Bool
        let messages: [ChatTemplate.Message]
        let text: String?
        let error: String?
    }

    static let folder = TestRepository.root.appendingPathComponent("Tests/Fixtures/chat-templates")

    static func source(of name: String) throws -> String {
        if name == "gguf:qwen2" {
            return try #require(try GGUFFile(contentsOf: TestRepository.gguf.appendingPathComponent("ggml-vocab-qwen2.gguf")).chatTemplate)
        }
        return try String(contentsOf: folder.appendingPathComponent("templates/\(name).jinja"), encoding: .utf8)
    }

    @Test("renders every case exactly as Jinja2 does")
    func matchesJinja() throws {
        let cases = try JSONDecoder().decode([Case].self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
        #expect(cases.count >= 60)
        var failures: [String] = []
        for c in cases {
            let template = try ChatTemplate(try Self.source(of: c.template))
            do {
                let text = try template.render(messages: c.messages, addGenerationPrompt: c.add_generation_prompt, bosToken: "<s>", eosToken: "</s>")
                if let expected = c.text, text != expected {
                    failures.append("\(c.template)/\(c.conversation)/\(c.add_generation_prompt): got \(String(reflecting: text)), Jinja2 \(String(reflecting: expected))")
                } else if c.error != nil {
                    failures.append("\(c.template)/\(c.conversation): rendered, Jinja2 raised \(c.error!)")
                }
            } catch {
                if let expected = c.error {
                    #expect("\(error)".contains(expected))
                } else {
                    failures.append("\(c.template)/\(c.conversation): \(error)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) renderings differ:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    @Test("an unsupported statement is named, not guessed")
    func unsupported() {
        #expect(throws: ChatTemplateError.self) { try ChatTemplate("{% macro x() %}{% endmacro %}") }
        #expect(throws: ChatTemplateError.self) { try ChatTemplate("{{ 1 }") }
    }
}
