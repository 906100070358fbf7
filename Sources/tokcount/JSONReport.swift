import ContextKit
import ContextKitJSON
import ToolSupport

/// `--json`: one document, schema version 1 (documented in the README; fields
/// are only ever added, never renamed or removed, within a schema version).
enum JSONReport {
    static let schemaVersion = 1

    /// The report; with `inputsWritten`, its `inputs` are left empty, for an
    /// `ArrayWriter` that wrote each row's `input` as it was counted.
    static func render(rows: [Row], total: Total, settings s: TokcountCommand.Settings, exit: ExitCode, inputsWritten: Bool = false) -> OrderedJSON {
        var warnings: [OrderedJSON] = []
        for row in rows { warnings += row.warnings.map { .string($0) } }
        return .object([
            JSONMember("schemaVersion", .int(schemaVersion)),
            JSONMember("tool", .string("tokcount")),
            JSONMember("version", .string(ToolVersion.string)),
            JSONMember("profile", profile(s)),
            JSONMember("special", .string(s.specialMode.rawValue)),
            JSONMember("inputs", .array(inputsWritten ? [] : rows.map { input($0, settings: s) })),
            JSONMember("total", totals(total, settings: s)),
            JSONMember("warnings", .array(warnings)),
            JSONMember("exitCode", .int(Int(exit.rawValue)))
        ])
    }

    static func profile(_ s: TokcountCommand.Settings) -> OrderedJSON {
        let p = s.profile
        var estimate: OrderedJSON = .null
        if let e = s.estimate {
            estimate = .object([
                JSONMember("method", .string(e.method)),
                JSONMember("factor", .double(e.factor)),
                JSONMember("proxyTokensPerCJKCharacter", .double(e.proxyTokensPerCJKCharacter)),
                JSONMember("tokensPerCJKCharacter", .double(e.tokensPerCJKCharacter)),
                JSONMember("errorBar", .double(e.errorBar)),
                JSONMember("cjkErrorBar", .double(e.cjkErrorBar))
            ])
        }
        var members = [
            JSONMember("name", .string(p.name)),
            JSONMember("contextWindow", .int(p.contextWindow)),
            JSONMember("tokenizer", .string(s.tokenizerName)),
            JSONMember("estimated", .bool(s.estimate != nil)),
            JSONMember("estimate", estimate),
            JSONMember("overheadPerRequest", .int(p.overheads.perRequest)),
            JSONMember("overheadPerMessage", .int(p.overheads.perMessage)),
            JSONMember("reserve", .int(s.reserve))
        ]
        // Only a profile read from a model file has one, so other reports stay as they were.
        if !p.provenance.isEmpty { members.append(JSONMember("provenance", .array(p.provenance.map { .string($0) }))) }
        return .object(members)
    }

    static func input(_ row: Row, settings s: TokcountCommand.Settings) -> OrderedJSON {
        // Appended one by one into room reserved once: concatenated arrays made
        // four temporaries per input, a fifth of building a 10,000-input report.
        var fields: [JSONMember] = []
        fields.reserveCapacity(18)
        fields.append(JSONMember("path", .string(row.path)))
        switch row.state {
        case .counted(let c):
            fields.append(JSONMember("status", .string("counted")))
            fields.append(JSONMember("reason", .null))
            fields.append(JSONMember("tokens", .int(row.tokens)))
            fields.append(JSONMember("estimated", .bool(s.estimate != nil)))
            fields.append(JSONMember("errorBar", .optional(s.estimate.map { $0.errorBar(characters: c.stats.characters, cjkCharacters: c.stats.cjkCharacters) })))
            fields.append(JSONMember("tokenizerTokens", .int(c.proxyTokens)))
            appendStatsFields(c.stats, tokens: row.tokens, to: &fields)
            fields.append(JSONMember("specialTokenStrings", .int(c.specialStrings)))
            fields.append(JSONMember("fit", fit(row.fit!)))
        case .skipped(let why), .failed(let why):
            let status = if case .skipped = row.state { "skipped" } else { "failed" }
            fields += [JSONMember("status", .string(status)), JSONMember("reason", .string(why)), JSONMember("tokens", .null), JSONMember("fit", .null)]
        }
        if s.ids || s.pieces { fields.append(JSONMember("ids", .array(row.ids.map { .int($0) }))) }
        if s.pieces {
            fields.append(
                JSONMember(
                    "pieces", .array(row.pieces.map { .object([JSONMember("id", .int($0.id)), JSONMember("byteOffset", .int($0.offset)), JSONMember("text", .string($0.text))]) })))
        }
        return .object(fields)
    }

    static func appendStatsFields(_ stats: TextStats, tokens: Int, to fields: inout [JSONMember]) {
        fields.append(JSONMember("characters", .int(stats.characters)))
        fields.append(JSONMember("bytes", .int(stats.bytes)))
        fields.append(JSONMember("lines", .int(stats.newlines + (stats.charactersAfterLastNewline > 0 ? 1 : 0))))
        fields.append(JSONMember("charactersPerToken", tokens > 0 ? .double((Double(stats.characters) / Double(tokens) * 100).rounded() / 100) : .null))
        fields.append(JSONMember("cjkCharacters", .int(stats.cjkCharacters)))
        fields.append(JSONMember("firstInvalidUTF8Offset", .optional(stats.firstInvalidUTF8)))
    }

    static func fit(_ f: FitReport, path: String? = nil, totalToken: Int? = nil) -> OrderedJSON {
        var past: OrderedJSON = .null
        if let p = f.firstTokenPast {
            var point: [JSONMember] = []
            if let path { point.append(JSONMember("path", .string(path))) }
            point += [
                JSONMember("token", .int(totalToken ?? p.token)),
                JSONMember("tokenInInput", .int(p.token)),
                JSONMember("byteOffset", .int(p.position.byteOffset)),
                JSONMember("characterOffset", .int(p.position.characterOffset)),
                JSONMember("line", .int(p.position.line)),
                JSONMember("column", .int(p.position.column))
            ]
            past = .object(point)
        }
        return .object([
            JSONMember("window", .int(f.budget.window)),
            JSONMember("overhead", .int(f.budget.requestOverhead)),
            JSONMember("reserve", .int(f.budget.reserve)),
            JSONMember("available", .int(f.budget.available)),
            JSONMember("used", .int(f.used)),
            JSONMember("fits", .bool(f.fits)),
            JSONMember("spare", .int(f.spare)),
            JSONMember("overflow", .int(f.overflow)),
            JSONMember("percent", .double((Double(f.used) * 1000 / Double(max(f.budget.window, 1))).rounded() / 10)),
            JSONMember("firstTokenPast", past)
        ])
    }

    static func totals(_ t: Total, settings s: TokcountCommand.Settings) -> OrderedJSON {
        var fields: [JSONMember] = [
            JSONMember("inputs", .int(t.inputs)),
            JSONMember("counted", .int(t.counted)),
            JSONMember("skipped", .int(t.skipped)),
            JSONMember("failed", .int(t.failed)),
            JSONMember("tokens", .int(t.tokens)),
            JSONMember("estimated", .bool(s.estimate != nil)),
            JSONMember("tokenizerTokens", .int(t.proxyTokens))
        ]
        appendStatsFields(t.stats, tokens: t.tokens, to: &fields)
        fields.append(JSONMember("fit", t.fit.map { fit($0, path: t.firstTokenPast?.path, totalToken: t.firstTokenPast?.token) } ?? .null))
        return .object(fields)
    }
}
