/// What a request carries besides its text, priced for one profile: the
/// instructions in the profile's tokens, and the output schema as
/// `SchemaCost` prices it for the runtime that serves the profile (its text
/// as that runtime writes it, plus the runtime's framing; nothing when the
/// runtime turns the schema into a decoding grammar).
///
/// `ctxkit plan` and the summariser price their requests here, so a plan
/// and a run of the same instructions and schema get the same budget
/// (`TokenBudget(profile:cost:reserve:overlap:window:)`).
public struct RequestCost: Equatable, Sendable {
    /// Tokens of the instructions; 0 for none.
    public var instructions: Int
    /// Tokens of the output schema as the model sees it, framing included; 0 for none.
    public var schema: Int
    /// The part of `schema` that is the runtime's framing around the schema text.
    public var schemaFraming: Int
    /// Tokens of the delimiters sent around each chunk of text (the
    /// summariser's `SourceFraming`), each counted on its own; 0 for none.
    public var frame: Int

    /// Prices `instructions` and `schema` for `profile`, counting with
    /// `tokenizer` (the profile's, loaded; scaled by its estimate when it has one).
    ///
    /// - Parameters:
    ///   - profile: the model the request is for.
    ///   - tokenizer: the profile's tokenizer, loaded.
    ///   - instructions: the instructions sent with the request; nil or empty for none.
    ///   - schema: the output schema or tool list; nil for none.
    ///   - runtime: how the schema reaches the model; nil infers it from the
    ///     profile (`SchemaRuntime.inferred(for:)`).
    ///   - frame: the fixed strings sent around each chunk of text (an
    ///     opening and a closing delimiter); empty for text sent bare.
    public init(
        profile: ModelProfile, tokenizer: Tokenizer, instructions: String?, schema: SchemaDocument?, runtime: SchemaRuntime? = nil,
        frame: [String] = []
    ) {
        let settings = SchemaCostSettings(profile: profile, tokenizer: tokenizer, runtime: runtime)
        let instructionTokens = instructions.map(settings.tokens) ?? 0
        let priced = schema.map { SchemaCost(settings: settings).report(for: $0, instructionsTokens: instructionTokens) }
        self.instructions = instructionTokens
        self.schema = priced?.totalTokens ?? 0
        schemaFraming = priced?.framingTokens ?? 0
        self.frame = frame.reduce(0) { $0 + settings.tokens($1) }
    }
}
