import ContextKitJSON
import Foundation
import TestSupport
import Testing
@testable import ContextKit

/// A long conversation is placed in the prompt from one rendering (the
/// template's loop records where each message starts) instead of rendering
/// every prefix: on real templates both give the same places, and a template
/// that looks ahead still falls back, at a bounded cost.
@Suite struct TemplatedConversationLayoutTests {
    /// The chat templates at hand: Qwen2's, read from its GGUF vocabulary in
    /// the reference data, the SmolLM2-style one of the Hugging Face fixture,
    /// the fixture templates Jinja2 checks, and the tool-calling ChatML one.
    static func templates() throws -> [(name: String, predictor: PromptPredictor, alternating: Bool)] {
        let qwen2 = try PromptPredictor(gguf: TestRepository.gguf.appendingPathComponent("ggml-vocab-qwen2.gguf"))
        let tokenizer = try Tokenizer.named("cl100k_base")
        func predictor(_ path: String) throws -> PromptPredictor {
            let source = try String(contentsOf: TestRepository.fixtures.appendingPathComponent(path), encoding: .utf8)
            return PromptPredictor(tokenizer: tokenizer, template: try ChatTemplate(source), bosToken: "<|endoftext|>", eosToken: "<|endoftext|>", addsBOS: false)
        }
        let config = try JSONParser.parse([UInt8](Data(contentsOf: TestRepository.fixtures.appendingPathComponent("hf-chat-model/tokenizer_config.json"))))
        let smol = PromptPredictor(
            tokenizer: tokenizer, template: try ChatTemplate(try #require(config["chat_template"]?.stringValue)),
            bosToken: "<|endoftext|>", eosToken: "<|endoftext|>", addsBOS: true)
        return [
            ("gguf:qwen2", qwen2, false), ("hf-chat-model", smol, false),
            ("chatml-default-system", try predictor("chat-templates/templates/chatml-default-system.jinja"), false),
            ("header-blocks", try predictor("chat-templates/templates/header-blocks.jinja"), false),
            ("namespace-and-filters", try predictor("chat-templates/templates/namespace-and-filters.jinja"), false),
            ("alternating-inst", try predictor("chat-templates/templates/alternating-inst.jinja"), true),
            ("tools-chatml", try predictor("conversations/tools-chatml.jinja"), false)
        ]
    }

    /// `count` messages after a system prompt: user turns, assistant replies
    /// (some calling a tool, some empty), tool results, a named user; or only
    /// user and assistant in turn for a template that insists on it.
    static func conversation(_ count: Int, alternating: Bool, endingWithAssistant: Bool = false) throws -> Conversation {
        var messages = [ChatMessage(role: .system, content: "You answer in one line.")]
        for k in 0..<count {
            let content = "turn \(k): " + String(repeating: "naïve café 東京 ", count: k % 4)
            if alternating {
                messages.append(ChatMessage(role: k % 2 == 0 ? .user : .assistant, content: content))
                continue
            }
            switch k % 6 {
            case 0: messages.append(ChatMessage(role: .user, content: content, name: k % 12 == 0 ? "ann" : nil))
            case 1:
                var call = ChatMessage(role: .assistant, content: "")
                call.toolCalls = try JSONParser.parse(Array(#"[{"id": "c\#(k)", "type": "function", "function": {"name": "f", "arguments": {"x": \#(k)}}}]"#.utf8))
                messages.append(call)
            case 2:
                var result = ChatMessage(role: .tool, content: "\(k * k)")
                result.toolCallID = "c\(k - 1)"
                messages.append(result)
            case 3: messages.append(ChatMessage(role: .assistant, content: content))
            case 4: messages.append(ChatMessage(role: .user, content: content + "<|im_end|>"))
            default: messages.append(ChatMessage(role: .assistant, content: content))
            }
        }
        if endingWithAssistant && messages.last?.role != .assistant { messages.append(ChatMessage(role: .assistant, content: "Sure,")) }
        if !endingWithAssistant && messages.last?.role == .assistant { messages.append(ChatMessage(role: .user, content: "And then?")) }
        return Conversation(messages: messages)
    }

    @Test(arguments: [false, true])
    func theLayoutPlacesEveryMessageWhereItsPrefixEnds(endingWithAssistant: Bool) throws {
        var placed: [String] = []
        for (name, predictor, alternating) in try Self.templates() {
            let conversation = try Self.conversation(47, alternating: alternating, endingWithAssistant: endingWithAssistant)
            let messages = conversation.messages
            let templated = TemplatedConversation(predictor: predictor, conversation: conversation)
            let (bare, boundaries) = try templated.renderWithLayout(messages)
            let layout = try #require(boundaries, "\(name): no layout")
            guard let byPrefixes = try templated.ends(byPrefixesOf: messages, bare: bare) else {
                // A template that renders a shorter conversation differently: the checkpoints see it too.
                #expect(try templated.ends(byLayout: layout, of: messages, bare: bare) == nil, "\(name)")
                continue
            }
            // Every boundary, not only those the checkpoints check, is where its prefix ends.
            #expect(Array(layout.dropFirst()) == Array(byPrefixes.dropFirst()), "\(name)")
            #expect(try templated.ends(byLayout: layout, of: messages, bare: bare) == byPrefixes, "\(name)")
            let count = try templated.count()
            #expect(count.messages.map(\.promptBytes) == zip(byPrefixes, byPrefixes.dropFirst()).map { $0..<$1 }, "\(name)")
            #expect(count.notes.isEmpty, "\(name): \(count.notes)")
            placed.append(name)
        }
        #expect(placed.count >= 5 && placed.contains("gguf:qwen2") && placed.contains("hf-chat-model"), "\(placed)")
    }

    @Test func theCheckpointsAreBoundedAndCoverEveryKindOfMessage() throws {
        let long = try Self.conversation(4000, alternating: false)
        let checkpoints = TemplatedConversation.checkpoints(long.messages)
        #expect(checkpoints.count <= 48 && checkpoints == checkpoints.sorted())
        #expect(checkpoints.first == 1 && checkpoints.last == long.messages.count)
        #expect(Set(checkpoints.map { long.messages[$0 - 1].role }) == [.system, .user, .assistant, .tool])
        #expect(TemplatedConversation.checkpoints(Array(long.messages.prefix(16))) == Array(1...16))
    }

    /// Writes `<end>` after the last message only: every shorter conversation
    /// ends differently from its place in the whole.
    static let looksAhead = "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% if loop.last %}<end>{% endif %}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}"

    static func counter(_ source: String) throws -> ConversationCounter {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let predictor = PromptPredictor(tokenizer: tokenizer, template: try ChatTemplate(source), bosToken: "", eosToken: "", addsBOS: false)
        return try ConversationCounter(
            profile: ModelProfile(name: "t", contextWindow: 1 << 20, tokenizer: .encoding("cl100k_base")), tokenizer: tokenizer, framing: .template(predictor))
    }

    @Test func aTemplateThatLooksAheadCountsWhatEachMessageAdds() throws {
        let counter = try Self.counter(Self.looksAhead)
        let conversation = try Self.conversation(40, alternating: true)
        let count = try counter.count(conversation)
        #expect(count.notes.first?.contains("each message is what it adds to the count") == true)
        #expect(count.messages.allSatisfy { $0.promptBytes == nil })
        let firstTwo = try counter.tokenizer.count("<system>" + conversation.messages[0].content + "<user>" + conversation.messages[1].content + "<end>", allowedSpecial: .all)
        #expect(count.messages[0].tokens + count.messages[1].tokens == firstTwo)
    }

    @Test func pastTheLimitATemplateThatLooksAheadCountsEachTurnOfItsLoop() throws {
        let counter = try Self.counter(Self.looksAhead)
        let conversation = try Self.conversation(TemplatedConversation.prefixRenderingLimit + 10, alternating: true)
        let count = try counter.count(conversation)
        #expect(count.notes.first?.contains("what the template's loop wrote for it in the whole prompt") == true)
        let prompt = Array(try #require(count.renderedPrompt).utf8)
        for (m, message) in zip(count.messages, conversation.messages) {
            let span = try #require(m.promptBytes)
            #expect(String(decoding: prompt[span], as: UTF8.self).hasPrefix("<\(message.role.rawValue)>" + message.content))
        }
        #expect(count.total == (try counter.tokenizer.count(String(decoding: prompt, as: UTF8.self), allowedSpecial: .all)))
        #expect(count.overhead > 0 && count.overhead <= 4)
    }

    @Test func pastTheLimitATemplateWithoutALoopCountsEachMessagesContent() throws {
        let counter = try Self.counter("{{ messages | tojson }}")
        let conversation = try Self.conversation(TemplatedConversation.prefixRenderingLimit + 10, alternating: true)
        let count = try counter.count(conversation)
        #expect(count.notes.first?.contains("each message is its content's tokens") == true)
        #expect(count.messages.map(\.tokens) == conversation.messages.map { counter.tokenizer.count($0.content) })
        let prompt = try #require(count.renderedPrompt)
        #expect(count.overhead >= 0)
        #expect(count.total == (try counter.tokenizer.count(prompt, allowedSpecial: .all)))
    }
}
