/// The kinds of schema document ContextKit reads (and `schema-cost` takes);
/// the raw value is the name `schema-cost --format` accepts.
public enum SchemaFormat: String, CaseIterable, Sendable {
    /// Apple's `GenerationSchema` as `JSONEncoder` writes it (has `x-order`).
    case generationSchema = "apple"
    /// A plain JSON Schema object.
    case jsonSchema = "json-schema"
    /// OpenAI's `response_format`: `{"type":"json_schema","json_schema":{...}}`.
    case responseFormat = "response-format"
    /// An array of OpenAI tool definitions (`{"type":"function","function":{...}}`)
    /// or legacy `functions` entries (`{"name":...,"parameters":...}`).
    case tools
    /// Swift source with `@Generable` types.
    case swift

    /// The format's name for people (`Apple GenerationSchema JSON`).
    public var displayName: String {
        switch self {
        case .generationSchema: return "Apple GenerationSchema JSON"
        case .jsonSchema: return "JSON Schema"
        case .responseFormat: return "OpenAI response_format"
        case .tools: return "OpenAI tool definitions"
        case .swift: return "Swift @Generable source"
        }
    }

    /// True when the file holds tools the model may call rather than the shape of its answer.
    public var isToolList: Bool { self == .tools }
}
