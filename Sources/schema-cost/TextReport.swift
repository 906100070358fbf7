import ContextKit
import Render
import ToolSupport

/// The terminal report: totals, the per-field table (dearest first), what-ifs, notes.
struct TextReport {
    let report: SchemaCostReport
    let path: String
    let document: SchemaDocument
    let tokenizer: String
    let style: Style
    let showSchema: Bool

    private var format: CostFormat { CostFormat(isEstimate: report.isEstimate) }
    private func tokens(_ n: Int) -> String { format.tokens(n) }

    func render() -> String {
        let names = document.entries.compactMap(\.name)
        var out = style.bold(path) + ": \(report.format.displayName)"
        if !names.isEmpty {
            out +=
                document.isToolList
                ? ", \(names.count) tool\(names.count == 1 ? "" : "s")" + (document.format == .swift ? " (\(names.joined(separator: ", ")))" : "")
                : ", type \(names.joined(separator: ", "))"
        }
        out += "\n"
        out += "model \(report.profileName): \(NumberFormat.grouped(report.contextWindow))-token window; counts \(report.method)\n\n"
        out += totals() + "\n"
        if !report.fields.isEmpty { out += fieldTable() + "\n" }
        out += whatIfs()
        if !report.notes.isEmpty {
            out += "\nNotes:\n" + report.notes.map { "  - \($0)\n" }.joined()
        }
        if showSchema && !report.schemaText.isEmpty {
            out += "\nCounted text:\n" + report.schemaText + "\n"
        }
        return out
    }

    private func totals() -> String {
        let schemaLabel = document.isToolList ? "tool definitions" : "schema, as sent"
        var rows: [[String]] = [
            [schemaLabel, tokens(report.schemaTokens), report.isEstimate ? "\(tokenizer) counts \(NumberFormat.grouped(report.rawSchemaTokens))" : ""],
            ["framing", NumberFormat.grouped(report.framingTokens), report.framingSource]
        ]
        let share = format.windowShare(
            report.windowShare, counted: report.schemaTokens, framing: report.framingTokens,
            relativeError: report.relativeError)
        rows.append(["total", tokens(report.totalTokens), share])
        let table = Table(header: ["", "tokens", ""], alignRight: [false, true, false])
        return indented(table.render(rows) { row, _, padded in row == 2 ? style.bold(padded) : padded })
    }

    private func fieldTable() -> String {
        var out = "Cost per field, dearest first (tokens saved by deleting it; rows overlap, BPE is not additive):\n"
        let rows = report.fields.map { field -> [String] in
            let label = field.kind == .property ? field.path : "\(field.path) (\(field.kind.rawValue))"
            let description = field.description.map { "\"" + Self.shortened($0, to: 48) + "\"" } ?? ""
            return [label, tokens(field.tokens), field.descriptionTokens > 0 ? tokens(field.descriptionTokens) : "-", description]
        }
        let table = Table(header: ["field", "tokens", "description", "text"], alignRight: [false, true, true, false])
        out += indented(table.render(rows))
        return out
    }

    private func whatIfs() -> String {
        var out = "What if:\n"
        var rows: [[String]] = [
            [
                "no descriptions", tokens(report.withoutDescriptions.totalTokens), "saves \(tokens(report.withoutDescriptions.savedTokens))"
            ]
        ]
        if let off = report.schemaOutOfPrompt {
            rows.append(["includeSchemaInPrompt: false", NumberFormat.grouped(off.totalTokens), "saves \(tokens(off.savedTokens))"])
        }
        out += indented(Table(header: ["", "total", ""], alignRight: [false, true, false]).render(rows))
        if let warning = report.schemaOutOfPrompt?.warning {
            let lines = TextWrap.lines("warning: without the schema in the prompt " + warning, width: 92)
            out += lines.enumerated().map { offset, line in
                "    " + (offset == 0 ? style.yellow("warning:") + line.dropFirst("warning:".count) : "  " + line) + "\n"
            }.joined()
        }
        out += format.budget(
            report.budget, title: "input budget",
            parts: [(report.budget.instructions, "instructions"), (report.budget.schema, document.isToolList ? "tools" : "schema")],
            room: "input", style: style)
        return out
    }

    private func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            var line = "  " + line
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }

    static func shortened(_ text: String, to limit: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count <= limit ? flat : String(flat.prefix(limit - 1)) + "…"
    }
}
