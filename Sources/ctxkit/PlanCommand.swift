import ContextKit
import ContextKitJSON
import ContextKitServing
import Foundation
import Render
import Summariser
import ToolSupport

/// `ctxkit plan`: how a text is cut to fit a model, and what summarising it
/// will cost — before any summarising code is written.
enum PlanCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var model: String?
        var url: String?
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
                .option("model", short: "m", value: "PROFILE", help: "Model profile: window, tokenizer and overheads (default: the catalog's default). Profiles whose tokenizer is not public (apple-on-device) give estimates, marked ≈.", \.model),
                .option("url", value: "URL", help: "Plan for the model an OpenAI-compatible server runs, as ctxkit summarise --backend openai --url does: its window, and with llama.cpp its model file's tokenizer and template when readable here ($OPENAI_API_KEY is sent if set).", \.url),
                .option("gguf", value: "FILE", help: "With --url: the server's model file (default: the path the server reports). Without --url, give the file with -m.", \.gguf),
                .repeated("profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable).", \.profiles),
                .option("instructions", short: "i", value: "TEXT|FILE", help: "The instructions sent with every call: a file if one exists at that path, else the text itself.", \.instructions),
                .option("schema", value: "FILE", help: "Output schema (JSON Schema, Apple GenerationSchema JSON, response_format, or a Swift @Generable file), priced as schema-cost prices it; it also sets the expected summary size.", \.schema),
                .choice("runtime", value: "KIND", help: "How the schema reaches the model: apple, openai, grammar or json (default: from the profile).", \.runtime),
                .option("reserve", short: "r", value: "N", help: "Tokens kept free for the answer (default: the profile's, else 512 but at most a quarter of the window).", \.reserve, .tokens()),
                .option("overlap", value: "N", help: "Repeat up to N tokens from the end of each chunk at the start of the next (default 0).", \.overlap, .tokens()),
                .option("summary-tokens", value: "N", help: "Expected tokens of one summary, for the reduce steps (default: from the schema, at most the reserve; without a schema, the reserve).", \.summaryTokens, .tokens(minimum: 1)),
                .flag("source-frame", help: "Price the two marker lines ctxkit summarise sends around each chunk to mark it as data, not instructions ([BEGIN SOURCE TEXT] … [END SOURCE TEXT]), as it does.", \.sourceFrame),
                .flag("no-markdown", help: "Treat '#' lines and underlined lines as plain lines, not section headings.", \.noMarkdown),
                .option("latency", value: "FILE", help: "Latency figures (JSON, as the summariser saves them) instead of the measured or field-notes ones.", \.latency),
                .option("cold", value: "SECONDS", help: "Seconds to the first token of the first call (field notes: 1.15).", \.cold, .nonNegative),
                .option("warm", value: "SECONDS", help: "Seconds to the first token of later calls (field notes: 0.383).", \.warm, .nonNegative),
                .option("chars-per-second", value: "N", help: "Characters of output per second (field notes: 345).", \.charactersPerSecond, .nonNegative),
                .option("idle", value: "SECONDS", help: "Idle seconds between calls; adds the field notes' idle penalty to each first token (default 0: back to back).", \.idle, .nonNegative),
                .option("concurrency", value: "N", help: "Calls of one level run N at a time (default 1, as on a phone).", \.concurrency, .integer(minimum: 1)),
                .flag("all", help: "List every chunk (by default a long list shows its first and last rows).", \.all),
                .flag("json", help: "Print one JSON document: budget parts, text, chunks (offsets in bytes and characters), the plan tree and the time estimate.", \.json),
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit plan",
        usage: ["FILE|- [-m PROFILE] [--instructions TEXT|FILE] [--schema FILE] [--reserve N] [--overlap N] [OPTIONS]"],
        summary: "Shows where a model's window goes (overhead, instructions, output schema, answer reserve), cuts the text into chunks that each fit one request — at the most meaningful places (Markdown sections, paragraphs, lines, sentences, words, never inside a character) that keep the number of chunks minimal, every chunk counted exactly as it will be sent — and plans the map-reduce calls that summarise it: map calls, reduce levels, tokens sent and an estimated time.",
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

    /// Everything the command line asked for, resolved.
    struct Job {
        let path: String
        let profile: ModelProfile
        /// Where the profile came from, when it was chosen for a server (`ServerProfile`).
        let profileSource: String?
        let planner: ChunkPlanner
        let text: [UInt8]
        let instructions: (text: String, label: String)?
        let schema: (document: SchemaDocument, label: String)?
        let runtime: SchemaRuntime?
        let reserve: Int?
        let overlap: Int
        let summaryTokens: Int?
        let latency: LatencyModel
        let concurrency: Int
        let idle: Double
        /// The delimiters priced around each chunk (--source-frame); empty for none.
        let frame: [String]

        init(options: Options, path: String) async throws {
            self.path = path
            let catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
            if options.gguf != nil && options.url == nil {
                throw UsageError(tool: spec.name, "--gguf is for --url (a server's model file); to plan for a model file alone, use -m FILE")
            }
            if options.url != nil && options.model != nil {
                throw UsageError(tool: spec.name, "--url picks the profile from the server; it cannot be combined with -m")
            }
            if let urlText = options.url {
                guard let url = URL(string: urlText), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                    throw UsageError(tool: spec.name, "--url wants an http:// or https:// URL, not '\(urlText)'")
                }
                let apiKey = ProcessInfo.processInfo.environment["OPENAI_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
                try await ServerProfile.requireReachable(url, apiKey: apiKey)
                let chosen = try await ServerProfile.resolveForCommand(url: url, apiKey: apiKey, serverModel: nil, gguf: options.gguf,
                                                                       fallback: { try catalog.defaultProfile() })
                profile = chosen.profile
                profileSource = chosen.source.text
            } else {
                profile = try options.model.map { try catalog.profile(named: $0) } ?? catalog.defaultProfile()
                profileSource = nil
            }
            planner = try ChunkPlanner(profile: profile, markdownHeadings: !options.noMarkdown)
            text = try TextFile.read(path)
            if let value = options.instructions {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), !isDirectory.boolValue {
                    guard let data = FileManager.default.contents(atPath: value), let content = String(data: data, encoding: .utf8) else {
                        throw CommandFailure("--instructions \(value): cannot be read as UTF-8 text")
                    }
                    instructions = (content, value)
                } else {
                    instructions = (value, "text")
                }
            } else {
                instructions = nil
            }
            if let schemaPath = options.schema {
                guard let data = FileManager.default.contents(atPath: schemaPath), let content = String(data: data, encoding: .utf8) else {
                    throw CommandFailure("--schema \(schemaPath): " + (FileManager.default.fileExists(atPath: schemaPath) ? "cannot be read as UTF-8 text" : "no such file"))
                }
                do {
                    schema = (try SchemaDocument.load(content, fileName: schemaPath), schemaPath)
                } catch {
                    throw CommandFailure("--schema \(schemaPath): \(error)")
                }
            } else {
                schema = nil
            }
            runtime = options.runtime
            reserve = options.reserve
            overlap = options.overlap ?? 0
            summaryTokens = options.summaryTokens
            concurrency = options.concurrency ?? 1
            idle = options.idle ?? 0
            frame = options.sourceFrame ? SourceFraming.standard.delimiters : []
            var latency = try options.latency.map { file in
                do { return try LatencyModel.load(contentsOf: URL(fileURLWithPath: file)) } catch {
                    throw CommandFailure("--latency \(file): \(error.localizedDescription); expected the JSON the summariser saves (coldFirstToken, warmFirstToken, outputCharactersPerSecond, idleCurve, source, measured)")
                }
            } ?? LatencyModel.load(profile: profile.name)
            var overridden: [String] = []
            if let cold = options.cold { latency.coldFirstToken = cold; overridden.append("--cold") }
            if let warm = options.warm { latency.warmFirstToken = warm; overridden.append("--warm") }
            if let rate = options.charactersPerSecond, rate > 0 { latency.outputCharactersPerSecond = rate; overridden.append("--chars-per-second") }
            if !overridden.isEmpty { latency.source += ", with \(overridden.joined(separator: " "))" }
            self.latency = latency
        }

        /// CPU seconds this thread has run: planning time that other processes on a busy machine do not inflate.
        static func threadCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }

        func plan() throws -> Report {
            let cost = RequestCost(profile: profile, tokenizer: planner.tokenizer, instructions: instructions?.text, schema: schema?.document, runtime: runtime, frame: frame)
            let budget = TokenBudget(profile: profile, cost: cost, reserve: reserve, overlap: overlap)
            let summary = SummarySize(given: summaryTokens, schema: schema?.document, reserve: budget.reserve, planner: planner)
            let started = (wall: DispatchTime.now().uptimeNanoseconds, cpu: Self.threadCPUSeconds())
            let chunks = try text.withUnsafeBufferPointer { try planner.plan(utf8: $0, budget: budget) }
            let seconds = (wall: Double(DispatchTime.now().uptimeNanoseconds - started.wall) / 1e9, cpu: Self.threadCPUSeconds() - started.cpu)
            // The chunks are worth showing even when their summaries cannot be combined.
            let calls: Result<MapReducePlan, PlanError> = Result { () throws(PlanError) in try MapReducePlan(chunks: chunks, summary: summary) }
            return Report(job: self, budget: budget, schemaFraming: cost.schemaFraming, chunks: chunks, callPlan: calls,
                          summary: summary, planningSeconds: seconds)
        }
    }
}

extension Result where Failure == PlanError {
    var errorDescription: String {
        if case let .failure(error) = self { return error.description }
        return ""
    }
}

extension PlanCommand {
    /// A finished plan and how to show it.
    struct Report {
        let job: Job
        let budget: TokenBudget
        let schemaFraming: Int
        let chunks: ChunkPlan
        let callPlan: Result<MapReducePlan, PlanError>
        let summary: SummarySize
        let planningSeconds: (wall: Double, cpu: Double)

        var approx: String { budget.isEstimate ? "≈ " : "" }

        /// Where the summary size comes from, in the command's words.
        var summarySource: String {
            switch summary.source {
            case .given: return "--summary-tokens"
            case .schema: return "expected from the schema"
            case .reserve(let suggested?): return "the reserve; the schema suggests \(suggested)"
            case .reserve(nil): return "the reserve; give --schema or --summary-tokens for a closer figure"
            }
        }

        func seconds(_ calls: MapReducePlan) -> Double {
            job.latency.seconds(for: calls, charactersPerToken: chunks.charactersPerToken ?? 4, concurrency: job.concurrency, idleBetweenCalls: job.idle)
        }

        // MARK: Text

        func text(listAll: Bool) -> String {
            let profile = job.profile
            var out = "ctxkit plan: \(job.path) for \(profile.name)\n"
            if let source = job.profileSource { out += "Profile: \(source)\n" }
            if let estimate = profile.estimate {
                out += "≈ estimated counts: \(profile.tokenizer) × \(estimate.factor), ±\(Int((estimate.errorBar * 100).rounded()))% (\(profile.name)'s tokenizer is not public)\n"
            } else {
                out += "Counts: \(profile.tokenizer), exact\n"
            }
            out += "\nBudget per call\n"
            out += budgetTable()
            out += "\n"
            guard !chunks.chunks.isEmpty else {
                return out + "Text: empty. Nothing to plan: no chunks, no calls.\n"
            }
            out += "Text: \(NumberFormat.grouped(chunks.textBytes)) bytes, \(NumberFormat.grouped(chunks.textCharacters)) characters, "
            out += "\(approx)\(NumberFormat.grouped(chunks.textTokens)) tokens"
            if budget.isEstimate { out += " (\(profile.tokenizer): \(NumberFormat.grouped(chunks.textProxyTokens)))" }
            out += " → \(chunks.chunks.count) chunk\(chunks.chunks.count == 1 ? "" : "s"), mean fill \(NumberFormat.percent(Int((chunks.meanFill * 1000).rounded()), of: 1000))\n\n"
            out += chunkTable(listAll: listAll)
            out += "\n" + planText()
            out += "\nPlanned in \(NumberFormat.decimal(planningSeconds.wall * 1000, places: 0)) ms (\(NumberFormat.decimal(planningSeconds.cpu * 1000, places: 0)) ms of CPU).\n"
            return out
        }

        func budgetTable() -> String {
            let profile = job.profile
            let perMessage = profile.overheads.perMessage
            let messages = budget.instructions > 0 ? 2 : 1
            let overheadNote = perMessage > 0
                ? "\(profile.overheads.perRequest) per request + \(perMessage) × \(messages) message\(messages == 1 ? "" : "s") (profile)"
                : "per request (profile)"
            let instructionsNote = job.instructions.map { $0.label == "text" ? "--instructions text, \($0.text.unicodeScalars.count) characters" : $0.label } ?? "none (--instructions)"
            let schemaNote = job.schema.map { "\($0.label), priced by schema-cost" + (schemaFraming > 0 ? " (\(schemaFraming) of framing)" : "") } ?? "none (--schema)"
            let reserveNote = budget.reserveSource.description
            var notes = ["\(profile.name)", overheadNote, instructionsNote, schemaNote]
            if budget.frame > 0 { notes.append("--source-frame: the marker lines around each chunk") }
            notes += [reserveNote, "tokens a chunk may hold"]
            if budget.overlap > 0 { notes += ["--overlap", "tokens of new text per chunk"] }
            let rows = zip(budget.arithmetic, notes).map { [$0.0.label, $0.0.value, $0.1] }
            return indent(Table(header: ["", "tokens", ""], alignRight: [false, true, false]).render(rows))
        }

        func chunkTable(listAll: Bool) -> String {
            let list = chunks.chunks
            var rows: [[String]] = []
            func row(_ chunk: Chunk) -> [String] {
                var cells = [
                    String(chunk.index + 1),
                    "\(NumberFormat.grouped(chunk.bytes.lowerBound))–\(NumberFormat.grouped(chunk.bytes.upperBound))",
                    "\(NumberFormat.grouped(chunk.characters.lowerBound))–\(NumberFormat.grouped(chunk.characters.upperBound))",
                    approx + NumberFormat.grouped(chunk.tokens),
                    NumberFormat.percent(chunk.tokens, of: budget.room),
                ]
                if budget.overlap > 0 { cells.append(approx + NumberFormat.grouped(chunk.overlapTokens)) }
                cells += [chunk.endLevel?.description ?? "end", firstWords(chunk)]
                return cells
            }
            let shown: [Chunk?] = listAll || list.count <= 40 ? list : Array(list.prefix(20)) + [nil] + Array(list.suffix(5))
            for chunk in shown {
                if let chunk { rows.append(row(chunk)) } else {
                    rows.append(["…", "", "", "", "", "", "\(list.count - 25) more (--all lists them)"] + (budget.overlap > 0 ? [""] : []))
                }
            }
            var header = ["#", "bytes", "characters", "tokens", "fill"]
            var right = [true, true, true, true, true]
            if budget.overlap > 0 { header.append("overlap"); right.append(true) }
            header += ["cut", "first words"]
            right += [false, false]
            var out = indent(Table(header: header, alignRight: right).render(rows))
            if list.count > 1 {
                var byLevel: [String: Int] = [:]
                for chunk in list.dropLast() { byLevel[chunk.endLevel?.name ?? "end", default: 0] += 1 }
                let order = ["section", "paragraph", "line", "sentence", "word", "grapheme"]
                let tokens = list.map(\.tokens)
                out += "  cuts: " + order.compactMap { name in byLevel[name].map { "\($0) \(name)" } }.joined(separator: ", ")
                out += "; tokens per chunk \(approx)\(NumberFormat.grouped(tokens.min()!))–\(NumberFormat.grouped(tokens.max()!)), over budget: 0\n"
            }
            return out
        }

        func planText() -> String {
            var out = "Map-reduce plan (one summary \(approx)\(NumberFormat.grouped(summary.tokens)) tokens: \(summarySource))\n"
            let calls: MapReducePlan
            switch callPlan {
            case let .success(plan): calls = plan
            case let .failure(error): return out + "  cannot reduce: \(error)\n"
            }
            if calls.passThrough {
                return out + "  no calls: the text (\(approx)\(NumberFormat.grouped(chunks.textTokens)) tokens) is no longer than a summary; it is its own summary\n"
            }
            var rows: [[String]] = []
            var reduceLevel = 0
            for level in calls.levels {
                let sent = level.calls.reduce(0) { $0 + $1.tokensSent }
                let count = level.calls.count
                let name: String
                var detail = "\(count) call\(count == 1 ? "" : "s")"
                if level.kind == .map {
                    name = "map"
                } else {
                    reduceLevel += 1
                    name = "reduce \(reduceLevel)"
                    let sizes = level.calls.map(\.inputs.count)
                    detail += sizes.min() == sizes.max() ? " of \(sizes[0]) summaries" : " of \(sizes.min()!)–\(sizes.max()!) summaries"
                }
                rows.append([name, detail, "\(approx)\(NumberFormat.grouped(sent)) tokens sent"])
            }
            if reduceLevel == 0 { rows.append(["reduce", "none", "one chunk: its summary is the summary"]) }
            rows.append(["total", "\(calls.totalCalls) call\(calls.totalCalls == 1 ? "" : "s")",
                         "\(approx)\(NumberFormat.grouped(calls.tokensSent)) tokens sent, \(approx)\(NumberFormat.grouped(calls.outputTokens)) written"])
            out += indent(Table(header: ["", "", ""], alignRight: [false, false, false]).render(rows).split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n"))
            let latency = job.latency
            out += "  time    ≈ \(duration(seconds(calls))) (estimate: first token \(NumberFormat.decimal(latency.coldFirstToken)) s cold, "
            out += "\(NumberFormat.decimal(latency.warmFirstToken, places: 3)) s warm"
            if job.idle > 0 { out += " + \(NumberFormat.decimal(latency.idlePenalty(afterIdle: job.idle))) s after \(NumberFormat.decimal(job.idle, places: 0)) s idle" }
            out += ", \(NumberFormat.decimal(latency.outputCharactersPerSecond, places: 0)) characters/s of output"
            if job.concurrency > 1 { out += ", \(job.concurrency) calls at a time" }
            out += "; \(latency.source)"
            out += latency.measured ? ")\n" : "; prompt reading time not modelled; --cold/--warm/--chars-per-second override)\n"
            return out
        }

        func duration(_ seconds: Double) -> String {
            if seconds < 60 { return NumberFormat.decimal(seconds, places: 1) + " s" }
            let minutes = Int(seconds / 60)
            if minutes < 60 { return "\(minutes) min \(Int(seconds) % 60) s" }
            return "\(minutes / 60) h \(minutes % 60) min"
        }

        func firstWords(_ chunk: Chunk) -> String {
            let start = chunk.newTextStart
            let bytes = job.text[start..<min(chunk.bytes.upperBound, start + 160)]
            let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0.isWhitespace }).prefix(6).joined(separator: " ")
            var clean = ""
            clean.unicodeScalars.append(contentsOf: words.unicodeScalars.filter { $0.properties.generalCategory != .control })
            return clean.count > 40 ? String(clean.prefix(39)) + "…" : clean
        }

        func indent(_ table: String) -> String {
            table.split(separator: "\n", omittingEmptySubsequences: true).map { "  " + $0 }.joined(separator: "\n") + "\n"
        }

        // MARK: JSON

        func json() -> OrderedJSON {
            let profile = job.profile
            var characterEnd = 0
            let chunkList: [OrderedJSON] = chunks.chunks.map { chunk in
                var fields: [JSONMember] = [
                    JSONMember("index", .int(chunk.index + 1)),
                    JSONMember("bytes", .object([JSONMember("start", .int(chunk.bytes.lowerBound)), JSONMember("end", .int(chunk.bytes.upperBound))])),
                    JSONMember("characters", .object([JSONMember("start", .int(chunk.characters.lowerBound)), JSONMember("end", .int(chunk.characters.upperBound))])),
                ]
                if budget.overlap > 0 {
                    fields.append(JSONMember("newText", .object([JSONMember("byteStart", .int(chunk.newTextStart)), JSONMember("characterStart", .int(characterEnd))])))
                    fields.append(JSONMember("overlapTokens", .int(chunk.overlapTokens)))
                }
                characterEnd = chunk.characters.upperBound
                fields += [
                    JSONMember("tokens", .int(chunk.tokens)),
                    JSONMember("tokenizerTokens", .int(chunk.proxyTokens)),
                    JSONMember("fill", .double((Double(chunk.tokens) / Double(budget.room) * 1000).rounded() / 1000)),
                    JSONMember("level", .string(chunk.endLevel?.name ?? "end")),
                    JSONMember("headingDepth", .optional(chunk.endLevel?.headingDepth)),
                    JSONMember("firstWords", .string(firstWords(chunk))),
                ]
                return .object(fields)
            }
            let calls = try? callPlan.get()
            let levels: [OrderedJSON] = (calls?.levels ?? []).map { level in
                .object([
                    JSONMember("kind", .string(level.kind.rawValue)),
                    JSONMember("calls", .array(level.calls.map { call in
                        .object([JSONMember("inputs", .array(call.inputs.map { .int($0 + 1) })), JSONMember("inputTokens", .int(call.inputTokens)), JSONMember("tokensSent", .int(call.tokensSent))])
                    })),
                ])
            }
            let latency = job.latency
            return .object([
                JSONMember("file", .string(job.path)),
                JSONMember("profile", .string(profile.name)),
                JSONMember("profileSource", .optional(job.profileSource)),
                JSONMember("tokenizer", .string(profile.tokenizer.description)),
                JSONMember("estimate", profile.estimate.map { .object([JSONMember("factor", .double($0.factor)), JSONMember("errorBar", .double($0.errorBar)), JSONMember("method", .string($0.method))]) } ?? .null),
                JSONMember("budget", .object([
                    JSONMember("window", .int(budget.window)), JSONMember("requestOverhead", .int(budget.requestOverhead)),
                    JSONMember("instructions", .int(budget.instructions)), JSONMember("schema", .int(budget.schema)), JSONMember("schemaFraming", .int(schemaFraming)),
                    JSONMember("sourceFrame", .int(budget.frame)),
                    JSONMember("reserve", .int(budget.reserve)), JSONMember("overlap", .int(budget.overlap)),
                    JSONMember("room", .int(budget.room)), JSONMember("newTextPerChunk", .int(budget.newTextPerChunk)),
                ])),
                JSONMember("text", .object([
                    JSONMember("bytes", .int(chunks.textBytes)), JSONMember("characters", .int(chunks.textCharacters)),
                    JSONMember("tokens", .int(chunks.textTokens)), JSONMember("tokenizerTokens", .int(chunks.textProxyTokens)),
                ])),
                JSONMember("chunks", .array(chunkList)),
                JSONMember("meanFill", .double((chunks.meanFill * 1000).rounded() / 1000)),
                JSONMember("plan", calls.map { calls in .object([
                    JSONMember("summaryTokens", .int(calls.summaryTokens)), JSONMember("summarySource", .string(summarySource)),
                    JSONMember("fanIn", .int(calls.fanIn)), JSONMember("passThrough", .bool(calls.passThrough)),
                    JSONMember("levels", .array(levels)),
                    JSONMember("calls", .int(calls.totalCalls)), JSONMember("tokensSent", .int(calls.tokensSent)), JSONMember("outputTokens", .int(calls.outputTokens)),
                ]) } ?? .object([JSONMember("summaryTokens", .int(summary.tokens)), JSONMember("summarySource", .string(summarySource)), JSONMember("error", .string(callPlan.errorDescription))])),
                JSONMember("time", .object([
                    JSONMember("seconds", calls.map { .double((seconds($0) * 100).rounded() / 100) } ?? .null), JSONMember("estimate", .bool(true)), JSONMember("measured", .bool(latency.measured)),
                    JSONMember("source", .string(latency.source)),
                    JSONMember("coldFirstToken", .double(latency.coldFirstToken)), JSONMember("warmFirstToken", .double(latency.warmFirstToken)),
                    JSONMember("outputCharactersPerSecond", .double(latency.outputCharactersPerSecond)),
                    JSONMember("idleSeconds", .double(job.idle)), JSONMember("concurrency", .int(job.concurrency)),
                ])),
                JSONMember("planningSeconds", .double((planningSeconds.wall * 10000).rounded() / 10000)),
                JSONMember("planningCPUSeconds", .double((planningSeconds.cpu * 10000).rounded() / 10000)),
            ])
        }
    }
}
