import ContextKit
import ToolSupport

/// `--json`: one document, schema version 1 (documented in the README; fields
/// are only ever added, never renamed or removed, within a schema version).
enum JSONReport {
    static let schemaVersion = 1

    static func render(rows: [Row], total: Total, settings s: TokcountCommand.Settings, exit: ExitCode) -> JSONValue {
        var warnings: [JSONValue] = []
        for row in rows { warnings += row.warnings.map { .string($0) } }
        return .object([
            ("schemaVersion", .int(schemaVersion)),
            ("tool", .string("tokcount")),
            ("version", .string(ToolVersion.string)),
            ("profile", profile(s)),
            ("special", .string(s.specialMode)),
            ("inputs", .array(rows.map { input($0, settings: s) })),
            ("total", totals(total, settings: s)),
            ("warnings", .array(warnings)),
            ("exitCode", .int(Int(exit.rawValue))),
        ])
    }

    static func profile(_ s: TokcountCommand.Settings) -> JSONValue {
        let p = s.profile
        var estimate: JSONValue = .null
        if let e = s.estimate {
            estimate = .object([
                ("method", .string(e.method)),
                ("factor", .double(e.factor)),
                ("proxyTokensPerCJKCharacter", .double(e.proxyTokensPerCJKCharacter)),
                ("tokensPerCJKCharacter", .double(e.tokensPerCJKCharacter)),
                ("errorBar", .double(e.errorBar)),
                ("cjkErrorBar", .double(e.cjkErrorBar)),
            ])
        }
        return .object([
            ("name", .string(p.name)),
            ("contextWindow", .int(p.contextWindow)),
            ("tokenizer", .string(s.tokenizerName)),
            ("estimated", .bool(s.estimate != nil)),
            ("estimate", estimate),
            ("overheadPerRequest", .int(p.overheads.perRequest)),
            ("overheadPerMessage", .int(p.overheads.perMessage)),
            ("reserve", .int(s.reserve)),
        ])
    }

    static func input(_ row: Row, settings s: TokcountCommand.Settings) -> JSONValue {
        var fields: [(String, JSONValue)] = [("path", .string(row.path))]
        switch row.state {
        case .counted(let c):
            fields += [
                ("status", .string("counted")),
                ("reason", .null),
                ("tokens", .int(row.tokens)),
                ("estimated", .bool(s.estimate != nil)),
                ("errorBar", .optional(s.estimate.map { $0.errorBar(characters: c.stats.characters, cjkCharacters: c.stats.cjkCharacters) })),
                ("tokenizerTokens", .int(c.proxyTokens)),
            ] + statsFields(c.stats, tokens: row.tokens) + [
                ("specialTokenStrings", .int(c.specialStrings)),
                ("fit", fit(row.fit!)),
            ]
        case .skipped(let why), .failed(let why):
            let status = if case .skipped = row.state { "skipped" } else { "failed" }
            fields += [("status", .string(status)), ("reason", .string(why)), ("tokens", .null), ("fit", .null)]
        }
        if s.ids || s.pieces { fields.append(("ids", .array(row.ids.map { .int($0) }))) }
        if s.pieces {
            fields.append(("pieces", .array(row.pieces.map { .object([("id", .int($0.id)), ("byteOffset", .int($0.offset)), ("text", .string($0.text))]) })))
        }
        return .object(fields)
    }

    static func statsFields(_ stats: TextStats, tokens: Int) -> [(String, JSONValue)] {
        [
            ("characters", .int(stats.characters)),
            ("bytes", .int(stats.bytes)),
            ("lines", .int(stats.newlines + (stats.charactersAfterLastNewline > 0 ? 1 : 0))),
            ("charactersPerToken", tokens > 0 ? .double((Double(stats.characters) / Double(tokens) * 100).rounded() / 100) : .null),
            ("cjkCharacters", .int(stats.cjkCharacters)),
            ("firstInvalidUTF8Offset", .optional(stats.firstInvalidUTF8)),
        ]
    }

    static func fit(_ f: FitReport, path: String? = nil, totalToken: Int? = nil) -> JSONValue {
        var past: JSONValue = .null
        if let p = f.firstTokenPast {
            var point: [(String, JSONValue)] = []
            if let path { point.append(("path", .string(path))) }
            point += [
                ("token", .int(totalToken ?? p.token)),
                ("tokenInInput", .int(p.token)),
                ("byteOffset", .int(p.position.byteOffset)),
                ("characterOffset", .int(p.position.characterOffset)),
                ("line", .int(p.position.line)),
                ("column", .int(p.position.column)),
            ]
            past = .object(point)
        }
        return .object([
            ("window", .int(f.budget.window)),
            ("overhead", .int(f.budget.overhead)),
            ("reserve", .int(f.budget.reserve)),
            ("available", .int(f.budget.available)),
            ("used", .int(f.used)),
            ("fits", .bool(f.fits)),
            ("spare", .int(f.spare)),
            ("overflow", .int(f.overflow)),
            ("percent", .double((Double(f.used) * 1000 / Double(max(f.budget.window, 1))).rounded() / 10)),
            ("firstTokenPast", past),
        ])
    }

    static func totals(_ t: Total, settings s: TokcountCommand.Settings) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("inputs", .int(t.inputs)),
            ("counted", .int(t.counted)),
            ("skipped", .int(t.skipped)),
            ("failed", .int(t.failed)),
            ("tokens", .int(t.tokens)),
            ("estimated", .bool(s.estimate != nil)),
            ("tokenizerTokens", .int(t.proxyTokens)),
        ]
        fields += statsFields(t.stats, tokens: t.tokens)
        fields.append(("fit", t.fit.map { fit($0, path: t.firstTokenPast?.path, totalToken: t.firstTokenPast?.token) } ?? .null))
        return .object(fields)
    }
}
