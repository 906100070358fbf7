import ContextKit
import Foundation
import Summariser
import ToolSupport

/// `ctxkit summarise`: a long text to one typed summary (a headline and three
/// points) through the summariser engine, with the built-in extractive
/// backend or an OpenAI-compatible server.
enum SummariseCommand {
    static let spec = CommandSpec(
        name: "ctxkit summarise",
        version: ToolVersion.string,
        usage: ["FILE|- [--backend extractive|openai] [--url URL] [--server-model NAME] [-m PROFILE] [--json|--stream] [--stats]"],
        summary: "Summarises a text of any length into a headline and three points. The text is cut with the chunk planner to fit the model's window (less instructions, output schema and answer), each chunk is summarised in a fresh session, and the summaries are combined until one call holds them all. Answers that copy the text are retried once; a context overflow reported by the backend replans with the backend's own count. The default backend is extractive (the text's most central sentences, offline and deterministic); --backend openai uses any OpenAI-compatible server (llama.cpp's llama-server, vLLM, Ollama, LM Studio, OpenAI).",
        options: [
            OptionSpec("b", "backend", value: "NAME", choices: ["extractive", "openai"], help: "extractive (default: built in, no model needed) or openai (an OpenAI-compatible server at --url)."),
            OptionSpec(nil, "url", value: "URL", help: "With --backend openai: the server's base URL (default: $OPENAI_BASE_URL, else http://127.0.0.1:8080)."),
            OptionSpec(nil, "server-model", value: "NAME", help: "With --backend openai: the request's \"model\" field (default: none, which llama-server accepts)."),
            OptionSpec(nil, "api-key", value: "KEY", help: "With --backend openai: the bearer token (default: $OPENAI_API_KEY)."),
            OptionSpec("m", "model", value: "PROFILE", help: "Model profile: tokenizer, window and overheads used to plan (default: the catalog's default). The window is the backend's when it reports a smaller one (the extractive backend: 4,096, like Apple's on-device model)."),
            OptionSpec(nil, "profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable)."),
            OptionSpec("r", "reserve", value: "N", help: "Tokens kept for each answer, also its token limit (default: the profile's, else 512 but at most a quarter of the window, as ctxkit plan)."),
            OptionSpec(nil, "greedy", help: "Greedy sampling: the same text gives the same answer."),
            OptionSpec(nil, "top-k", value: "K", help: "Sample among the K most likely tokens."),
            OptionSpec(nil, "top-p", value: "P", help: "Sample among the most likely tokens up to probability P (0–1)."),
            OptionSpec(nil, "temperature", value: "T", help: "Sampling temperature."),
            OptionSpec(nil, "seed", value: "N", help: "Fix the sampling seed (reproducible runs, for tests and benchmarks)."),
            OptionSpec(nil, "timeout", value: "SECONDS", help: "With --backend openai: seconds one answer may take, including the silence while a local server reads a long prompt (default: 600)."),
            OptionSpec(nil, "stream", help: "Print the summary as it forms, and each call's progress on standard error."),
            OptionSpec(nil, "json", help: "Print one JSON document: the summary, the plan of every level, every call's metrics and the totals."),
            OptionSpec(nil, "stats", help: "After the summary, print every call's time to first token, total time, characters per second and tokens, and the totals."),
        ],
        epilog: """
        Times are from a monotonic clock; the first token is the first non-empty
        content. Tokens sent and received are the server's counts when it reports
        them (marked r in --stats), else the profile's. After a run against a server,
        the measured latency is saved for 'ctxkit plan' under
        ${XDG_STATE_HOME:-~/.local/state}/contextkit/latency/<profile>.json.

        Exit status: 0 summarised, 1 the file could not be read or the backend
        failed (the message says why and what to do), 2 usage error, 130 interrupted.
        """
    )

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let args = try spec.parse(arguments)
            if let information = spec.informationRequested(in: args) { Output.out(information); return ExitCode.ok.rawValue }
            let job = try Job(args: args)
            return job.run()
        } catch let error as UsageError {
            Output.err(error.description + "\n")
            return ExitCode.usage.rawValue
        } catch let error as ProfileError {
            Output.err("ctxkit summarise: \(error)\n")
            if case .unknownProfile = error { return ExitCode.usage.rawValue }
            return ExitCode.inputFailed.rawValue
        } catch {
            Output.err("ctxkit summarise: \(error)\n")
            return ExitCode.inputFailed.rawValue
        }
    }

    /// What the command line asked for, resolved.
    struct Job {
        let path: String
        let text: String
        let profile: ModelProfile
        /// The profile was named with -m, not taken by default.
        let explicitProfile: Bool
        let backend: any LanguageModelBackend
        let engine: SummaryEngine
        let json: Bool
        let stream: Bool
        let stats: Bool

        init(args: ParsedArguments) throws {
            guard args.positionals.count == 1, let path = args.positionals.first else {
                throw UsageError(tool: spec.name, args.positionals.isEmpty ? "give the text file to summarise (or - for standard input)" : "give one file at a time")
            }
            if args.has("json") && args.has("stream") {
                throw UsageError(tool: spec.name, "--stream prints text as it forms and --json one document at the end; choose one")
            }
            let isOpenAI = args.value("backend") == "openai"
            for option in ["url", "server-model", "api-key", "timeout"] where args.has(option) && !isOpenAI {
                throw UsageError(tool: spec.name, "--\(option) is for --backend openai")
            }
            self.path = path
            json = args.has("json")
            stream = args.has("stream")
            stats = args.has("stats")

            let catalog = try ProfileCatalog.standard(extraFiles: args.values("profiles"))
            profile = try args.value("model").map { try catalog.profile(named: $0) } ?? catalog.defaultProfile()
            explicitProfile = args.has("model")

            var options = SamplingOptions()
            let modes = ["greedy", "top-k", "top-p"].filter(args.has)
            if modes.count > 1 { throw UsageError(tool: spec.name, "choose one of --greedy, --top-k and --top-p") }
            if args.has("greedy") { options.mode = .greedy }
            if let k = try args.integer("top-k", minimum: 1) { options.mode = .topK(k) }
            if let p = try Self.number(args, "top-p", in: 0...1) { options.mode = .probabilityThreshold(p) }
            options.temperature = try Self.number(args, "temperature", in: 0...100)
            if let seed = args.value("seed") {
                guard let value = UInt64(seed.filter { $0 != "," && $0 != "_" }) else {
                    throw UsageError(tool: spec.name, "--seed wants a whole number of at least 0, not '\(seed)'")
                }
                options.seed = value
            }

            if isOpenAI {
                let environment = ProcessInfo.processInfo.environment
                let urlText = args.value("url") ?? environment["OPENAI_BASE_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "http://127.0.0.1:8080"
                guard let url = URL(string: urlText), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                    throw UsageError(tool: spec.name, "--url wants an http:// or https:// URL, not '\(urlText)'")
                }
                let timeout = try Self.number(args, "timeout", in: 1...86_400) ?? 600
                backend = OpenAICompatibleBackend(configuration: .init(
                    baseURL: url, model: args.value("server-model"),
                    apiKey: args.value("api-key") ?? environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 },
                    requestTimeout: timeout, totalTimeout: timeout))
            } else {
                backend = ExtractiveBackend()
            }
            text = try Self.read(path)
            let configuration = SummaryEngine.Configuration(profile: profile, responseReserve: try args.integer("reserve", minimum: 16),
                                                            options: options)
            engine = try SummaryEngine(backend: backend, configuration: configuration)
        }

        static func read(_ path: String) throws -> String {
            let data: Data
            if path == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw InputError(message: "\(path): no such file") }
                guard !isDirectory.boolValue else { throw InputError(message: "\(path): is a folder; give one text file") }
                guard let contents = FileManager.default.contents(atPath: path) else { throw InputError(message: "\(path): cannot be read (permissions?)") }
                data = contents
            }
            guard let text = String(data: data, encoding: .utf8) else { throw InputError(message: "\(path): is not UTF-8 text") }
            return text
        }

        static func number(_ args: ParsedArguments, _ name: String, in range: ClosedRange<Double>) throws -> Double? {
            guard let text = args.value(name) else { return nil }
            guard let value = Double(text), range.contains(value) else {
                throw UsageError(tool: spec.name, "--\(name) wants a number from \(NumberFormat.decimal(range.lowerBound)) to \(NumberFormat.decimal(range.upperBound)), not '\(text)'")
            }
            return value
        }

        /// Runs the engine on a task of its own; Ctrl-C cancels it.
        func run() -> Int32 {
            let terminal = Terminal()
            let display = LiveDisplay(stream: stream, progress: !stream && !json && terminal.stderrIsTerminal, columns: terminal.stderrColumns)
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            let engine = self.engine, text = self.text
            let task = Task.detached {
                do {
                    outcome.result = .success(try await engine.summarise(text) { display.handle($0) })
                } catch {
                    outcome.result = .failure(error)
                }
                done.signal()
            }
            signal(SIGINT, SIG_IGN)
            let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            interrupt.setEventHandler {
                outcome.interrupted = true
                task.cancel()
            }
            interrupt.resume()
            done.wait()
            interrupt.cancel()
            display.finish()

            switch outcome.result {
            case .success(let run)?:
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
                return ExitCode.ok.rawValue
            case .failure(let error)?:
                if outcome.interrupted {
                    Output.err("ctxkit summarise: interrupted\n")
                    return 130
                }
                Output.err("ctxkit summarise: \(error)\n")
                return ExitCode.inputFailed.rawValue
            case nil:
                return ExitCode.inputFailed.rawValue
            }
        }
    }

    /// The run's result, handed from the engine's task to the waiting main thread.
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var _result: Result<SummaryRun, any Error>?
        private var _interrupted = false

        var result: Result<SummaryRun, any Error>? {
            get { lock.withLock { _result } }
            set { lock.withLock { _result = newValue } }
        }

        var interrupted: Bool {
            get { lock.withLock { _interrupted } }
            set { lock.withLock { _interrupted = newValue } }
        }
    }

    /// A file or option value the command could not use.
    struct InputError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
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
                        Output.err("level \(level.level) (\(level.stage.rawValue)): \(level.plan.chunks.count) call\(level.plan.chunks.count == 1 ? "" : "s"), room \(NumberFormat.grouped(level.plan.budget.room)) tokens each\n")
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
                        Output.err("  context overflow (planned \(NumberFormat.grouped(replan.plannedTokens)), \(reported)): room \(NumberFormat.grouped(replan.roomBefore)) → \(NumberFormat.grouped(replan.roomAfter)), replanning\n")
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
