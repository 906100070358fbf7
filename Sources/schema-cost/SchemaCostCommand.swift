import ContextKit
import Foundation
import Render
import ToolSupport

extension ExitCode {
    // schema-cost's statuses beyond the shared ones (0 ok, 1 unreadable input,
    // 2 usage, 3 does not fit under --check): one per kind of bad schema, so
    // scripts can tell them apart.
    static let invalidJSON = ExitCode(rawValue: 10)
    static let danglingReference = ExitCode(rawValue: 11)
    static let cyclicReference = ExitCode(rawValue: 12)
    static let noGenerableType = ExitCode(rawValue: 13)
    static let unsupportedSwift = ExitCode(rawValue: 14)
    static let notASchema = ExitCode(rawValue: 15)
    static let invalidTool = ExitCode(rawValue: 16)

    /// The status for a schema that cannot be read; `nil` for an error that is the command line's.
    init?(_ error: SchemaError) {
        switch error {
        case .invalidJSON: self = .invalidJSON
        case .danglingReference: self = .danglingReference
        case .cyclicReference: self = .cyclicReference
        case .noGenerableType: self = .noGenerableType
        case .unsupportedSwift, .swiftSyntax: self = .unsupportedSwift
        case .invalidTool: self = .invalidTool
        case .notASchema, .externalReference: self = .notASchema
        case .unknownType: return nil
        }
    }
}

/// schema-cost's command line: what a schema costs in a model's window.
enum SchemaCostCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var model: String?
        var format: SchemaFormat?
        var type: String?
        var runtime: SchemaRuntime?
        var instructions: String?
        var reserve: Int?
        var profiles: [String] = []
        var showSchema = false
        var check = false
        var json = false

        static var declarations: [OptionDeclaration<Self>] {
            [
                .option("model", short: "m", value: "NAME", help: "Model profile (default apple-on-device). Apple counts are estimates and are marked ≈.", \.model),
                .choice(
                    "format", short: "f", value: "FORMAT",
                    help: "Read FILE as this format instead of detecting it: " + SchemaFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".", \.format),
                .option("type", short: "t", value: "NAME", help: "Swift: the @Generable type to count (default: the one no other type in the file uses).", \.type),
                .choice(
                    "runtime", value: "KIND", help: "How the schema reaches the model: apple, openai, grammar (llama.cpp: not in the prompt) or json. Default: from the profile.",
                    \.runtime),
                .option("instructions", short: "i", value: "FILE", help: "Session instructions, counted into the input budget.", \.instructions),
                .option(
                    "reserve", short: "r", value: "N",
                    help: "Tokens to keep for the answer in the input budget (default: the profile's, else 512 but at most a quarter of the window, as every ContextKit tool).",
                    \.reserve, .integer()),
                .repeated("profiles", value: "FILE", help: "Extra model profiles (JSON); may be repeated.", \.profiles),
                .flag("show-schema", help: "Also print the text that was counted.", \.showSchema),
                .flag("check", help: "Exit 3 when instructions, schema and reserve leave no room for input.", \.check),
                .flag("json", help: "Write the report as JSON.", \.json)
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "schema-cost",
        usage: ["[OPTIONS] FILE", "[OPTIONS] FILE FILE...   (one session: its tools and response schema together)"],
        summary:
            "Shows what a structured-output schema costs in a model's context window, field by field. FILE is Apple's GenerationSchema JSON, a JSON Schema, an OpenAI response_format, a list of OpenAI tool definitions, or Swift source with @Generable types and Tools (read without a compiler); '-' reads standard input. Several files are one session: each tool, the response schema and their total, as a share of the window.",
        epilog: """
            Exit status:
              0   the report was written
              1   FILE or a profiles file could not be read; with several files: one
                  or more could not be read or priced (each named on standard error),
                  the others were priced
              2   the command line was wrong
              3   under --check: no room left for input
              10  FILE is not valid JSON (the message gives line and column)
              11  a $ref points at nothing
              12  $refs point at each other in a loop
              13  a Swift file without a @Generable type
              14  a Swift construct schema-cost does not read (named, with its line),
                  or Swift that does not parse (with its line:column)
              15  valid JSON that is not a schema of the chosen format
              16  a Tool that cannot be priced from source: its name or description
                  is not a string literal, or its Arguments is not @Generable (line:column)
            """)

    /// Runs the command; returns the exit status.
    static func main(_ arguments: [String]) async -> ExitCode {
        await CommandRunner.run(spec, arguments) { options in
            guard !options.positionals.isEmpty else {
                throw UsageError(tool: spec.name, "give a schema file (or - for standard input)")
            }
            let profile: ModelProfile
            let tokenizer: Tokenizer
            do {
                let catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
                profile = try catalog.profile(named: options.model ?? "apple-on-device")
                tokenizer = try profile.tokenizer.load()
            } catch let error as ProfileError {
                switch error {
                case .unknownProfile, .unknownWindow: throw CommandFailure("\(error)", exitCode: .usage)
                default: throw CommandFailure("\(error)")
                }
            }
            let settings = SchemaCostSettings(profile: profile, tokenizer: tokenizer, runtime: options.runtime, responseReserve: options.reserve)
            let instructionsTokens = try options.instructions.map { settings.tokens(try readInput($0)) } ?? 0
            let style = Style(enabled: Terminal().colorAllowed)
            if options.positionals.count > 1 {
                return try session(options.positionals, options: options, profile: profile, settings: settings, instructionsTokens: instructionsTokens, style: style)
            }
            let path = options.positionals[0]
            let input = try readInput(path)
            let documents: [SchemaDocument]
            do {
                documents = try SchemaDocument.loadAll(input, fileName: path, format: options.format, typeName: options.type)
            } catch {
                if let schemaError = error as? SchemaError, let code = ExitCode(schemaError) { throw CommandFailure("\(path): \(error)", exitCode: code) }
                throw CommandFailure("\(error)", exitCode: .usage)
            }
            var noRoom = false
            for (position, document) in documents.enumerated() {
                let report = SchemaCost(settings: settings).report(for: document, instructionsTokens: instructionsTokens)
                noRoom = noRoom || report.budget.room <= 0
                if options.json {
                    Output.out(JSONReport(report: report, path: path, document: document, tokenizer: profile.tokenizer.description).render() + "\n")
                } else {
                    Output.out(
                        (position > 0 ? "\n" : "")
                            + TextReport(
                                report: report, path: path, document: document, tokenizer: profile.tokenizer.description, style: style,
                                showSchema: options.showSchema
                            ).render())
                }
            }
            return options.check && noRoom ? .overflow : .ok
        }
    }

    /// Several files: one session's fixed cost. A file that cannot be read or
    /// priced is reported on standard error and left out; the others are
    /// priced, and the status is then 1.
    private static func session(_ paths: [String], options: Options, profile: ModelProfile, settings: SchemaCostSettings, instructionsTokens: Int, style: Style) throws -> ExitCode
    {
        var documents: [(source: String, document: SchemaDocument)] = []
        var failed = false
        for path in paths {
            do {
                let input = try readInput(path)
                for document in try sessionDocuments(input, path: path, options: options) {
                    documents.append((path, document))
                }
            } catch let error as SchemaError {
                Output.err("\(spec.name): \(path): \(error)\n")
                failed = true
            } catch {
                Output.err("\(spec.name): \(error)\n")
                failed = true
            }
        }
        guard !documents.isEmpty else {
            throw CommandFailure("none of the \(paths.count) files could be priced")
        }
        if let type = options.type, !documents.contains(where: { !$0.document.isToolList && $0.document.entries.first?.name == type }) {
            throw CommandFailure("no @Generable type named \(type) in the files given", exitCode: .usage)
        }
        let session = SchemaCost(settings: settings).session(documents)
        let budget = TokenBudget(profile: profile, session: session, instructions: instructionsTokens, reserve: options.reserve)
        let report = SessionReport(session: session, budget: budget, style: style)
        Output.out(options.json ? report.json() + "\n" : report.render())
        if failed { return .inputFailed }
        return options.check && budget.room <= 0 ? .overflow : .ok
    }

    /// A file's documents for a session. `--type` names the session's response
    /// schema; a file without that type gives its tools only.
    private static func sessionDocuments(_ input: String, path: String, options: Options) throws -> [SchemaDocument] {
        do {
            return try SchemaDocument.loadAll(input, fileName: path, format: options.format, typeName: options.type)
        } catch {
            guard case .unknownType = error else { throw error }
            return try SchemaDocument.loadAll(input, fileName: path, format: options.format).filter { $0.isToolList }
        }
    }

    /// The text of a schema or instructions file, or of standard input for `-`.
    static func readInput(_ path: String) throws -> String {
        do {
            return String(decoding: try InputFile.text(path, folderHint: "give one schema file", whyText: "schema files are JSON or Swift source"), as: UTF8.self)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
