/// What a schema costs one model, and what it would cost otherwise.
public struct SchemaCostReport: Sendable {
    /// One row of the per-field breakdown.
    public struct Field: Equatable, Sendable {
        /// What the row prices.
        public enum Kind: String, Sendable {
            /// A property of an object schema (or a tool parameter).
            case property
            /// A type's own description (root, `$defs` entry).
            case type
            /// A tool: its name and description line.
            case function
        }

        /// `headline`, `address.city`, `Address.city`, `items[].name`, `get_weather.unit`.
        public var path: String
        /// A property, a type's description or a tool.
        public var kind: Kind
        /// Tokens saved by removing the field: its key, its schema, and its
        /// name in `required`/`x-order` (a type row: its description only).
        public var tokens: Int
        /// Tokens saved by removing only its description (0 without one).
        public var descriptionTokens: Int
        /// The description as written; nil when there is none.
        public var description: String?
    }

    /// Tokens of one alternative, next to the actual cost.
    public struct WhatIf: Equatable, Sendable {
        /// Tokens of the schema text in that case.
        public var schemaTokens: Int
        /// Schema and framing in that case.
        public var totalTokens: Int
        /// Tokens saved against the actual total.
        public var savedTokens: Int
        /// What the alternative costs besides tokens; nil when nothing.
        public var warning: String?
    }

    /// The kind of document priced.
    public var format: SchemaFormat
    /// The profile it was priced for.
    public var profileName: String
    /// How the counts were made, in words (`cl100k_base, exact`, or the estimate's factor and error bar).
    public var method: String
    /// The estimate's relative error bar (0.15 = ±15%); nil when counts are exact.
    public var relativeError: Double?
    /// Where the framing figure comes from, in words.
    public var framingSource: String
    /// What was counted, as the model sees it (tools: one line per function; empty when not in the prompt).
    public var schemaText: String
    /// The tokenizer's own count of the schema, before calibration.
    public var rawSchemaTokens: Int
    /// The model's tokens for the schema text (estimated for a proxy).
    public var schemaTokens: Int
    /// Tokens of the runtime's wrapper around the schema (all entries together).
    public var framingTokens: Int
    /// What the schema costs the window: `schemaTokens + framingTokens`.
    public var totalTokens: Int
    /// The model's context window.
    public var contextWindow: Int
    /// Rows sorted by cost, most expensive first.
    public var fields: [Field]
    /// The cost with every `description` removed.
    public var withoutDescriptions: WhatIf
    /// Apple's `includeSchemaInPrompt: false`; nil where the runtime has no such switch.
    public var schemaOutOfPrompt: WhatIf?
    /// The window shared out between the request's parts: the same budget
    /// `ctxkit plan` and `tokcount` use, with the schema in `schema` (for a
    /// tool list, the tools), and `room` what is left for the input.
    public var budget: TokenBudget
    /// Things a user should know about this pricing (unpublished formats, guesses made).
    public var notes: [String]

    /// Whether the counts are estimates (the model's tokenizer is not public).
    public var isEstimate: Bool { relativeError != nil }

    /// The schema's share of the window, 0...1.
    public var windowShare: Double {
        contextWindow > 0 ? Double(totalTokens) / Double(contextWindow) : 0
    }
}
