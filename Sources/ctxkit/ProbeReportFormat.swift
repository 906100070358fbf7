import ContextKit
import ContextKitServing
import ContextKitJSON
import Foundation
import Render
import ToolSupport

/// How `ctxkit probe --url` prints what it measured.
enum ProbeReportFormat {
    static func table(_ r: OverflowProbe.Report, url: String, window: Int?) -> String {
        var lines = ["server \(url)" + (window.map { ", window \(NumberFormat.grouped($0)) tokens" } ?? ", window unknown"), ""]
        let width = max(32, r.measurements.map(\.name.count).max() ?? 0)
        func cell(_ v: Int?) -> String { v.map(NumberFormat.grouped) ?? "–" }
        lines.append("  " + "request".padding(toLength: width, withPad: " ", startingAt: 0) + "   measured  predicted  difference")
        for m in r.measurements {
            let diff = m.difference.map { $0 == 0 ? "0" : String(format: "%+d", $0) } ?? "–"
            lines.append(
                "  " + m.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + cell(m.measured).leftPadded(11) + cell(m.predicted).leftPadded(11) + diff.leftPadded(12))
            if let note = m.note { lines.append("      \(note)") }
        }
        lines.append("")
        lines.append("Overheads (differences between the requests above):")
        lines.append("  empty user message (template framing + assistant turn)  \(cell(r.overheads.emptyUserMessage))")
        lines.append("  each further message                                    \(cell(r.overheads.perExtraMessage))")
        lines.append("  empty system message (negative: it replaces a default)  \(cell(r.overheads.systemPrompt))")
        lines.append("  response_format JSON schema (Summary)                   \(cell(r.overheads.responseSchema))")
        if let o = r.overflow {
            lines.append("")
            let predicted = r.overflowPredicted.map { ", predicted \(NumberFormat.grouped($0))" } ?? ""
            lines.append("Overflow (\(o.dialect.rawValue) error): the server counted \(cell(o.promptTokens)) prompt tokens for a window of \(cell(o.contextWindow))\(predicted)")
        }
        for note in r.notes { lines.append("note: \(note)") }
        return lines.joined(separator: "\n")
    }

    /// An object of the members whose value is not nil. The probe's outputs
    /// list their keys in alphabetical order, as they always have.
    static func object(_ members: KeyValuePairs<String, OrderedJSON?>) -> OrderedJSON {
        .object(members.compactMap { key, value in value.map { JSONMember(key, $0) } })
    }

    static func json(_ r: OverflowProbe.Report, url: String, window: Int?) -> String {
        let measurements = r.measurements.map { m in
            object([
                "measured": m.measured.map(OrderedJSON.int),
                "messages": .array(m.messages.map { object(["content": .string($0.content), "role": .string($0.role)]) }),
                "name": .string(m.name), "note": m.note.map(OrderedJSON.string), "predicted": m.predicted.map(OrderedJSON.int)
            ])
        }
        let overheads = object([
            "emptyUserMessage": .optional(r.overheads.emptyUserMessage),
            "perExtraMessage": .optional(r.overheads.perExtraMessage),
            "responseSchema": .optional(r.overheads.responseSchema),
            "systemPrompt": .optional(r.overheads.systemPrompt)
        ])
        let overflow = r.overflow.map { o in
            object([
                "contextWindow": o.contextWindow.map(OrderedJSON.int), "dialect": .string(o.dialect.rawValue),
                "predicted": r.overflowPredicted.map(OrderedJSON.int), "promptTokens": o.promptTokens.map(OrderedJSON.int)
            ])
        }
        return object([
            "measurements": .array(measurements), "notes": .array(r.notes.map(OrderedJSON.string)), "overflow": overflow,
            "overheads": overheads, "url": .string(url), "window": window.map(OrderedJSON.int)
        ]).rendered()
    }

    /// A user profile with the measured overheads, in the format `--profiles` reads.
    static func profileJSON(_ r: OverflowProbe.Report, url: String, window: Int?, gguf: String?) -> Data {
        let tokenizer = gguf.map { object(["file": .string($0)]) } ?? object(["encoding": .string("cl100k_base")])
        let perMessage = r.overheads.perExtraMessage ?? 0
        let perRequest = max(0, (r.overheads.emptyUserMessage ?? 0) - perMessage)
        let profile = object([
            "contextWindow": .int(window ?? 4096),
            "name": .string("probed-" + (URL(string: url)?.host ?? "server")),
            "overheads": object(["perMessage": .int(perMessage), "perRequest": .int(perRequest), "schemaFraming": .int(r.overheads.responseSchema ?? 0)]),
            "summary": .string("measured by ctxkit probe against \(url)" + (gguf == nil ? "; counts use cl100k_base as a proxy" : "")),
            "tokenizer": tokenizer
        ])
        return Data(object(["profiles": .array([profile])]).rendered().utf8)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
