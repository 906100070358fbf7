import ContextKit
import Foundation
import ToolSupport

/// `ctxkit probe`: what a real server charges (`--url`), or where a text
/// crosses a window (`--where`, offline).
enum ProbeCommand {
    static let spec = CommandSpec(
        name: "ctxkit probe",
        version: ToolVersion.string,
        usage: ["--url URL [--gguf FILE] [--model NAME] [--window N] [--json] [--write-profile FILE]",
                "--where FILE [-m PROFILE] [--window N] [--reserve N] [--json]"],
        summary: "Measures what an OpenAI-compatible server charges for a request (usage.prompt_tokens, and the count in its context-overflow error) and sets it beside ContextKit's prediction from the model's GGUF (tokenizer + chat template). With --where, finds offline the exact place a text crosses the window.",
        options: [
            OptionSpec(nil, "url", value: "URL", help: "The server, e.g. http://127.0.0.1:8080."),
            OptionSpec(nil, "gguf", value: "FILE", help: "The model's GGUF: predicts prompt tokens with its tokenizer and chat template."),
            OptionSpec(nil, "model", value: "NAME", help: "Model name to send (servers that host several)."),
            OptionSpec(nil, "api-key", value: "KEY", help: "Bearer token (or set OPENAI_API_KEY)."),
            OptionSpec(nil, "window", value: "N", help: "The context window (default: the server's /props, or the profile's)."),
            OptionSpec(nil, "write-profile", value: "FILE", help: "Write the measured overheads as a user profile (JSON)."),
            OptionSpec(nil, "where", value: "FILE", help: "Offline: where FILE crosses the window of the profile."),
            OptionSpec("m", "model-profile", value: "PROFILE", help: "Profile for --where (default apple-on-device)."),
            OptionSpec(nil, "profiles", value: "FILE", help: "Extra profiles (JSON)."),
            OptionSpec(nil, "reserve", value: "N", help: "Tokens kept for the answer (--where)."),
            OptionSpec(nil, "json", help: "One JSON document instead of the table."),
        ],
        epilog: "Exit status: 0 measured, 1 the server could not be measured, 2 usage error, 3 --where: the text overflows.")

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try spec.parse(arguments)
            if let information = spec.informationRequested(in: args) { Output.out(information); return ExitCode.ok.rawValue }
            if let path = args.value("where") { return try whereCommand(path, args) }
            guard let url = args.value("url").flatMap(URL.init(string:)) else {
                throw UsageError(tool: spec.name, "give --url URL (a server to measure) or --where FILE (offline)")
            }
            return try serverCommand(url, args)
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return ExitCode.usage.rawValue
        } catch {
            FileHandle.standardError.write(Data("ctxkit probe: \(error)\n".utf8))
            return ExitCode.inputFailed.rawValue
        }
    }

    private static func whereCommand(_ path: String, _ args: ParsedArguments) throws -> Int32 {
        let catalog = try ProfileCatalog.standard(extraFiles: args.values("profiles"))
        let profile = try args.value("model-profile").map(catalog.profile(named:)) ?? catalog.defaultProfile()
        let window = try args.integer("window", minimum: 1) ?? profile.contextWindow
        let reserve = try args.integer("reserve") ?? profile.defaultReserve
        let budget = TokenBudget(window: window, requestOverhead: profile.overheads.request(messages: 1), reserve: reserve)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try data.withUnsafeBytes { raw in
            try FitReport.measure(utf8: raw.bindMemory(to: UInt8.self), tokenizer: try profile.tokenizer.load(),
                                  budget: budget, estimate: profile.estimate)
        }
        let approx = profile.isEstimate ? "≈" : ""
        if args.has("json") {
            let overflow = report.firstTokenPast.map { p in
                ProbeReportFormat.object(["byteOffset": .int(p.position.byteOffset), "characterOffset": .int(p.position.characterOffset),
                                          "column": .int(p.position.column), "line": .int(p.position.line), "token": .int(p.token)])
            }
            print(ProbeReportFormat.object(["estimate": .bool(profile.isEstimate), "file": .string(path), "fits": .bool(report.fits),
                                            "overflow": overflow, "overhead": .int(budget.requestOverhead), "profile": .string(profile.name),
                                            "reserve": .int(reserve), "textTokens": .int(report.textTokens), "window": .int(window)]).rendered())
        } else {
            print("\(path): \(approx)\(NumberFormat.grouped(report.textTokens)) tokens of text; window \(NumberFormat.grouped(window)) − \(budget.requestOverhead) per request − \(reserve) reserve = \(approx)\(NumberFormat.grouped(budget.available)) for text (\(profile.name))")
            if let p = report.firstTokenPast {
                print("crosses the window at token \(approx)\(NumberFormat.grouped(p.token)): line \(p.position.line), column \(p.position.column) (byte \(NumberFormat.grouped(p.position.byteOffset)), character \(NumberFormat.grouped(p.position.characterOffset)))")
                print("fits: the first \(NumberFormat.grouped(p.position.characterOffset)) characters (\(NumberFormat.percent(p.position.byteOffset, of: max(data.count, 1))) of the bytes)")
            } else {
                print("fits, with \(approx)\(NumberFormat.grouped(report.spare)) tokens to spare")
            }
            if let e = profile.estimate { print("≈ \(e.method)") }
        }
        return report.fits ? ExitCode.ok.rawValue : ExitCode.overflow.rawValue
    }

    private static func serverCommand(_ url: URL, _ args: ParsedArguments) throws -> Int32 {
        let apiKey = args.value("api-key") ?? ProcessInfo.processInfo.environment["OPENAI_API_KEY"]
        let client = ChatCompletionsClient(baseURL: url, apiKey: apiKey)
        let predictor = try args.value("gguf").map { try PromptPredictor(gguf: URL(fileURLWithPath: $0)) }
        let explicitWindow = try args.integer("window", minimum: 1)
        let probe = OverflowProbe(client: client, predictor: predictor, model: args.value("model"))
        let report = runBlocking {
            let window: Int?
            if let explicitWindow { window = explicitWindow } else { window = await client.serverContextWindow() }
            return (await probe.run(window: window), window)
        }
        let (result, window) = report
        if args.has("json") {
            print(ProbeReportFormat.json(result, url: url.absoluteString, window: window))
        } else {
            print(ProbeReportFormat.table(result, url: url.absoluteString, window: window))
        }
        if let path = args.value("write-profile") {
            try ProbeReportFormat.profileJSON(result, url: url.absoluteString, window: window, gguf: args.value("gguf"))
                .write(to: URL(fileURLWithPath: path))
            FileHandle.standardError.write(Data("wrote \(path)\n".utf8))
        }
        return result.measurements.allSatisfy({ $0.measured == nil }) ? ExitCode.inputFailed.rawValue : ExitCode.ok.rawValue
    }
}

/// Runs async work from ctxkit's synchronous entry point.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
