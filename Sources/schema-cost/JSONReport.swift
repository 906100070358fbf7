import ContextKit
import ToolSupport

/// The `--json` report: the same numbers as the terminal report, keys in a fixed order.
struct JSONReport {
    let report: SchemaCostReport
    let path: String
    let document: SchemaDocument
    let tokenizer: String

    func render() -> String {
        let budget = report.budget
        let value: ToolSupport.JSONValue = .object([
            ("file", .string(path)),
            ("format", .string(report.format.rawValue)),
            ("schemas", .array(document.entries.map { .optional($0.name) })),
            ("model", .string(report.profileName)),
            ("contextWindow", .int(report.contextWindow)),
            ("tokenizer", .string(tokenizer)),
            ("estimate", report.isEstimate ? .object([("method", .string(report.method)), ("errorBar", .optional(report.relativeError))]) : .null),
            ("schemaTokens", .int(report.schemaTokens)),
            ("tokenizerTokens", .int(report.rawSchemaTokens)),
            ("framingTokens", .int(report.framingTokens)),
            ("framingSource", .string(report.framingSource)),
            ("totalTokens", .int(report.totalTokens)),
            ("windowShare", .double((report.windowShare * 10_000).rounded() / 10_000)),
            ("fields", .array(report.fields.map { field in
                .object([
                    ("path", .string(field.path)),
                    ("kind", .string(field.kind.rawValue)),
                    ("tokens", .int(field.tokens)),
                    ("descriptionTokens", .int(field.descriptionTokens)),
                    ("description", .optional(field.description)),
                ])
            })),
            ("whatIf", .object([
                ("withoutDescriptions", whatIf(report.withoutDescriptions)),
                ("schemaOutOfPrompt", report.schemaOutOfPrompt.map(whatIf) ?? .null),
                ("budget", .object([
                    ("contextWindow", .int(budget.contextWindow)),
                    ("requestOverhead", .int(budget.requestOverhead)),
                    ("instructions", .int(budget.instructions)),
                    ("schema", .int(budget.schema)),
                    ("responseReserve", .int(budget.responseReserve)),
                    ("inputLeft", .int(budget.inputLeft)),
                ])),
            ])),
            ("notes", .array(report.notes.map { .string($0) })),
            ("schemaText", .string(report.schemaText)),
        ])
        return value.rendered()
    }

    private func whatIf(_ whatIf: SchemaCostReport.WhatIf) -> ToolSupport.JSONValue {
        .object([
            ("schemaTokens", .int(whatIf.schemaTokens)),
            ("totalTokens", .int(whatIf.totalTokens)),
            ("savedTokens", .int(whatIf.savedTokens)),
            ("warning", .optional(whatIf.warning)),
        ])
    }
}
