import ContextKit

/// What output schemas cost in the prompt on each model profile, with their
/// descriptions and without them (all `SchemaCost`'s work; this only lays
/// the results side by side).
package struct SchemaOverheadTable: Sendable {
    /// A schema to price, read from a file.
    package struct Schema: Sendable {
        /// Short name for tables (`Summary`).
        package var name: String
        /// Where it came from (`examples/Summary.json`).
        package var source: String
        package var document: SchemaDocument

        package init(name: String, source: String, document: SchemaDocument) {
            self.name = name
            self.source = source
            self.document = document
        }
    }

    /// One schema on one profile.
    package struct Cell: Equatable, Sendable {
        package var profile: String
        package var schema: String
        /// Prompt tokens of the schema as sent, framing included.
        package var withDescriptions: Int
        /// The same with every description removed.
        package var withoutDescriptions: Int
        package var contextWindow: Int
        /// True when the profile's counts are an estimate from a proxy tokenizer.
        package var isEstimate: Bool
        /// How the schema reaches the model, as `SchemaCost` reports it.
        package var method: String
        package var framingSource: String
        package var notes: [String]

        package var windowShare: Double { contextWindow > 0 ? Double(withDescriptions) / Double(contextWindow) : 0 }
    }

    package var schemas: [Schema]
    package var profiles: [ModelProfile]
    /// Profile-major: every schema for the first profile, then the next.
    package var cells: [Cell]

    package func cell(profile: String, schema: String) -> Cell? {
        cells.first { $0.profile == profile && $0.schema == schema }
    }

    /// Prices every schema on every profile, with the runtime each profile implies.
    package init(schemas: [Schema], profiles: [ModelProfile]) throws {
        self.schemas = schemas
        self.profiles = profiles
        var cells: [Cell] = []
        for profile in profiles {
            let settings = SchemaCostSettings(profile: profile, tokenizer: try profile.tokenizer.load())
            let cost = SchemaCost(settings: settings)
            for schema in schemas {
                let report = cost.report(for: schema.document)
                cells.append(
                    Cell(
                        profile: profile.name, schema: schema.name, withDescriptions: report.totalTokens,
                        withoutDescriptions: report.withoutDescriptions.totalTokens,
                        contextWindow: profile.contextWindow, isEstimate: report.isEstimate,
                        method: report.method, framingSource: report.framingSource, notes: report.notes))
            }
        }
        self.cells = cells
    }
}
