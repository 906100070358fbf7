import ContextKit
import ContextKitJSON
import Render
import ToolSupport

/// The report for several files at once: one session's fixed cost — each
/// tool, the response schema, their total as a share of the window — and the
/// what-ifs that are true for them.
struct SessionReport {
    let session: SessionSchemaCost
    let budget: TokenBudget
    let style: Style

    private var format: CostFormat { CostFormat(isEstimate: session.isEstimate) }
    private func tokens(_ n: Int) -> String { format.tokens(n) }

    func render() -> String {
        var out = style.bold("Session") + ": \(session.tools.count) tool\(session.tools.count == 1 ? "" : "s")"
        out += session.responseSchema == nil ? ", no response schema" : ", 1 response schema"
        out += "\nmodel \(session.profileName): \(NumberFormat.grouped(session.contextWindow))-token window; counts \(session.method)\n\n"
        var rows: [[String]] = session.tools.map { ["tool \($0.name)", tokens($0.tokens), $0.source] }
        if !session.tools.isEmpty {
            rows.append([
                "tools, as one list", tokens(session.toolsTokens),
                "framing \(NumberFormat.grouped(session.toolFramingTokens)): \(session.toolFramingSource)"
            ])
        }
        if let schema = session.responseSchema {
            rows.append([
                "response schema" + (schema.name.map { " \($0)" } ?? ""), tokens(schema.report.totalTokens),
                "\(schema.source); framing \(NumberFormat.grouped(schema.report.framingTokens)): \(schema.report.framingSource)"
            ])
        }
        let share = format.windowShare(
            session.windowShare, suffix: ", every request", counted: session.totalTokens - session.framingTokens,
            framing: session.framingTokens, relativeError: session.relativeError)
        rows.append(["total", tokens(session.totalTokens), share])
        let table = Table(header: ["", "tokens", ""], alignRight: [false, true, false])
        out += indented(table.render(rows) { row, _, padded in row == rows.count - 1 ? style.bold(padded) : padded })
        out += "\n" + whatIfs()
        if !session.notes.isEmpty {
            out += "\nNotes:\n" + session.notes.map { "  - \($0)\n" }.joined()
        }
        return out
    }

    private func whatIfs() -> String {
        var rows: [[String]] = []
        for tool in session.tools {
            rows.append(["drop tool \(tool.name)", tokens(session.totalTokens - tool.tokens), "saves \(tokens(tool.tokens))"])
        }
        if !session.tools.isEmpty {
            let saved = session.toolsTokens - session.toolsWithoutDescriptions
            rows.append(["no tool descriptions", tokens(session.totalTokens - saved), "saves \(tokens(saved))"])
        }
        if let schema = session.responseSchema {
            let saved = schema.report.withoutDescriptions.savedTokens
            rows.append(["no response-schema descriptions", tokens(session.totalTokens - saved), "saves \(tokens(saved))"])
            if let off = schema.report.schemaOutOfPrompt {
                rows.append([
                    "response schema with includeSchemaInPrompt: false", tokens(session.totalTokens - off.savedTokens),
                    "saves \(tokens(off.savedTokens)) (tools have no such switch; see the single-file report's warning)"
                ])
            }
        }
        var out = "What if (total of the definitions):\n"
        out += indented(Table(header: ["", "total", ""], alignRight: [false, true, false]).render(rows))
        out += format.budget(
            budget, title: "session budget",
            parts: [(budget.instructions, "instructions"), (budget.tools, "tools"), (budget.schema, "response schema")],
            room: "prompts", style: style)
        return out
    }

    /// The `--json` form: the same numbers, keys in a fixed order.
    func json() -> String {
        let value: OrderedJSON = .object([
            JSONMember("model", .string(session.profileName)),
            JSONMember("contextWindow", .int(session.contextWindow)),
            JSONMember("estimate", session.isEstimate ? .object([JSONMember("method", .string(session.method)), JSONMember("errorBar", .optional(session.relativeError))]) : .null),
            JSONMember(
                "tools",
                .array(
                    session.tools.map { tool in
                        .object([JSONMember("name", .string(tool.name)), JSONMember("file", .string(tool.source)), JSONMember("tokens", .int(tool.tokens))])
                    })),
            JSONMember("toolsTokens", .int(session.toolsTokens)),
            JSONMember("toolFramingTokens", .int(session.toolFramingTokens)),
            JSONMember("toolFramingSource", .string(session.toolFramingSource)),
            JSONMember(
                "responseSchema",
                session.responseSchema.map { schema in
                    .object([
                        JSONMember("name", .optional(schema.name)), JSONMember("file", .string(schema.source)),
                        JSONMember("tokens", .int(schema.report.totalTokens)), JSONMember("framingTokens", .int(schema.report.framingTokens))
                    ])
                } ?? .null),
            JSONMember("totalTokens", .int(session.totalTokens)),
            JSONMember("windowShare", .double((session.windowShare * 10_000).rounded() / 10_000)),
            JSONMember(
                "whatIf",
                .object([
                    JSONMember("dropTool", .object(session.tools.map { JSONMember($0.name, .int($0.tokens)) })),
                    JSONMember("noToolDescriptions", .int(session.toolsTokens - session.toolsWithoutDescriptions)),
                    JSONMember("responseSchemaOutOfPrompt", session.responseSchema?.report.schemaOutOfPrompt.map { .int($0.savedTokens) } ?? .null)
                ])),
            JSONMember(
                "budget",
                .object([
                    JSONMember("contextWindow", .int(budget.window)),
                    JSONMember("requestOverhead", .int(budget.requestOverhead)),
                    JSONMember("instructions", .int(budget.instructions)),
                    JSONMember("tools", .int(budget.tools)),
                    JSONMember("responseSchema", .int(budget.schema)),
                    JSONMember("responseReserve", .int(budget.reserve)),
                    JSONMember("fixed", .int(budget.fixed)),
                    JSONMember("room", .int(budget.room))
                ])),
            JSONMember("notes", .array(session.notes.map { .string($0) }))
        ])
        return value.rendered()
    }

    private func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            var line = "  " + line
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }
}
