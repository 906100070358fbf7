import ContextKit
import Foundation
import ToolSupport

/// Exit statuses of schema-cost beyond the shared ones (0 ok, 1 unreadable
/// input, 2 usage, 3 does not fit under --check): one per kind of bad schema,
/// so scripts can tell them apart.
enum SchemaExit: Int32 {
    case invalidJSON = 10
    case danglingReference = 11
    case cyclicReference = 12
    case noGenerableType = 13
    case unsupportedSwift = 14
    case notASchema = 15

    init?(_ error: SchemaError) {
        switch error {
        case .invalidJSON: self = .invalidJSON
        case .danglingReference: self = .danglingReference
        case .cyclicReference: self = .cyclicReference
        case .noGenerableType: self = .noGenerableType
        case .unsupportedSwift: self = .unsupportedSwift
        case .notASchema, .externalReference: self = .notASchema
        case .unknownType: return nil
        }
    }
}

let command = CommandSpec(
    name: "schema-cost",
    version: ToolVersion.string,
    usage: ["[OPTIONS] FILE"],
    summary: "Shows what a structured-output schema costs in a model's context window, field by field. FILE is Apple's GenerationSchema JSON, a JSON Schema, an OpenAI response_format, a list of OpenAI tool definitions, or Swift source with @Generable types (read without a compiler); '-' reads standard input.",
    options: [
        OptionSpec("m", "model", value: "NAME", help: "Model profile (default apple-on-device). Apple counts are estimates and are marked ≈."),
        OptionSpec("f", "format", value: "FORMAT", choices: SchemaFormat.allCases.map(\.rawValue), help: "Read FILE as this format instead of detecting it: " + SchemaFormat.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        OptionSpec("t", "type", value: "NAME", help: "Swift: the @Generable type to count (default: the one no other type in the file uses)."),
        OptionSpec(nil, "runtime", value: "KIND", choices: SchemaRuntime.allCases.map(\.rawValue), help: "How the schema reaches the model: apple, openai, grammar (llama.cpp: not in the prompt) or json. Default: from the profile."),
        OptionSpec("i", "instructions", value: "FILE", help: "Session instructions, counted into the input budget."),
        OptionSpec("r", "reserve", value: "N", help: "Tokens to keep for the answer in the input budget (default: the profile's)."),
        OptionSpec(nil, "profiles", value: "FILE", help: "Extra model profiles (JSON); may be repeated."),
        OptionSpec(nil, "show-schema", help: "Also print the text that was counted."),
        OptionSpec(nil, "check", help: "Exit 3 when instructions, schema and reserve leave no room for input."),
        OptionSpec(nil, "json", help: "Write the report as JSON."),
    ],
    epilog: """
    Exit status:
      0   the report was written
      1   FILE or a profiles file could not be read
      2   the command line was wrong
      3   under --check: no room left for input
      10  FILE is not valid JSON (the message gives line and column)
      11  a $ref points at nothing
      12  $refs point at each other in a loop
      13  a Swift file without a @Generable type
      14  a Swift construct schema-cost does not read (named, with its line)
      15  valid JSON that is not a schema of the chosen format
    """)

func fail(_ message: String, _ code: Int32) -> Never {
    Output.err("schema-cost: \(message)\n")
    exit(code)
}

func readInput(_ path: String) -> String {
    let data: Data?
    if path == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
        data = FileManager.default.contents(atPath: path)
    }
    guard let data else {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        fail("\(path): " + (isDirectory.boolValue ? "is a folder; give one schema file" : exists ? "cannot be read (permissions?)" : "no such file"), ExitCode.inputFailed.rawValue)
    }
    guard let text = String(data: data, encoding: .utf8) else {
        fail("\(path): not UTF-8 text; schema files are JSON or Swift source", ExitCode.inputFailed.rawValue)
    }
    return text
}

let arguments: ParsedArguments
do {
    arguments = try command.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Output.err("\(error)\n")
    exit(ExitCode.usage.rawValue)
}
if let information = command.informationRequested(in: arguments) {
    Output.out(information)
    exit(ExitCode.ok.rawValue)
}
guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
    Output.err("\(UsageError(tool: command.name, arguments.positionals.isEmpty ? "give a schema file (or - for standard input)" : "give one schema file at a time"))\n")
    exit(ExitCode.usage.rawValue)
}

let profile: ModelProfile
let tokenizer: Tokenizer
let reserve: Int?
do {
    let catalog = try ProfileCatalog.standard(extraFiles: arguments.values("profiles"))
    profile = try catalog.profile(named: arguments.value("model") ?? "apple-on-device")
    tokenizer = try profile.tokenizer.load()
    reserve = try arguments.integer("reserve")
} catch let error as ProfileError {
    if case .unknownProfile = error { fail("\(error)", ExitCode.usage.rawValue) }
    fail("\(error)", ExitCode.inputFailed.rawValue)
} catch {
    fail("\(error)", error is UsageError ? ExitCode.usage.rawValue : ExitCode.inputFailed.rawValue)
}

let document: SchemaDocument
do {
    document = try SchemaDocument.load(
        readInput(path), fileName: path, format: arguments.value("format").flatMap(SchemaFormat.init(rawValue:)),
        typeName: arguments.value("type"))
} catch {
    if let code = SchemaExit(error) { fail("\(path): \(error)", code.rawValue) }
    fail("\(error)", ExitCode.usage.rawValue)
}

let settings = SchemaCostSettings(
    profile: profile, tokenizer: tokenizer, runtime: arguments.value("runtime").flatMap(SchemaRuntime.init(rawValue:)),
    responseReserve: reserve)
let instructionsTokens = arguments.value("instructions").map { settings.tokens(readInput($0)) } ?? 0
let report = SchemaCost(settings: settings).report(for: document, instructionsTokens: instructionsTokens)

if arguments.has("json") {
    Output.out(JSONReport(report: report, path: path, document: document, tokenizer: profile.tokenizer.description).render() + "\n")
} else {
    let style = Style(enabled: Terminal().colorAllowed)
    Output.out(TextReport(report: report, path: path, document: document, tokenizer: profile.tokenizer.description, style: style,
                          showSchema: arguments.has("show-schema")).render())
}
if arguments.has("check") && report.budget.inputLeft <= 0 {
    exit(ExitCode.overflow.rawValue)
}
