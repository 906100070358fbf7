import ContextKitJSON

/// How a runtime gives a model a schema, which decides what is counted.
public enum SchemaPlacement: Equatable, Sendable {
    /// The schema's JSON text, written in `style`, plus `framingTokens` of
    /// wrapper text per schema (Apple: 119 charged − 113 for the compact JSON = 6).
    case jsonText(style: JSONWriter.Style, framingTokens: Int)
    /// OpenAI's function-calling prompt, counted with the published method (see `OpenAIToolConstants`).
    case openAIFunctions(OpenAIToolConstants)
    /// The schema is compiled into a decoding grammar and never enters the
    /// prompt (llama.cpp's `json_schema` / `response_format`): 0 tokens.
    case decodingOnly
}
