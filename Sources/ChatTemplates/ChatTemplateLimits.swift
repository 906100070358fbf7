/// What one rendering of a chat template may spend.
///
/// A chat template is code from the internet (a GGUF's `tokenizer.chat_template`
/// is rendered just to build a profile), so the renderer is a sandbox, as
/// Jinja2's `SandboxedEnvironment` and llama.cpp's engine mean to be: a template
/// that loops for ever, builds a gigabyte string or counts past 2^63 ends in a
/// `ChatTemplateError` naming the construct and the limit, in bounded time and
/// memory, instead of taking the machine with it.
///
/// The limits grow with the conversation, so no real conversation hits them.
/// Measured on the templates at hand (the four in Tests/Fixtures/chat-templates,
/// Tests/Fixtures/conversations/tools-chatml.jinja, the Hugging Face
/// tokenizer configs the tests use and the Qwen2 GGUF's template: 325 to
/// 1,446 bytes of source), rendering 0 to 4,096 messages: an empty
/// conversation takes at most 30 steps and writes 80 bytes; each message (3
/// values: the message, its role, its content) at most 67 steps, 1 loop
/// iteration and its text plus 108 bytes (a default system prompt included).
/// The allowances are per value 2,000 steps (90× the 22 measured), 64
/// iterations (190×) and 4 KiB of output (110×), plus 16× the input's text,
/// plus a floor — 10 million steps, a million iterations, 64 MiB — that lets
/// a template with a long built-in system prompt or tool list through and
/// still stops `range(1000000000)` or `'x' * 100000000` at once.
public struct ChatTemplateLimits: Sendable, Equatable {
    /// The longest text, in UTF-8 bytes, that the rendering may write, and the
    /// longest string it may build on the way (checked before the string is built).
    public var outputBytes: Int
    /// The most loop iterations in all, and the most items one `range()` or
    /// list may hold (checked before it is built).
    public var iterations: Int
    /// The most expressions and tags evaluated in all; building, writing or
    /// reading a string (a filter, method, comparison or index on it) also
    /// costs a step per 256 bytes, so time is bounded however long the strings.
    public var steps: Int

    /// Limits given outright (tests use small ones).
    public init(outputBytes: Int, iterations: Int, steps: Int) {
        self.outputBytes = outputBytes
        self.iterations = iterations
        self.steps = steps
    }

    /// The limits for rendering a conversation whose variables hold `values`
    /// values (messages, their fields, tool definitions, …) with `bytes` bytes
    /// of text in all: see the type's documentation for how they were sized.
    public static func scaled(values: Int, bytes: Int) -> ChatTemplateLimits {
        func linear(_ floor: Int, _ perValue: Int, _ perByte: Int) -> Int {
            let (a, o1) = values.multipliedReportingOverflow(by: perValue)
            let (b, o2) = bytes.multipliedReportingOverflow(by: perByte)
            let (c, o3) = a.addingReportingOverflow(b)
            let (d, o4) = c.addingReportingOverflow(floor)
            return o1 || o2 || o3 || o4 ? Int.max : d
        }
        return ChatTemplateLimits(
            outputBytes: linear(64 << 20, 4096, 16), iterations: linear(1_000_000, 64, 0),
            steps: linear(10_000_000, 2000, 1))
    }
}

extension TemplateValue {
    /// How many values and text bytes this value holds, added to `values` and
    /// `bytes` (what `ChatTemplateLimits.scaled` sizes the limits by).
    func measure(values: inout Int, bytes: inout Int) {
        values += 1
        switch self {
        case .string(let s): bytes += s.utf8.count
        case .array(let a): for v in a { v.measure(values: &values, bytes: &bytes) }
        case .object(let o):
            for (k, v) in o {
                bytes += k.utf8.count
                v.measure(values: &values, bytes: &bytes)
            }
        default: break
        }
    }
}
