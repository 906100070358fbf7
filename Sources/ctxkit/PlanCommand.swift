import ContextKit
import ContextKitJSON
import Foundation
import ToolSupport

/// `ctxkit plan`: how a text is cut to fit a model, and what summarising it
/// will cost — before any summarising code is written.
enum PlanCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var model: String?
        var url: URL?
        var gguf: String?
        var profiles: [String] = []
        var instructions: String?
        var schema: String?
        var runtime: SchemaRuntime?
        var reserve: Int?
        var overlap: Int?
        var summaryTokens: Int?
        var noMarkdown = false
        var sourceFrame = false
        var latency: String?
        var cold: Double?
        var warm: Double?
        var charactersPerSecond: Double?
        var idle: Double?
        var concurrency: Int?
        var all = false
        var json = false

        static var declarations: [OptionDeclaration<Self>] {
            [
                .option(
                    "model", short: "m", value: "PROFILE",
                    help:
                        "Model profile: window, tokenizer and overheads (default: the catalog's default). Profiles whose tokenizer is not public (apple-on-device) give estimates, marked ≈.",
                    \.model),
                .option(
                    "url", value: "URL",
                    help:
                        "Plan for the model an OpenAI-compatible server runs, as ctxkit summarise --backend openai --url does: its window, and with llama.cpp its model file's tokenizer and template when readable here ($OPENAI_API_KEY is sent if set).",
                    \.url, .serverURL),
                .option("gguf", value: "FILE", help: "With --url: the server's model file (default: the path the server reports). Without --url, give the file with -m.", \.gguf),
                .repeated("profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable).", \.profiles),
                .option(
                    "instructions", short: "i", value: "TEXT|FILE", help: "The instructions sent with every call: a file if one exists at that path, else the text itself.",
                    \.instructions),
                .option(
                    "schema", value: "FILE",
                    help:
                        "Output schema (JSON Schema, Apple GenerationSchema JSON, response_format, or a Swift @Generable file), priced as schema-cost prices it; it also sets the expected summary size.",
                    \.schema),
                .choice("runtime", value: "KIND", help: "How the schema reaches the model: apple, openai, grammar or json (default: from the profile).", \.runtime),
                .option(
                    "reserve", short: "r", value: "N", help: "Tokens kept free for the answer (default: the profile's, else 512 but at most a quarter of the window).", \.reserve,
                    .tokens()),
                .option("overlap", value: "N", help: "Repeat up to N tokens from the end of each chunk at the start of the next (default 0).", \.overlap, .tokens()),
                .option(
                    "summary-tokens", value: "N",
                    help: "Expected tokens of one summary, for the reduce steps (default: from the schema, at most the reserve; without a schema, the reserve).", \.summaryTokens,
                    .tokens(minimum: 1)),
                .flag(
                    "source-frame",
                    help:
                        "Price the two marker lines ctxkit summarise sends around each chunk to mark it as data, not instructions ([BEGIN SOURCE TEXT] … [END SOURCE TEXT]), as it does.",
                    \.sourceFrame),
                .flag("no-markdown", help: "Treat '#' lines and underlined lines as plain lines, not section headings.", \.noMarkdown),
                .option("latency", value: "FILE", help: "Latency figures (JSON, as the summariser saves them) instead of the measured or field-notes ones.", \.latency),
                .option("cold", value: "SECONDS", help: "Seconds to the first token of the first call (field notes: 1.15).", \.cold, .nonNegative),
                .option("warm", value: "SECONDS", help: "Seconds to the first token of later calls (field notes: 0.383).", \.warm, .nonNegative),
                .option("chars-per-second", value: "N", help: "Characters of output per second (field notes: 345).", \.charactersPerSecond, .nonNegative),
                .option(
                    "idle", value: "SECONDS", help: "Idle seconds between calls; adds the field notes' idle penalty to each first token (default 0: back to back).", \.idle,
                    .nonNegative),
                .option("concurrency", value: "N", help: "Calls of one level run N at a time (default 1, as on a phone).", \.concurrency, .integer(minimum: 1)),
                .flag("all", help: "List every chunk (by default a long list shows its first and last rows).", \.all),
                .flag("json", help: "Print one JSON document: budget parts, text, chunks (offsets in bytes and characters), the plan tree and the time estimate.", \.json)
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit plan",
        usage: ["FILE|- [-m PROFILE] [--instructions TEXT|FILE] [--schema FILE] [--reserve N] [--overlap N] [OPTIONS]"],
        summary:
            "Shows where a model's window goes (overhead, instructions, output schema, answer reserve), cuts the text into chunks that each fit one request — at the most meaningful places (Markdown sections, paragraphs, lines, sentences, words, never inside a character) that keep the number of chunks minimal, every chunk counted exactly as it will be sent — and plans the map-reduce calls that summarise it: map calls, reduce levels, tokens sent and an estimated time.",
        epilog: """
            Characters are Unicode scalars, as in every ContextKit tool. Fill is a chunk's
            tokens over the room for text. In the JSON, chunk indices and call inputs count
            from 1, as in the table. The time is an estimate from a latency model:
            the field notes' figures for Apple's on-device model on one phone, or what the
            summariser measured on your backend (saved per profile under
            ${XDG_STATE_HOME:-~/.local/state}/contextkit/latency/), or your overrides.

            Exit status: 0 planned, 1 the file could not be read, is not UTF-8 text or the
            text cannot be planned (the message says why), 2 usage error, 5 the server
            at --url could not be reached.
            """
    )

    static func run(_ arguments: [String]) async -> ExitCode {
        await CommandRunner.run(spec, arguments) { options in
            guard options.positionals.count == 1, let path = options.positionals.first else {
                throw UsageError(tool: spec.name, options.positionals.isEmpty ? "give the text file to plan (or - for standard input)" : "give one file at a time")
            }
            let job = try await Job(options: options, path: path)
            let report = try job.plan()
            Output.out(options.json ? report.json().rendered() + "\n" : report.text(listAll: options.all))
            if case let .failure(error) = report.callPlan {
                Output.err("ctxkit plan: \(error)\n")
                return .inputFailed
            }
            return .ok
        }
    }
}
