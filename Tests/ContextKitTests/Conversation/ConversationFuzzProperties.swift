import ContextKitJSON
@testable import ContextKit

/// What `tokcount --chat` must do with any file, checked by the `chat`
/// libFuzzer target in `scripts/fuzz` (which compiles this file) and replayed
/// by `FuzzRegressionTests`. No `Testing` import: the fuzzer builds it
/// outside the test runner. Returns nil when the property holds, else what went wrong.
enum ConversationFuzzProperties {
    /// The three ways a conversation is counted: a chat template (ChatML with
    /// tools, on cl100k_base), OpenAI's constants and Apple's estimated session.
    static let counters: [ConversationCounter] = {
        let tokenizer = try! Tokenizer.named("cl100k_base")
        let template = try! ChatTemplate(
            """
            {% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are helpful.<|im_end|>\n' }}{% endif %}\
            {{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}\
            {% if tools %}{{ tools | tojson }}{% endif %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}
            """)
        let predictor = PromptPredictor(tokenizer: tokenizer, template: template, bosToken: "<|endoftext|>", eosToken: "<|endoftext|>", addsBOS: true)
        let catalog = try! ProfileCatalog.builtIn()
        return [
            try! ConversationCounter(
                profile: ModelProfile(name: "fuzz-template", contextWindow: 4096, tokenizer: .encoding("cl100k_base")),
                tokenizer: tokenizer, framing: .template(predictor)),
            try! ConversationCounter(profile: try! catalog.profile(named: "gpt-4"), tokenizer: tokenizer),
            try! ConversationCounter(profile: try! catalog.profile(named: "apple-on-device"), tokenizer: tokenizer)
        ]
    }()

    /// Any bytes as a conversation file: refused with a message (malformed JSON
    /// at a line and column inside the text), or read into messages that every
    /// counter prices with non-negative parts adding up to the total, placed
    /// in order, and that write back to JSON reading as the same conversation.
    static func chat(_ bytes: [UInt8]) -> String? {
        let conversation: Conversation
        do {
            conversation = try Conversation(json: bytes)
        } catch {
            if error.description.isEmpty { return "error without a message" }
            if case .invalidJSON(let e) = error {
                let lines = bytes.count { $0 == 0x0A } + 1
                if e.line < 1 || e.line > lines || e.column < 1 || e.byteOffset < 0 || e.byteOffset > bytes.count {
                    return "JSON error at line \(e.line), column \(e.column), byte \(e.byteOffset) of a \(lines)-line, \(bytes.count)-byte text"
                }
            }
            return nil
        }
        do {
            if try Conversation(json: conversation.json) != conversation { return "the conversation does not read back from its own JSON" }
        } catch {
            return "its own JSON is refused: \(error)"
        }
        for counter in counters {
            let count: ConversationCount
            do { count = try counter.count(conversation) } catch {
                if "\(error)".isEmpty { return "\(counter.profile.name): error without a message" }
                continue
            }
            if count.messages.count != conversation.messages.count { return "\(counter.profile.name): \(count.messages.count) counts for \(conversation.messages.count) messages" }
            if count.tools < 0 || count.overhead < 0 || count.messages.contains(where: { $0.tokens < 0 }) {
                return "\(counter.profile.name): a negative part (tools \(count.tools), overhead \(count.overhead), messages \(count.messages.map(\.tokens)))"
            }
            if count.total != count.messageTokens + count.tools + count.overhead { return "\(counter.profile.name): parts do not add up" }
            if zip(count.messages, count.messages.dropFirst()).contains(where: { $0.firstToken + $0.tokens > $1.firstToken }) {
                return "\(counter.profile.name): messages overlap in the prompt"
            }
            if let prompt = count.renderedPrompt {
                let expected = (try? counter.tokenizer.count(prompt, allowedSpecial: .all)).map { $0 + 1 }
                if expected != count.total { return "\(counter.profile.name): total \(count.total), the rendered prompt counts \(expected.map(String.init) ?? "nothing")" }
            }
        }
        return nil
    }
}
