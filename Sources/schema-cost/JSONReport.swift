import ContextKit
import ContextKitJSON
import ToolSupport

/// The `--json` report: the same numbers as the terminal report, keys in a fixed order.
struct JSONReport {
    let report: SchemaCostReport
    let path: String
    let document: SchemaDocument
    let tokenizer: String

    func render() -> String {
        let budget = report.budget
        let value: OrderedJSON = .object([
            JSONMember("file", .string(path)),
            JSONMember("format", .string(report.format.rawValue)),
            JSONMember("schemas", .array(document.entries.map { .optional($0.name) })),
            JSONMember("model", .string(report.profileName)),
            JSONMember("contextWindow", .int(report.contextWindow)),
            JSONMember("tokenizer", .string(tokenizer)),
            JSONMember("estimate", report.isEstimate ? .object([JSONMember("method", .string(report.method)), JSONMember("errorBar", .optional(report.relativeError))]) : .null),
            JSONMember("schemaTokens", .int(report.schemaTokens)),
            JSONMember("tokenizerTokens", .int(report.rawSchemaTokens)),
            JSONMember("framingTokens", .int(report.framingTokens)),
            JSONMember("framingSource", .string(report.framingSource)),
            JSONMember("totalTokens", .int(report.totalTokens)),
            JSONMember("windowShare", .double((report.windowShare * 10_000).rounded() / 10_000)),
            JSONMember(
                "fields",
                .array(
                    report.fields.map { field in
                        .object([
                            JSONMember("path", .string(field.path)),
                            JSONMember("kind", .string(field.kind.rawValue)),
                            JSONMember("tokens", .int(field.tokens)),
                            JSONMember("descriptionTokens", .int(field.descriptionTokens)),
                            JSONMember("description", .optional(field.description))
                        ])
                    })),
            JSONMember(
                "whatIf",
                .object([
                    JSONMember("withoutDescriptions", whatIf(report.withoutDescriptions)),
                    JSONMember("schemaOutOfPrompt", report.schemaOutOfPrompt.map(whatIf) ?? .null),
                    JSONMember(
                        "budget",
                        .object([
                            JSONMember("contextWindow", .int(budget.window)),
                            JSONMember("requestOverhead", .int(budget.requestOverhead)),
                            JSONMember("instructions", .int(budget.instructions)),
                            JSONMember("schema", .int(budget.schema)),
                            JSONMember("responseReserve", .int(budget.reserve)),
                            JSONMember("inputLeft", .int(budget.room))
                        ]))
                ])),
            JSONMember("notes", .array(report.notes.map { .string($0) })),
            JSONMember("schemaText", .string(report.schemaText))
        ])
        return value.rendered()
    }

    private func whatIf(_ whatIf: SchemaCostReport.WhatIf) -> OrderedJSON {
        .object([
            JSONMember("schemaTokens", .int(whatIf.schemaTokens)),
            JSONMember("totalTokens", .int(whatIf.totalTokens)),
            JSONMember("savedTokens", .int(whatIf.savedTokens)),
            JSONMember("warning", .optional(whatIf.warning))
        ])
    }
}
