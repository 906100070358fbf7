import ContextKit
import ContextKitServing
import Foundation
import Render
import ToolSupport

/// `ctxkit probe`: what a real server charges (`--url`), or where a text
/// crosses a window (`--where`, offline).
enum ProbeCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var url: URL?
        var gguf: String?
        var model: String?
        var apiKey: String?
        var window: Int?
        var writeProfile: String?
        var whereFile: String?
        var modelProfile: String?
        var profiles: [String] = []
        var reserve: Int?
        var json = false

        static var declarations: [OptionDeclaration<Self>] {
            [
                .option("url", value: "URL", help: "The server, e.g. http://127.0.0.1:8080.", \.url, .serverURL),
                .option("gguf", value: "FILE", help: "The model's GGUF: predicts prompt tokens with its tokenizer and chat template.", \.gguf),
                .option("model", value: "NAME", help: "Model name to send (servers that host several).", \.model),
                .option("api-key", value: "KEY", help: "Bearer token (or set OPENAI_API_KEY).", \.apiKey),
                .option("window", value: "N", help: "The context window (default: the server's /props, or the profile's).", \.window, .tokens(minimum: 1)),
                .option("write-profile", value: "FILE", help: "Write the measured overheads as a user profile (JSON).", \.writeProfile),
                .option("where", value: "FILE", help: "Offline: where FILE crosses the window of the profile.", \.whereFile),
                .option("model-profile", short: "m", value: "PROFILE", help: "Profile for --where (default apple-on-device).", \.modelProfile),
                .repeated("profiles", value: "FILE", help: "Extra profiles (JSON).", \.profiles),
                .option("reserve", value: "N", help: "Tokens kept for the answer (--where).", \.reserve, .tokens()),
                .flag("json", help: "One JSON document instead of the table.", \.json)
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit probe",
        usage: [
            "--url URL [--gguf FILE] [--model NAME] [--window N] [--json] [--write-profile FILE]",
            "--where FILE [-m PROFILE] [--window N] [--reserve N] [--json]"
        ],
        summary:
            "Measures what an OpenAI-compatible server charges for a request (usage.prompt_tokens, and the count in its context-overflow error) and sets it beside ContextKit's prediction from the model's GGUF (tokenizer + chat template). With --where, finds offline the exact place a text crosses the window.",
        epilog: "Exit status: 0 measured, 1 the server could not be measured, 2 usage error, 3 --where: the text overflows, 5 the server at --url could not be reached.")

    static func run(_ arguments: [String]) async -> ExitCode {
        await CommandRunner.run(spec, arguments) { options in
            if let path = options.whereFile { return try whereCommand(path, options) }
            guard let url = options.url else {
                throw UsageError(tool: spec.name, "give --url URL (a server to measure) or --where FILE (offline)")
            }
            return try await serverCommand(url, options)
        }
    }

    private static func whereCommand(_ path: String, _ options: Options) throws -> ExitCode {
        let profile: ModelProfile
        do {
            let catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
            profile = try options.modelProfile.map { try catalog.profile(named: $0, contextWindow: options.window) } ?? catalog.defaultProfile()
        } catch let error as ProfileError {
            throw CommandFailure(error.description)  // probe has always ended an unknown profile with 1
        }
        let window = options.window ?? profile.contextWindow
        let budget = TokenBudget(profile: profile, reserve: options.reserve, window: window)
        let reserve = budget.reserve
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try data.withUnsafeBytes { raw in
            try FitReport.measure(
                utf8: raw.bindMemory(to: UInt8.self), tokenizer: try profile.tokenizer.load(),
                budget: budget, estimate: profile.estimate)
        }
        let approx = profile.isEstimate ? "≈" : ""
        if options.json {
            let overflow = report.firstTokenPast.map { p in
                ProbeReportFormat.object([
                    "byteOffset": .int(p.position.byteOffset), "characterOffset": .int(p.position.characterOffset),
                    "column": .int(p.position.column), "line": .int(p.position.line), "token": .int(p.token)
                ])
            }
            print(
                ProbeReportFormat.object([
                    "estimate": .bool(profile.isEstimate), "file": .string(path), "fits": .bool(report.fits),
                    "overflow": overflow, "overhead": .int(budget.requestOverhead), "profile": .string(profile.name),
                    "reserve": .int(reserve), "textTokens": .int(report.textTokens), "window": .int(window)
                ]).rendered())
        } else {
            print(
                "\(path): \(approx)\(NumberFormat.grouped(report.textTokens)) tokens of text; window \(NumberFormat.grouped(window)) − \(budget.requestOverhead) per request − \(reserve) reserve (\(budget.reserveSource)) = \(approx)\(NumberFormat.grouped(budget.available)) for text (\(profile.name))"
            )
            if let p = report.firstTokenPast {
                print(
                    "crosses the window at token \(approx)\(NumberFormat.grouped(p.token)): line \(p.position.line), column \(p.position.column) (byte \(NumberFormat.grouped(p.position.byteOffset)), character \(NumberFormat.grouped(p.position.characterOffset)))"
                )
                print(
                    "fits: the first \(NumberFormat.grouped(p.position.characterOffset)) characters (\(NumberFormat.percent(p.position.byteOffset, of: max(data.count, 1))) of the bytes)"
                )
            } else {
                print("fits, with \(approx)\(NumberFormat.grouped(report.spare)) tokens to spare")
            }
            if let e = profile.estimate { print("≈ \(e.method)") }
        }
        return report.fits ? .ok : .overflow
    }

    private static func serverCommand(_ url: URL, _ options: Options) async throws -> ExitCode {
        let apiKey = ServerEnvironment.apiKey(given: options.apiKey)
        try await ServerProfile.requireReachable(url, apiKey: apiKey)
        let client = OpenAICompatibleClient(baseURL: url, apiKey: apiKey)
        let predictor = try options.gguf.map { try PromptPredictor(gguf: URL(fileURLWithPath: $0)) }
        let explicitWindow = options.window
        let probe = OverflowProbe(client: client, predictor: predictor, model: options.model)
        let window: Int?
        if let explicitWindow { window = explicitWindow } else { window = await client.contextWindow(model: options.model) }
        let result = await probe.run(window: window)
        if options.json {
            print(ProbeReportFormat.json(result, url: url.absoluteString, window: window))
        } else {
            print(ProbeReportFormat.table(result, url: url.absoluteString, window: window))
        }
        if let path = options.writeProfile {
            try ProbeReportFormat.profileJSON(result, url: url.absoluteString, window: window, gguf: options.gguf)
                .write(to: URL(fileURLWithPath: path))
            FileHandle.standardError.write(Data("wrote \(path)\n".utf8))
        }
        return result.measurements.allSatisfy({ $0.measured == nil }) ? .inputFailed : .ok
    }
}
