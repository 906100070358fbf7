/// A source of language-model answers: Apple's on-device model, an
/// OpenAI-compatible HTTP server, or the built-in extractive summariser.
///
/// The summary engine needs four things from a backend: whether it can answer
/// now (and why not), how big its window is when it knows, a fresh session
/// per request, and for each session a stream of cumulative snapshots with an
/// optional output schema and sampling options. Failures are `GenerationError`.
public protocol LanguageModelBackend: Sendable {
    /// A short name for reports (`extractive`, `openai http://127.0.0.1:8080`).
    var name: String { get }

    /// True when answers are taken from the input by design, so finding input
    /// text in the output is not a copy (the extractive backend).
    var copiesByDesign: Bool { get }

    /// Whether a request can be answered now; the reason says what to do if not.
    func availability() async -> BackendAvailability

    /// The window the backend enforces, in tokens, when it can tell (a
    /// server's configured context size, the on-device model's `contextSize`).
    func contextSize() async -> Int?

    /// The exact number of tokens the backend's own tokenizer makes of
    /// `text`, or nil when it cannot count (the default). Apple's on-device
    /// model counts from iOS, macOS and visionOS 26.4 on; the engine then
    /// checks each chunk before sending it instead of trusting the proxy.
    func tokenCount(for text: String) async -> Int?

    /// The exact prompt tokens the backend will charge for one request —
    /// `instructions` as the system prompt, `prompt` as the user's message,
    /// `schema` as the request's output schema (nil for free text), rendered
    /// as the backend renders them — or nil when it cannot say (the default).
    /// The engine then plans each call with this count, and checks it
    /// against the window before sending.
    func promptTokens(instructions: String, prompt: String, schema: OutputSchema?) async -> Int?

    /// A new session with `instructions` as its system prompt.
    func makeSession(instructions: String) -> any LanguageModelSession
}

extension LanguageModelBackend {
    /// False: answers are checked for copies of their input.
    public var copiesByDesign: Bool { false }
    /// Nil: the backend does not say, and the profile's window is used.
    public func contextSize() async -> Int? { nil }
    /// Nil: the backend cannot count, and the profile's count (or estimate) is trusted.
    public func tokenCount(for text: String) async -> Int? { nil }
    /// Nil: the backend does not count whole requests; the plan's count is used.
    public func promptTokens(instructions: String, prompt: String, schema: OutputSchema?) async -> Int? { nil }
}
