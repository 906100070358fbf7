/// What a schema costs one model, and what it would cost otherwise.
public struct SchemaCostReport: Sendable {
    /// One row of the per-field breakdown.
    public struct Field: Equatable, Sendable {
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
        public var kind: Kind
        /// Tokens saved by removing the field: its key, its schema, and its
        /// name in `required`/`x-order` (a type row: its description only).
        public var tokens: Int
        /// Tokens saved by removing only its description (0 without one).
        public var descriptionTokens: Int
        public var description: String?
    }

    /// Tokens of one alternative, next to the actual cost.
    public struct WhatIf: Equatable, Sendable {
        public var schemaTokens: Int
        public var totalTokens: Int
        public var savedTokens: Int
        public var warning: String?
    }

    /// The window, shared out.
    public struct Budget: Equatable, Sendable {
        public var contextWindow: Int
        public var requestOverhead: Int
        public var instructions: Int
        public var schema: Int
        public var responseReserve: Int
        /// What is left for the user's input (negative when it does not fit).
        public var inputLeft: Int
    }

    public var format: SchemaFormat
    public var profileName: String
    public var method: String
    public var relativeError: Double?
    public var framingSource: String
    /// What was counted, as the model sees it (tools: one line per function; empty when not in the prompt).
    public var schemaText: String
    /// The tokenizer's own count of the schema, before calibration.
    public var rawSchemaTokens: Int
    public var schemaTokens: Int
    public var framingTokens: Int
    public var totalTokens: Int
    public var contextWindow: Int
    /// Rows sorted by cost, most expensive first.
    public var fields: [Field]
    public var withoutDescriptions: WhatIf
    /// Apple's `includeSchemaInPrompt: false`; nil where the runtime has no such switch.
    public var schemaOutOfPrompt: WhatIf?
    public var budget: Budget
    public var notes: [String]

    public var isEstimate: Bool { relativeError != nil }

    /// The schema's share of the window, 0...1.
    public var windowShare: Double {
        contextWindow > 0 ? Double(totalTokens) / Double(contextWindow) : 0
    }
}
