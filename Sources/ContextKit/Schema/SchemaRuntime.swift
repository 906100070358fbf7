/// The kinds of runtime that put a schema in front of a model differently.
///
/// Profiles do not say which runtime serves them yet, so `inferred(for:)`
/// goes by the profile's name; `schema-cost --runtime` overrides it.
public enum SchemaRuntime: String, CaseIterable, Sendable {
    /// Apple's Foundation Models: the GenerationSchema JSON in the prompt,
    /// plus framing; `includeSchemaInPrompt: false` can leave it out.
    case apple
    /// OpenAI's API: tools in its hidden function format (published
    /// constants); `response_format` schemas in an unpublished format.
    case openai
    /// llama.cpp's server: `json_schema` / `response_format` become a decoding
    /// grammar and are not in the prompt; tools are rendered by the chat template.
    case grammar
    /// Any other runtime that pastes the schema's compact JSON into the prompt.
    case json

    /// The runtime a profile most likely runs on, by its name: `apple…`,
    /// OpenAI model names, llama/GGUF profiles, else `.json`.
    public static func inferred(for profile: ModelProfile) -> SchemaRuntime {
        let name = profile.name.lowercased()
        if name.hasPrefix("apple") { return .apple }
        if ["gpt-", "o1", "o3", "o4", "text-davinci"].contains(where: name.hasPrefix) { return .openai }
        if name.contains("llama") || name.contains("gguf") || profile.tokenizer.description.lowercased().hasSuffix(".gguf") { return .grammar }
        return .json
    }
}

extension SchemaCostSettings {
    /// Settings for `profile` served by `runtime` (inferred from the profile when nil);
    /// a nil `responseReserve` takes the one reserve rule (`TokenBudget.reserve(given:profileReserve:window:)`).
    public init(profile: ModelProfile, tokenizer: Tokenizer, runtime: SchemaRuntime? = nil, responseReserve: Int? = nil) {
        let runtime = runtime ?? SchemaRuntime.inferred(for: profile)
        let framing = profile.overheads.schemaFraming
        var method = "\(profile.tokenizer), exact"
        if let estimate = profile.estimate {
            method = "≈ \(profile.tokenizer) × \(estimate.factor) ±\(Int((estimate.errorBar * 100).rounded()))% (a proxy: the model's tokenizer is not public)"
        }
        let outputSchemas: SchemaPlacement
        let tools: SchemaPlacement
        let source: String
        var toolSource: String?
        var outputNote: String?
        var toolNote: String?
        switch runtime {
        case .apple:
            outputSchemas = .jsonText(style: .compact(escapingSlashes: true), framingTokens: framing)
            tools = outputSchemas
            source = "119 charged − 113 compact JSON for Summary (field notes: one device, iOS 26)"
            // No measurement of Apple's framing around a tool definition exists;
            // the nearest measured analogue is the response schema's (FIELD-NOTES.md:
            // 119 charged − 113 for Summary's compact JSON ≈ 6 tokens), used per tool.
            toolSource = "no measurement exists for tools; assumed per tool: the nearest measured analogue, the response-schema framing (119 − 113 for Summary, field notes)"
            toolNote =
                "Apple's framing of tool definitions was never measured: each tool is counted as its compact JSON (name, description, arguments schema) plus \(framing) tokens, the response-schema framing measured in the field notes"
        case .openai:
            outputSchemas = .jsonText(style: .compact(escapingSlashes: false), framingTokens: 0)
            let isO200k = profile.tokenizer == .encoding("o200k_base")
            tools = .openAIFunctions(isO200k ? .gpt4o : .gpt4)
            source = "unpublished for response_format; none counted"
            toolSource =
                "OpenAI Cookbook num_tokens_for_tools constants, published for "
                + (isO200k ? "gpt-4o and gpt-4o-mini" : "gpt-3.5-turbo and gpt-4")
                + (["gpt-4o", "gpt-4o-mini", "gpt-4", "gpt-3.5-turbo"].contains(profile.name) ? "" : "; assumed for \(profile.name)")
            outputNote = "OpenAI does not publish how a response_format schema is put into the prompt; counted: its compact JSON, no framing"
        case .grammar:
            outputSchemas = .decodingOnly
            tools = .jsonText(style: .spaced, framingTokens: 0)
            source = "the schema is a decoding grammar, not prompt text"
            toolSource = "the chat template's wrapper text is not counted"
            toolNote =
                "tools are rendered by the model's chat template; counted: the JSON its tojson filter writes, without the template's own wrapper text (check with a real request)"
        case .json:
            outputSchemas = .jsonText(style: .compact(escapingSlashes: false), framingTokens: framing)
            tools = outputSchemas
            source = framing == 0 ? "no framing known for \(profile.name)" : "\(framing) tokens per schema, from the profile"
        }
        let reserve = TokenBudget.reserve(given: responseReserve, profileReserve: profile.defaultReserve, window: profile.contextWindow)
        self.init(
            profileName: profile.name, tokenizer: tokenizer, estimate: profile.estimate, method: method,
            outputSchemas: outputSchemas, tools: tools, framingSource: source, toolFramingSource: toolSource, outputSchemaNote: outputNote, toolNote: toolNote,
            contextWindow: profile.contextWindow, requestOverhead: profile.overheads.perRequest, messageOverhead: profile.overheads.perMessage,
            responseReserve: reserve.tokens, reserveSource: reserve.source, canLeaveSchemaOutOfPrompt: runtime == .apple)
    }
}
