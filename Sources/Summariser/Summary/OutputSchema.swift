import ContextKit
import ContextKitJSON

/// The shape a typed answer must have: a JSON Schema with a name. Backends
/// that constrain decoding (llama.cpp grammars, OpenAI structured outputs,
/// Foundation Models' guided generation) turn it into a constraint; the
/// extractive backend writes to it directly.
public struct OutputSchema: Equatable, Sendable {
    /// A name for the type (`Summary`); OpenAI requires one.
    public var name: String
    /// The JSON Schema, keys in the order they should be generated.
    public var schema: OrderedJSON

    /// A schema called `name`.
    public init(name: String, schema: OrderedJSON) {
        self.name = name
        self.schema = schema
    }

    /// The schema as compact JSON, as a request carries it.
    public var compactJSON: String { JSONWriter(style: .compact(escapingSlashes: false)).write(schema) }

    /// The schema as an output-schema document, for pricing it the way
    /// `ctxkit plan --schema` prices a schema file (`RequestCost`).
    public var document: SchemaDocument {
        SchemaDocument(format: .jsonSchema, entries: [SchemaDocument.Entry(name: name, schema: schema)])
    }
}
