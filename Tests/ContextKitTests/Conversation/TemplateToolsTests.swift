import ContextKit
import ContextKitJSON
import Foundation
import TestSupport
import Testing

/// Tools and tool calls reach a chat template as Hugging Face passes them:
/// the prompt equals Jinja2's (Tests/Fixtures/conversations/generate.py) and
/// the tool block is priced as tools, not as the first message.
@Suite struct TemplateToolsTests {
    static let folder = TestRepository.fixtures.appendingPathComponent("conversations")

    struct Case: Decodable { let name: String; let prompt: String }

    @Test func promptsEqualJinjaAndTheirCountsAddUp() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let source = try String(contentsOf: Self.folder.appendingPathComponent("tools-chatml.jinja"), encoding: .utf8)
        let predictor = PromptPredictor(tokenizer: tokenizer, template: try ChatTemplate(source), bosToken: "", eosToken: "", addsBOS: false)
        let counter = try ConversationCounter(
            profile: ModelProfile(name: "tools", contextWindow: 4096, tokenizer: .encoding("cl100k_base")),
            tokenizer: tokenizer, framing: .template(predictor))
        let expected = try JSONDecoder().decode([Case].self, from: Data(contentsOf: Self.folder.appendingPathComponent("expected.json")))
        let inputs = try JSONParser.parse([UInt8](Data(contentsOf: Self.folder.appendingPathComponent("conversations.json")))).elements ?? []
        #expect(inputs.count == expected.count && expected.count >= 5)
        var tokens = 0
        for (input, want) in zip(inputs, expected) {
            let conversation = try Conversation(json: input["body"]!)
            let count = try counter.count(conversation)
            #expect(count.renderedPrompt == want.prompt, "\(want.name)")
            #expect(count.total == (try tokenizer.count(want.prompt, allowedSpecial: .all)), "\(want.name)")
            #expect((count.tools > 0) == !conversation.tools.isEmpty, "\(want.name): tools \(count.tools)")
            tokens += count.total
        }
        #expect(tokens > 0)
    }
}
