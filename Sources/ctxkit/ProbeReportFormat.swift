import ContextKit
import Foundation
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
            lines.append("  " + m.name.padding(toLength: width, withPad: " ", startingAt: 0)
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

    static func json(_ r: OverflowProbe.Report, url: String, window: Int?) -> String {
        var object: [String: Any] = [
            "url": url,
            "measurements": r.measurements.map { m -> [String: Any] in
                var o: [String: Any] = ["name": m.name, "messages": m.messages.map { ["role": $0.role, "content": $0.content] }]
                if let v = m.measured { o["measured"] = v }
                if let v = m.predicted { o["predicted"] = v }
                if let n = m.note { o["note"] = n }
                return o
            },
            "overheads": [
                "emptyUserMessage": r.overheads.emptyUserMessage as Any,
                "perExtraMessage": r.overheads.perExtraMessage as Any,
                "systemPrompt": r.overheads.systemPrompt as Any,
                "responseSchema": r.overheads.responseSchema as Any,
            ].compactMapValues { $0 is NSNull ? nil : $0 },
            "notes": r.notes,
        ]
        if let window { object["window"] = window }
        if let o = r.overflow {
            var overflow: [String: Any] = ["dialect": o.dialect.rawValue]
            if let v = o.promptTokens { overflow["promptTokens"] = v }
            if let v = o.contextWindow { overflow["contextWindow"] = v }
            if let v = r.overflowPredicted { overflow["predicted"] = v }
            object["overflow"] = overflow
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A user profile with the measured overheads, in the format `--profiles` reads.
    static func profileJSON(_ r: OverflowProbe.Report, url: String, window: Int?, gguf: String?) throws -> Data {
        let tokenizer: [String: String] = gguf.map { ["file": $0] } ?? ["encoding": "cl100k_base"]
        let perMessage = r.overheads.perExtraMessage ?? 0
        let perRequest = max(0, (r.overheads.emptyUserMessage ?? 0) - perMessage)
        let profile: [String: Any] = [
            "name": "probed-" + (URL(string: url)?.host ?? "server"),
            "summary": "measured by ctxkit probe against \(url)" + (gguf == nil ? "; counts use cl100k_base as a proxy" : ""),
            "contextWindow": window ?? 4096,
            "tokenizer": tokenizer,
            "overheads": ["perRequest": perRequest, "perMessage": perMessage, "schemaFraming": r.overheads.responseSchema ?? 0],
        ]
        return try JSONSerialization.data(withJSONObject: ["profiles": [profile]], options: [.sortedKeys, .prettyPrinted])
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
