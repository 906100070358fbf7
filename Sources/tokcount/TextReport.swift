import ContextKit
import Render
import ToolSupport

/// The human-readable report: a block for one input, a table for several.
struct TextReport {
    let settings: TokcountCommand.Settings
    let style: Style

    private var approx: String { settings.estimate == nil ? "" : "≈" }
    private func n(_ value: Int) -> String { NumberFormat.grouped(value) }

    func render(rows: [Row], total: Total) -> String {
        if rows.count == 1, let row = rows.first, row.counted != nil { return block(row) }
        return table(rows, total: total)
    }

    // MARK: One input

    private func block(_ row: Row) -> String {
        let c = row.counted!
        // The numbers right-aligned in one column, notes after them.
        let numbers = [
            approx + n(row.tokens), n(c.stats.characters), n(c.stats.bytes),
            charsPerToken(c.stats.characters, row.tokens), n(lineCount(c.stats))
        ]
        let numberWidth = numbers.map(\.count).max()!
        func padded(_ s: String) -> String { String(repeating: " ", count: numberWidth - s.count) + s }
        var tokenNote: String
        if let e = settings.estimate {
            let bar = e.errorBar(characters: c.stats.characters, cjkCharacters: c.stats.cjkCharacters)
            tokenNote = "estimated for \(settings.profile.name) from \(settings.tokenizerName) (\(n(c.proxyTokens)) tokens): \(estimateSummary(e)), ±\(Int((bar * 100).rounded()))%"
        } else {
            tokenNote = settings.tokenizerName
        }
        var lines: [(String, String)] = [
            ("tokens", padded(numbers[0]) + "  " + tokenNote),
            ("characters", padded(numbers[1])),
            ("bytes", padded(numbers[2])),
            ("chars/token", padded(numbers[3])),
            ("lines", padded(numbers[4]))
        ]
        if let fit = row.fit {
            lines.append(("fit", fitLine(fit, locationPrefix: "token")))
            if let detail = breakdown(fit) { lines.append(("", detail)) }
        }
        if let source = provenance { lines.append(("source", source)) }
        let width = lines.map(\.0.count).max()! + 2
        var out = style.bold(row.displayName) + "\n"
        for (label, value) in lines {
            out += "  " + label + String(repeating: " ", count: width - label.count) + value + "\n"
        }
        return out
    }

    /// `cl100k_base × 1.216, CJK 1 token/character` — the formula in a few words.
    private func estimateSummary(_ e: TokenEstimate) -> String {
        var s = "× \(NumberFormat.decimal(e.factor, places: 3))"
        if e.proxyTokensPerCJKCharacter > 0 {
            s += ", CJK \(NumberFormat.decimal(e.tokensPerCJKCharacter, places: 1)) token/character"
        }
        return s
    }

    /// `3,204 of 4,096 tokens (78%), fits with 892 to spare`, or the overflow and where it starts.
    private func fitLine(_ fit: FitReport, locationPrefix: String, inPath: String? = nil) -> String {
        let head = "\(approx)\(n(fit.used)) of \(n(fit.budget.window)) tokens (\(NumberFormat.percent(fit.used, of: fit.budget.window)))"
        if fit.fits {
            return head + ", " + style.green("fits with \(approx)\(n(fit.spare)) to spare")
        }
        var line = head + ", " + style.red("overflows by \(approx)\(n(fit.overflow)) token\(fit.overflow == 1 ? "" : "s")")
        if let p = fit.firstTokenPast {
            line += ": \(locationPrefix) \(approx)\(n(p.token)) starts at " + (inPath.map { "\($0), " } ?? "") + "line \(n(p.position.line)), column \(n(p.position.column))"
        }
        return line
    }

    /// `gpt-4o: 3,204 text + 6 request overhead + 500 reserved`, when there is more than text.
    private func breakdown(_ fit: FitReport, messages: Int = 1) -> String? {
        guard fit.budget.requestOverhead > 0 || fit.budget.reserve > 0 else {
            return "\(settings.profile.name): \(approx)\(n(fit.textTokens)) text, no request overhead"
        }
        var parts = ["\(approx)\(n(fit.textTokens)) text"]
        if fit.budget.requestOverhead > 0 { parts.append("\(n(fit.budget.requestOverhead)) request overhead") }
        if fit.budget.reserve > 0 { parts.append("\(n(fit.budget.reserve)) reserved for the answer (\(fit.budget.reserveSource))") }
        return "\(settings.profile.name): " + parts.joined(separator: " + ")
    }

    /// Where a model file's window and overheads came from; nil for a built-in or configured profile.
    private var provenance: String? {
        settings.profile.provenance.isEmpty ? nil : settings.profile.provenance.joined(separator: "; ")
    }

    private func charsPerToken(_ chars: Int, _ tokens: Int) -> String {
        tokens > 0 ? NumberFormat.decimal(Double(chars) / Double(tokens)) : "-"
    }

    /// Lines as an editor numbers them: a last line without a line feed still counts.
    private func lineCount(_ stats: TextStats) -> Int {
        stats.newlines + (stats.charactersAfterLastNewline > 0 ? 1 : 0)
    }

    // MARK: Several inputs

    private func table(_ rows: [Row], total: Total) -> String {
        let window = settings.profile.contextWindow
        var cells: [[String]] = []
        for row in rows {
            switch row.state {
            case .counted(let c):
                let fit = row.fit!
                cells.append([
                    approx + n(row.tokens), n(c.stats.characters), n(c.stats.bytes), charsPerToken(c.stats.characters, row.tokens),
                    NumberFormat.percent(fit.used, of: window) + (fit.fits ? "" : " over"), row.path
                ])
            case .skipped(let why):
                cells.append(["-", "-", "-", "-", "skipped", "\(row.path) (\(why))"])
            case .failed(let why):
                cells.append(["-", "-", "-", "-", "failed", "\(row.path) (\(why))"])
            }
        }
        let t = total
        var note: [String] = []
        if t.skipped > 0 { note.append("\(t.skipped) skipped") }
        if t.failed > 0 { note.append("\(t.failed) failed") }
        let label = "total (\(t.counted) input\(t.counted == 1 ? "" : "s")\(note.isEmpty ? "" : ", " + note.joined(separator: ", ")))"
        cells.append([
            approx + n(t.tokens), n(t.stats.characters), n(t.stats.bytes), charsPerToken(t.stats.characters, t.tokens),
            t.fit.map { NumberFormat.percent($0.used, of: window) + ($0.fits ? "" : " over") } ?? "-", label
        ])
        let header = ["tokens", "chars", "bytes", "chars/tok", "window", "path"]
        let body = Table(header: header, alignRight: [true, true, true, true, true, false]).render(cells) { r, c, padded in
            if c == 4, padded.hasSuffix("over") { return style.red(padded) }
            if r == cells.count - 1, c == 5 { return style.bold(padded) }
            return padded
        }
        var out = body + "\n"
        out += "model:  \(settings.profile.name), \(n(window))-token window, \(settings.tokenizerName)"
        if let e = settings.estimate { out += " (counts estimated: \(estimateSummary(e)), ±\(Int((e.errorBar * 100).rounded()))%)" }
        out += "\n"
        if let source = provenance { out += "source: \(source)\n" }
        if let fit = t.fit, t.counted > 0 {
            let messages = t.counted
            let located = t.firstTokenPast.map { "token \(approx)\(n($0.token)) of all inputs (token \(approx)\(n($0.point.token)) of \($0.path))" }
            var line = "all \(messages) in one request: " + fitLine(fit, locationPrefix: "token")
            if let located, let p = t.firstTokenPast?.point {
                line = "all \(messages) in one request: " + fitLine(FitReport(textTokens: fit.textTokens, budget: fit.budget), locationPrefix: "")
                line += ": \(located) starts at line \(n(p.position.line)), column \(n(p.position.column))"
            }
            out += line + "\n"
        }
        return out
    }
}
