/// One prompt for one session: the text, the shape of the answer, and how to sample it.
public struct GenerationRequest: Equatable, Sendable {
    /// What the model is asked about. The summariser sends the text to
    /// summarise between its `SourceFraming` markers and nothing else (the
    /// task is in the session's instructions), so an extractive backend
    /// works on it directly once it strips the frame.
    public var prompt: String
    /// The answer must match this schema; nil for free text.
    public var schema: OutputSchema?
    /// How to sample the answer and how long it may be.
    public var options: SamplingOptions

    /// A request for `prompt`, free text unless a schema is given.
    public init(prompt: String, schema: OutputSchema? = nil, options: SamplingOptions = .init()) {
        self.prompt = prompt
        self.schema = schema
        self.options = options
    }
}
