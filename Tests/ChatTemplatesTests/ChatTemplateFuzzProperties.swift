import ChatTemplates

/// What the chat-template renderer must do with any template text, checked by
/// the `chat-template` libFuzzer target in `scripts/fuzz` (which compiles
/// this file) and replayed by `ChatTemplateFuzzRegressionTests`. No `Testing`
/// import: the fuzzer builds it outside the test runner. Returns nil when the
/// property holds, else what went wrong.
enum ChatTemplateFuzzProperties {
    /// A conversation with every role, a tool call and a tool list: what a
    /// template reads when `tokcount --chat` renders it.
    static let variables: [String: TemplateValue] = [
        "messages": .array([
            .object([("role", .string("system")), ("content", .string("Be brief."))]),
            .object([("role", .string("user")), ("content", .string("Hi 👋 <|im_start|>")), ("name", .string("ann"))]),
            .object([
                ("role", .string("assistant")), ("content", .string("")),
                (
                    "tool_calls",
                    .array([
                        .object([
                            ("id", .string("c1")), ("type", .string("function")),
                            ("function", .object([("name", .string("f")), ("arguments", .object([("x", .int(1))]))]))
                        ])
                    ])
                )
            ]),
            .object([("role", .string("tool")), ("content", .string("42")), ("tool_call_id", .string("c1"))]),
            .object([("role", .string("assistant")), ("content", .string("e\u{301} done"))])
        ]),
        "tools": .array([
            .object([
                ("type", .string("function")),
                (
                    "function",
                    .object([
                        ("name", .string("f")), ("description", .string("Does f.")),
                        ("parameters", .object([("type", .string("object")), ("properties", .object([("x", .object([("type", .string("integer"))]))]))]))
                    ])
                )
            ])
        ])
    ]

    /// Small limits, so a hostile template fails in milliseconds (the fuzzer
    /// calls a hang 10 s): the same checks as the scaled limits, sooner.
    static let limits = ChatTemplateLimits(outputBytes: 1 << 20, iterations: 100_000, steps: 300_000)

    /// Any bytes as a chat template: refused when read, or rendered (with and
    /// without the generation prompt) into at most `limits.outputBytes`, or
    /// refused while rendering, always with a `ChatTemplateError` that has a
    /// message; never a trap, a crash or unbounded memory. A rendering is
    /// the same twice.
    static func render(_ bytes: [UInt8]) -> String? {
        let template: ChatTemplate
        do {
            template = try ChatTemplate(String(decoding: bytes, as: UTF8.self))
        } catch let error as ChatTemplateError {
            return error.message.isEmpty ? "a parse error without a message" : nil
        } catch {
            return "a parse error of an unexpected type: \(error)"
        }
        for opened in [false, true] {
            func once() -> Result<String, Error> {
                Result { try template.render(messages: [], addGenerationPrompt: opened, bosToken: "<s>", eosToken: "</s>", extra: variables, limits: limits) }
            }
            switch once() {
            case .success(let text):
                if text.utf8.count > limits.outputBytes { return "rendered \(text.utf8.count) bytes, past the limit of \(limits.outputBytes)" }
                guard case .success(text) = once() else { return "a second rendering differs" }
            case .failure(let error as ChatTemplateError):
                if error.message.isEmpty { return "a rendering error without a message" }
            case .failure(let error):
                return "a rendering error of an unexpected type: \(error)"
            }
        }
        return nil
    }
}
