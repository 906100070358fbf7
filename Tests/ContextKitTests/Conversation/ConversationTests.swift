import ContextKit
import ContextKitJSON
import Foundation
import Testing

/// Reading conversations as users hold them, and refusing bad ones with a
/// message that says what and where.
@Suite struct ConversationReaderTests {
    static func error(_ text: String) -> ConversationError? {
        do { _ = try Conversation(json: text); return nil } catch { return error }
    }

    @Test func aRequestBodyGivesMessagesAndTools() throws {
        let c = try Conversation(
            json: #"""
                {"model": "x", "messages": [
                  {"role": "system", "content": "Be brief."},
                  {"role": "user", "name": "ann", "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]},
                  {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                  {"role": "tool", "tool_call_id": "c1", "content": "42"},
                  {"role": "developer", "content": "d"}
                ], "tools": [{"type": "function", "function": {"name": "f", "description": "Does f.", "parameters": {"type": "object", "properties": {}}}}]}
                """#)
        #expect(c.messages.map(\.role) == [.system, .user, .assistant, .tool, .developer])
        #expect(c.messages[1].content == "one\ntwo")
        #expect(c.messages[1].name == "ann")
        #expect(c.messages[2].content == "" && c.messages[2].toolCalls?.elements?.count == 1)
        #expect(c.messages[3].toolCallID == "c1")
        #expect(c.tools.count == 1)
    }

    @Test func aBareArrayIsAConversation() throws {
        let c = try Conversation(json: #"[{"role": "user", "content": "hi"}]"#)
        #expect(c.messages == [ChatMessage(role: .user, content: "hi")] && c.tools.isEmpty)
    }

    @Test func malformedJSONNamesLineAndColumn() {
        guard case .invalidJSON(let e)? = Self.error("[\n  {\"role\": \"user\", \"content\": \"hi\"\n]") else {
            Issue.record("expected invalidJSON"); return
        }
        #expect(e.line == 3 && e.column == 1)
        #expect(Self.error("[\n  {\"role\": \"user\", \"content\": \"hi\"\n]")!.description.contains("line 3"))
    }

    @Test func anUnknownRoleIsNamedWithItsIndexAndTheRolesThatExist() {
        let e = Self.error(#"[{"role": "user", "content": "a"}, {"role": "narrator", "content": "b"}]"#)
        #expect(e == .unknownRole(index: 1, role: "narrator"))
        #expect(e!.description.contains("messages[1]") && e!.description.contains("developer"))
    }

    @Test(arguments: [
        (#"{"messages": 3}"#, "not an array"),
        (#"{"prompt": "x"}"#, "no \"messages\""),
        (#""text""#, "a string"),
        (#"[{"content": "x"}]"#, "no \"role\""),
        (#"[{"role": "user"}]"#, "no \"content\""),
        (#"[{"role": "user", "content": 7}]"#, "\"content\" is a number"),
        (#"[{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]"#, "only text parts"),
        (#"[{"role": "user", "content": "x", "name": 3}]"#, "\"name\" is a number"),
        (#"{"messages": [], "tools": [{"type": "function", "function": {"name": "f", "parameters": "none"}}]}"#, "JSON Schema object"),
        (#"{"messages": [], "tools": [{"type": "function"}]}"#, "no function name")
    ])
    func badConversationsSayWhatIsWrong(text: String, expected: String) {
        let e = Self.error(text)
        #expect(e != nil)
        #expect(e?.description.contains(expected) == true, "\(e.map { "\($0)" } ?? "no error")")
    }

    @Test func theRequestBodyRoundTrips() throws {
        let text =
            #"{"messages":[{"role":"user","content":"hi","name":"a"},{"role":"tool","content":"1","tool_call_id":"c"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{}}}}]}"#
        let c = try Conversation(json: text)
        #expect(try Conversation(json: c.json) == c)
    }
}

/// OpenAI models: the Cookbook's `num_tokens_from_messages` constants and its
/// published counts for its own examples (messages written here from the
/// Cookbook's description of them).
@Suite struct OpenAIConversationTests {
    /// The Cookbook's corporate-jargon example: a system prompt, two named
    /// example exchanges as system messages, and the user's sentence.
    static let jargon = Conversation(messages: [
        ChatMessage(role: .system, content: "You are a helpful, pattern-following assistant that translates corporate jargon into plain English."),
        ChatMessage(role: .system, content: "New synergies will help drive top-line growth.", name: "example_user"),
        ChatMessage(role: .system, content: "Things working well together will increase revenue.", name: "example_assistant"),
        ChatMessage(role: .system, content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.", name: "example_user"),
        ChatMessage(role: .system, content: "Let's talk later when we're less busy about how to do better.", name: "example_assistant"),
        ChatMessage(role: .user, content: "This late pivot means we don't have time to boil the ocean for the client deliverable.")
    ])

    static func counter(_ model: String) throws -> ConversationCounter {
        try ConversationCounter(profile: try ProfileCatalog.builtIn().profile(named: model))
    }

    /// Published: 129 prompt tokens for gpt-3.5-turbo and gpt-4, 124 for
    /// gpt-4o and gpt-4o-mini, the method and the API agreeing.
    @Test(arguments: [("gpt-3.5-turbo", 129), ("gpt-4", 129), ("gpt-4o", 124), ("gpt-4o-mini", 124)])
    func theCookbookExampleCountsAsPublished(model: String, published: Int) throws {
        let count = try Self.counter(model).count(Self.jargon)
        #expect(count.total == published)
        #expect(count.overhead == 3 && count.tools == 0 && !count.isEstimate)
        // Each message: 3, its role and content, and 1 + its name when named.
        let tokenizer = try Self.counter(model).tokenizer
        let second = Self.jargon.messages[1]
        #expect(count.messages[1].tokens == 3 + tokenizer.count("system") + tokenizer.count(second.content) + tokenizer.count("example_user") + 1)
        #expect(count.messages.map(\.firstToken) == count.messages.indices.map { k in count.messages[..<k].reduce(0) { $0 + $1.tokens } })
    }

    /// The Cookbook's weather tool with its two messages: 101 prompt tokens on
    /// gpt-4o and 105 on gpt-4 (the tools priced as schema-cost prices them).
    @Test(arguments: [("gpt-4o", 101), ("gpt-4", 105)])
    func theCookbookToolExampleCountsAsPublished(model: String, published: Int) throws {
        let conversation = try Conversation(
            json: #"""
                {"messages": [
                  {"role": "system", "content": "You are a helpful assistant that can answer to questions about the weather."},
                  {"role": "user", "content": "What's the weather like in San Francisco?"}],
                 "tools": [{"type": "function", "function": {"name": "get_current_weather", "description": "Get the current weather in a given location",
                   "parameters": {"type": "object", "properties": {
                     "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                     "unit": {"type": "string", "description": "The unit of temperature to return", "enum": ["celsius", "fahrenheit"]}},
                   "required": ["location"]}}}]}
                """#)
        let count = try Self.counter(model).count(conversation)
        #expect(count.total == published)
        #expect(count.tools > 0 && count.messages[0].firstToken == count.tools)
    }

    @Test func fitUsesTheWindowAndTheReserve() throws {
        let count = try Self.counter("gpt-4").count(Self.jargon)
        let fit = count.fit(window: 130, reserve: 2)
        #expect(fit.used == 131 && !fit.fits && fit.overflow == 1)
        #expect(count.fit(window: 8192, reserve: 500).spare == 8192 - 129 - 500)
    }
}

/// Apple's on-device model: the text estimated from the proxy, 22 tokens per session.
@Suite struct AppleConversationTests {
    @Test func appleIsAnEstimateWithTheSessionFraming() throws {
        let profile = try ProfileCatalog.builtIn().profile(named: "apple-on-device")
        let counter = try ConversationCounter(profile: profile)
        let conversation = Conversation(messages: [ChatMessage(role: .system, content: "Summarise."), ChatMessage(role: .user, content: "Cats sleep a lot.")])
        let count = try counter.count(conversation)
        #expect(count.isEstimate && count.overhead == 22)
        let settings = SchemaCostSettings(profile: profile, tokenizer: try profile.tokenizer.load())
        #expect(count.messages.map(\.tokens) == conversation.messages.map { settings.tokens($0.content) })
        #expect(count.method.hasPrefix("≈"))
    }
}

/// A chat template's rendering, placed message by message.
@Suite struct TemplatedConversationTests {
    static let chatML = """
        {% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are helpful.<|im_end|>\n' }}{% endif %}\
        {{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}\
        {% if tools %}{{ '<tools>' + (tools | tojson) + '</tools>\n' }}{% endif %}\
        {% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}
        """

    static func counter(bos: Bool) throws -> ConversationCounter {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let predictor = PromptPredictor(tokenizer: tokenizer, template: try ChatTemplate(chatML), bosToken: "<|endoftext|>", eosToken: "<|endoftext|>", addsBOS: bos)
        return try ConversationCounter(
            profile: ModelProfile(name: "t", contextWindow: 4096, tokenizer: .encoding("cl100k_base")), tokenizer: tokenizer, framing: .template(predictor))
    }

    static let conversation = try! Conversation(
        json: #"""
            {"messages": [{"role": "user", "content": "Hi 👋 there"}, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "Write <|endoftext|> literally."}],
             "tools": [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}}]}
            """#)

    @Test(arguments: [false, true])
    func messagesToolsAndOverheadAddUpToThePrompt(bos: Bool) throws {
        let counter = try Self.counter(bos: bos)
        let count = try counter.count(Self.conversation)
        let prompt = try #require(count.renderedPrompt)
        #expect(count.total == (try counter.tokenizer.count(prompt, allowedSpecial: .all)) + (bos ? 1 : 0))
        let bare = Conversation(messages: Self.conversation.messages)
        #expect(count.total - count.tools == (try counter.count(bare)).total)
        #expect(count.tools > 0)
        // Each message's span holds its own content and follows the one before.
        let bytes = Array(try counter.renderedPrompt(bare)!.utf8)
        var end = 0
        for (m, message) in zip(count.messages, Self.conversation.messages) {
            let span = try #require(m.promptBytes)
            #expect(span.lowerBound == end || m.index == 0)
            end = span.upperBound
            #expect(String(decoding: bytes[span], as: UTF8.self).contains(message.content))
        }
        // The default system prompt is in the first message's span; what is left is the opened reply (and BOS).
        #expect(count.overhead == counter.tokenizer.count("<|im_start|>assistant\n") + (bos ? 1 : 0))
        #expect(count.messages[0].firstToken == (bos ? 1 : 0))
    }

    @Test func aTemplateThatRaisesIsAClearError() throws {
        let tokenizer = try Tokenizer.named("cl100k_base")
        let predictor = PromptPredictor(
            tokenizer: tokenizer, template: try ChatTemplate("{{ raise_exception('roles must alternate') }}"), bosToken: "", eosToken: "", addsBOS: false)
        let counter = try ConversationCounter(
            profile: ModelProfile(name: "t", contextWindow: 10, tokenizer: .encoding("cl100k_base")), tokenizer: tokenizer, framing: .template(predictor))
        #expect(throws: ConversationError.self) { try counter.count(Conversation(messages: [ChatMessage(role: .user, content: "x")])) }
        do { _ = try counter.count(Conversation(messages: [ChatMessage(role: .user, content: "x")])) } catch {
            #expect("\(error)".contains("roles must alternate"))
        }
    }

    @Test func truncationDropsTheOldestNonSystemMessagesFirst() throws {
        let counter = try Self.counter(bos: false)
        var messages = [ChatMessage(role: .system, content: "Rules.")]
        for k in 0..<6 { messages.append(ChatMessage(role: k % 2 == 0 ? .user : .assistant, content: String(repeating: "word \(k) ", count: 20))) }
        let conversation = Conversation(messages: messages)
        let full = try counter.count(conversation).total
        let cut = try counter.truncate(conversation, to: full - 30)
        #expect(cut.fits && cut.wasCut && cut.count.total <= full - 30)
        #expect(cut.dropped == [1])
        #expect(cut.conversation.messages.first?.role == .system)
        let unchanged = try counter.truncate(conversation, to: full)
        #expect(!unchanged.wasCut && unchanged.conversation == conversation)
        // Down to one message: it is trimmed to fit.
        let small = try counter.truncate(conversation, to: 40)
        #expect(small.fits && small.trimmed?.index == 6 && small.count.total <= 40)
        #expect(small.dropped == [1, 2, 3, 4, 5])
    }
}
