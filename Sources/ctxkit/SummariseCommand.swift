import ContextKit
import ContextKitServing
import Foundation
import Render
import Summariser
import SummariserServing
import ToolSupport

/// `ctxkit summarise`: a long text to one typed summary (a headline and three
/// points) through the summariser engine, with the built-in extractive
/// backend or an OpenAI-compatible server.
enum SummariseCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var backend: Backend?
        var url: URL?
        var serverModel: String?
        var apiKey: String?
        var model: String?
        var gguf: String?
        var profiles: [String] = []
        var reserve: Int?
        var greedy = false
        var topK: Int?
        var topP: Double?
        var temperature: Double?
        var seed: UInt64?
        var timeout: Double?
        var stream = false
        var json = false
        var stats = false
        var noCache = false

        static var declarations: [OptionDeclaration<Self>] {
            [
                .choice("backend", short: "b", value: "NAME", help: "extractive (default: built in, no model needed) or openai (an OpenAI-compatible server at --url).", \.backend),
                .option("url", value: "URL", help: "With --backend openai: the server's base URL (default: $OPENAI_BASE_URL, else http://127.0.0.1:8080).", \.url, .serverURL),
                .option("server-model", value: "NAME", help: "With --backend openai: the request's \"model\" field (default: none, which llama-server accepts).", \.serverModel),
                .option("api-key", value: "KEY", help: "With --backend openai: the bearer token (default: $OPENAI_API_KEY).", \.apiKey),
                .option(
                    "model", short: "m", value: "PROFILE",
                    help:
                        "Model profile: tokenizer, window and overheads used to plan (default: the catalog's default). The window is the backend's when it reports a smaller one (the extractive backend: 4,096, like Apple's on-device model).",
                    \.model),
                .option(
                    "gguf", value: "FILE",
                    help:
                        "With --backend openai: the server's model file, to plan with its exact tokenizer and chat template (default: the path the server reports, when readable here).",
                    \.gguf),
                .repeated("profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable).", \.profiles),
                .option(
                    "reserve", short: "r", value: "N",
                    help: "Tokens kept for each answer, also its token limit (default: the profile's, else 512 but at most a quarter of the window, as ctxkit plan).", \.reserve,
                    .tokens(minimum: 16)),
                .flag("greedy", help: "Greedy sampling: the same text gives the same answer.", \.greedy),
                .option("top-k", value: "K", help: "Sample among the K most likely tokens.", \.topK, .integer(minimum: 1)),
                .option("top-p", value: "P", help: "Sample among the most likely tokens up to probability P (0–1).", \.topP, .number(in: 0...1)),
                .option("temperature", value: "T", help: "Sampling temperature.", \.temperature, .number(in: 0...100)),
                .option("seed", value: "N", help: "Fix the sampling seed (reproducible runs, for tests and benchmarks).", \.seed, .unsigned),
                .option(
                    "timeout", value: "SECONDS",
                    help: "With --backend openai: seconds one answer may take, including the silence while a local server reads a long prompt (default: 600).", \.timeout,
                    .number(in: 1...86_400)),
                .flag("stream", help: "Print the summary as it forms, and each call's progress on standard error.", \.stream),
                .flag("json", help: "Print one JSON document: the summary, the plan of every level, every call's metrics and the totals.", \.json),
                .flag("stats", help: "After the summary, print every call's time to first token, total time, characters per second and tokens, and the totals.", \.stats),
                .flag(
                    "no-cache",
                    help:
                        "Neither read nor write the summary cache (by default a plain summary of the same text with the same backend, model, profile, instructions, schema and sampling is printed from the cache; --json, --stats and --stream always run, and refresh it).",
                    \.noCache)
            ]
        }
    }

    /// `--backend`: who writes the summaries.
    enum Backend: String, CaseIterable {
        case extractive, openai
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit summarise",
        usage: ["FILE|- [--backend extractive|openai] [--url URL] [--server-model NAME] [-m PROFILE] [--json|--stream] [--stats]"],
        summary:
            "Summarises a text of any length into a headline and three points. The text is cut with the chunk planner to fit the model's window (less instructions, output schema and answer), each chunk is summarised in a fresh session, and the summaries are combined until one call holds them all. Answers that copy the text are retried once; a context overflow reported by the backend replans with the backend's own count. The default backend is extractive (the text's most central sentences, offline and deterministic); --backend openai uses any OpenAI-compatible server (llama.cpp's llama-server, vLLM, Ollama, LM Studio, OpenAI).",
        epilog: """
            Times are from a monotonic clock; the first token is the first non-empty
            content. Tokens sent and received are the server's counts when it reports
            them (marked r in --stats), else the profile's. With --backend openai and no
            -m, the plan is made for the model the server runs: its GGUF (--gguf, or the
            path llama.cpp's /props reports when it is readable here) gives the exact
            tokenizer, chat template and the server's window, and every call is counted
            exactly before it is sent; a llama.cpp server whose file is elsewhere counts
            each call itself (/apply-template, /tokenize). After a run against a server,
            the measured latency is saved for 'ctxkit plan' under
            ${XDG_STATE_HOME:-~/.local/state}/contextkit/latency/<profile>.json.

            Summaries are kept, keyed by a SHA-256 of the text and of everything that
            changes the answer, under ${CONTEXTKIT_CACHE:-${XDG_CACHE_HOME:-~/.cache}/contextkit}/summaries
            (--no-cache neither reads nor writes it).

            Exit status: 0 summarised, 1 the file could not be read, is not UTF-8 text or
            the backend failed (the message says why and what to do), 2 usage error,
            5 the server at --url could not be reached, 130 interrupted.
            """
    )

    static func run(_ arguments: [String]) async -> ExitCode {
        await CommandRunner.run(spec, arguments) { options in
            try await Job(options: options).run()
        }
    }

    /// What the command line asked for, resolved.
    struct Job {
        let path: String
        let text: String
        let profile: ModelProfile
        /// The profile was named with -m, not taken by default.
        let explicitProfile: Bool
        /// Where the profile came from, when it was chosen for the server (`ServerProfile`).
        let profileSource: String?
        let backend: any LanguageModelBackend
        let engine: SummaryEngine
        let json: Bool
        let stream: Bool
        let stats: Bool
        /// Where summaries are looked up and kept; nil with --no-cache.
        let cache: SummaryCache?

        init(options: Options) async throws {
            guard options.positionals.count == 1, let path = options.positionals.first else {
                throw UsageError(tool: spec.name, options.positionals.isEmpty ? "give the text file to summarise (or - for standard input)" : "give one file at a time")
            }
            if options.json && options.stream {
                throw UsageError(tool: spec.name, "--stream prints text as it forms and --json one document at the end; choose one")
            }
            let isOpenAI = options.backend == .openai
            let serverOnly: [(given: Bool, field: PartialKeyPath<Options>)] = [
                (options.url != nil, \.url), (options.serverModel != nil, \.serverModel), (options.apiKey != nil, \.apiKey), (options.timeout != nil, \.timeout),
                (options.gguf != nil, \.gguf)
            ]
            for option in serverOnly where option.given && !isOpenAI {
                throw UsageError(tool: spec.name, "\(Options.spelling(of: option.field)) is for --backend openai")
            }
            self.path = path
            json = options.json
            stream = options.stream
            stats = options.stats
            cache = options.noCache ? nil : SummaryCache.standard()

            if options.gguf != nil && options.model != nil {
                throw UsageError(tool: spec.name, "--gguf gives the profile; it cannot be combined with -m")
            }
            let catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
            let profile = try options.model.map { try catalog.profile(named: $0) } ?? catalog.defaultProfile()
            explicitProfile = options.model != nil || options.gguf != nil
            let sampling: SamplingOptions
            do {
                sampling = try SamplingOptions(greedy: options.greedy, topK: options.topK, topP: options.topP, temperature: options.temperature, seed: options.seed)
            } catch {
                throw UsageError(tool: spec.name, "choose one of --greedy, --top-k and --top-p")
            }
            let choice: SummariserSetup.Backend
            if isOpenAI {
                let url = try ServerEnvironment.baseURL(given: options.url, tool: spec.name)
                let apiKey = ServerEnvironment.apiKey(given: options.apiKey)
                try await ServerProfile.requireReachable(url, apiKey: apiKey)
                var server = SummariserSetup.Server(baseURL: url)
                server.model = options.serverModel
                server.apiKey = apiKey
                server.gguf = options.gguf
                if let timeout = options.timeout { server.timeout = timeout }
                choice = .openAICompatible(server)
            } else {
                choice = .extractive
            }
            // Without -m the server's own model may replace the catalog's default (SummariserSetup.Profile.fallback).
            let setup = try await ServerProfile.reportingFailures {
                try await SummariserSetup.make(
                    backend: choice, profile: options.model == nil ? .fallback(profile) : .named(profile),
                    responseReserve: options.reserve, sampling: sampling)
            }
            self.backend = setup.backend
            self.profile = setup.profile
            profileSource = setup.profileSource?.text
            text = String(decoding: try TextFile.read(path), as: UTF8.self)
            engine = try setup.engine()
        }

        /// Runs the engine on a task of its own; Ctrl-C cancels it.
        func run() async -> ExitCode {
            let terminal = Terminal()
            let display = LiveDisplay(stream: stream, progress: !stream && !json && terminal.stderrIsTerminal, columns: terminal.stderrColumns)
            let interruption = Interruption()
            let engine = self.engine, text = self.text
            let key = engine.cacheKey(for: text)
            // Only a plain summary comes from the cache: --json, --stats and --stream report a run's calls.
            if let cache, !json, !stats, !stream, let hit = cache.summary(for: key) {
                Output.out(hit.text + "\n")
                return .ok
            }
            let task = Task.detached { try await engine.summarise(text) { display.handle($0) } }
            signal(SIGINT, SIG_IGN)
            let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            interrupt.setEventHandler {
                interruption.happened = true
                task.cancel()
            }
            interrupt.resume()
            let result = await task.result
            interrupt.cancel()
            display.finish()

            switch result {
            case .success(let run):
                cache?.store(run.summary, for: key)
                let report = Report(job: self, run: run)
                if json {
                    Output.out(report.json().rendered() + "\n")
                } else {
                    if stream { display.complete(run.summary.text) } else { Output.out(run.summary.text + "\n") }
                    if stats { Output.out("\n" + report.statsText()) }
                    for copy in run.copies {
                        Output.err("ctxkit summarise: warning: call \(copy.call + 1) copied its input (\"\(copy.phrase)\") on both tries; its answer was kept\n")
                    }
                }
                report.saveLatency()
                return .ok
            case .failure(let error):
                if interruption.happened {
                    Output.err("ctxkit summarise: interrupted\n")
                    return .interrupted
                }
                Output.err("ctxkit summarise: \(error)\n")
                return .inputFailed
            }
        }
    }

    /// Whether Ctrl-C stopped the run: set by the signal handler, read once the engine's task has ended.
    final class Interruption: @unchecked Sendable {
        private let lock = NSLock()
        private var _happened = false

        var happened: Bool {
            get { lock.withLock { _happened } }
            set { lock.withLock { _happened = newValue } }
        }
    }
}

extension SummariseCommand {
    /// What the user sees while the engine runs: with `--stream`, the final
    /// summary as it forms on standard output and one line per call on
    /// standard error; otherwise a progress bar when standard error is a terminal.
    final class LiveDisplay: @unchecked Sendable {
        private let lock = NSLock()
        private let stream: Bool
        private let bar: ProgressBar
        /// The part of the final summary already printed.
        private var printed = ""
        /// The final call's snapshots stopped growing as a prefix (a model that
        /// wrote the points before the headline); the rest is printed at the end.
        private var diverged = false
        private var finalCall: Int?
        private var plannedCalls: [Int: Int] = [:]

        init(stream: Bool, progress: Bool, columns: Int) {
            self.stream = stream
            self.bar = ProgressBar(total: 0, enabled: progress, columns: columns)
        }

        func handle(_ event: SummaryEngine.Event) {
            lock.withLock {
                switch event {
                case .planned(let level):
                    // A replanned level is announced again: count only the calls it adds.
                    bar.expect(level.plan.chunks.count - (plannedCalls[level.level] ?? 0))
                    plannedCalls[level.level] = level.plan.chunks.count
                    if stream {
                        Output.err(
                            "level \(level.level) (\(level.stage.rawValue)): \(level.plan.chunks.count) call\(level.plan.chunks.count == 1 ? "" : "s"), room \(NumberFormat.grouped(level.plan.budget.room)) tokens each\n"
                        )
                    }
                case let .callStarted(call, isFinal):
                    bar.setLabel("\(call.stage.rawValue) level \(call.level) part \(call.part + 1)")
                    if isFinal {
                        if finalCall != nil, !printed.isEmpty {
                            Output.out("\n")  // a retried final call starts over on a new line
                        }
                        finalCall = call.index
                        printed = ""
                        diverged = false
                    }
                case let .snapshot(call, isFinal, partial):
                    guard stream, isFinal, call == finalCall, !diverged else { return }
                    let text = partial.text
                    if text.hasPrefix(printed) {
                        Output.out(String(text.dropFirst(printed.count)))
                        printed = text
                    } else {
                        diverged = true
                    }
                case let .callFinished(call, _), let .callFailed(call, _):
                    bar.advance(1)
                    if stream {
                        let ttft = call.timeToFirstToken.map { "first token " + Report.seconds($0) + ", " } ?? ""
                        let outcome = call.failure.map { "failed: \($0)" } ?? (call.copied ? "copied its input" : "ok")
                        Output.err("  call \(call.index + 1) \(call.stage.rawValue) \(call.level).\(call.part + 1): \(ttft)total \(Report.seconds(call.totalTime)), \(outcome)\n")
                    }
                case let .copyDetected(_, phrase, willRetry):
                    if stream { Output.err("  copy detected (\"\(phrase)\")\(willRetry ? "; retrying in a fresh session" : "")\n") }
                case .replanned(let replan):
                    if stream {
                        let reported = replan.reportedTokens.map { "the backend counted \(NumberFormat.grouped($0))" } ?? "the backend gave no count"
                        Output.err(
                            "  context overflow (planned \(NumberFormat.grouped(replan.plannedTokens)), \(reported)): room \(NumberFormat.grouped(replan.roomBefore)) → \(NumberFormat.grouped(replan.roomAfter)), replanning\n"
                        )
                    }
                }
            }
        }

        func finish() { bar.finish() }

        /// Ends the streamed summary with what was not printed yet.
        func complete(_ text: String) {
            lock.withLock {
                if text.hasPrefix(printed) && !diverged {
                    Output.out(String(text.dropFirst(printed.count)) + "\n")
                } else {
                    Output.out((printed.isEmpty ? "" : "\n") + text + "\n")
                }
                printed = text
            }
        }
    }
}
