import ContextKit
import ContextKitReports
import Foundation
import Render
import ToolSupport

/// `ctxkit transcript`: tokens per request when one session is reused versus
/// a fresh session per request, and the turn where the window overflows;
/// with `--url`, the same conversation run against a real server.
enum TranscriptCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var model: String?
        var profiles: [String] = []
        var window: Int?
        var instructions: String?
        var document: [String] = []
        var answer: [String] = []
        var turns: Int?
        var url: URL?
        var serverModel: String?
        var timeout: Int?
        var csv = false

        static var declarations: [OptionDeclaration<Self>] {
            [
                .option("model", short: "m", value: "PROFILE", help: "Model profile: window, tokenizer and per-request overheads (default: apple-on-device).", \.model),
                .repeated("profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable).", \.profiles),
                .option("window", value: "N", help: "Context window in tokens, instead of the profile's (with --url: the server's, when it says).", \.window, .tokens(minimum: 1)),
                .option("instructions", short: "i", value: "N|FILE", help: "Instructions sent first in every session (default: none).", \.instructions),
                .repeated("document", short: "d", value: "N|FILE", help: "The prompt of each turn (repeatable: turn k uses the k-th, cycling). Default: 700.", \.document),
                .repeated(
                    "answer", short: "a", value: "N|FILE", help: "The answer of each turn (repeatable, cycling; with --url: its size is max_tokens). Default: 150.", \.answer),
                .option(
                    "turns", short: "n", value: "N", help: "Turns to show (default: the number of documents given, or until two turns past the overflow).", \.turns,
                    .integer(minimum: 1)),
                .option(
                    "url", value: "URL", help: "Run the conversation against this OpenAI-compatible server (/v1/chat/completions) and show its measured prompt_tokens.", \.url,
                    .serverURL),
                .option("server-model", value: "NAME", help: "With --url: the request's \"model\" field (default: \"default\").", \.serverModel),
                .option("timeout", value: "SECONDS", help: "With --url: seconds to wait for each answer (default: 300).", \.timeout, .integer(minimum: 1)),
                .flag("csv", help: "Print CSV instead of a table.", \.csv)
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit transcript",
        usage: ["[-i N|FILE] [-d N|FILE]... [-a N|FILE]... [OPTIONS]", "--url URL [OPTIONS]"],
        summary:
            "Shows how fast a reused session grows: request n resends the instructions and every earlier prompt and answer, so the tokens sent per request climb until the window overflows, while a fresh session per request sends the same amount each time. Prints, per turn, the tokens sent and held in the window under both strategies, the running totals, and the turn at which the reused session overflows. Sizes are tokens, or files whose text is counted with the profile's tokenizer. With --url, the conversation is sent to an OpenAI-compatible server turn by turn and the prompt_tokens it reports are shown beside the prediction.",
        epilog: """
            A size that is a number is taken as tokens; anything else is a file. With --url,
            sizes become generated English text of that many tokens (counted with the
            profile's tokenizer), and the server's own tokenizer and chat template decide
            what it charges: the difference column shows how far the profile is off.

            Exit status: 0 done, 1 a file could not be read or the server could not be
            reached, 2 usage error.
            """
    )

    /// A size given on the command line: tokens, or a file's text.
    enum Size {
        case tokens(Int)
        case text(String)

        func tokens(_ counter: MeasuredTokenizer) -> Int {
            switch self {
            case .tokens(let n): return n
            case .text(let text): return counter.count(text)
            }
        }
    }

    static func run(_ arguments: [String]) async -> ExitCode {
        await CommandRunner.run(spec, arguments) { options in
            if !options.positionals.isEmpty { throw UsageError(tool: spec.name, "unexpected argument '\(options.positionals[0])'; give documents with -d N|FILE") }
            let catalog: ProfileCatalog
            do {
                catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
            } catch let error as ProfileError {
                throw UsageError(tool: spec.name, "--profiles: \(error)")
            }
            var profile: ModelProfile
            do {
                profile = try catalog.profile(named: options.model ?? "apple-on-device", contextWindow: options.window)
            } catch let error as ProfileError {
                throw UsageError(tool: spec.name, "-m/--model: \(error)")
            }
            let counter = try MeasuredTokenizer(profile: profile)
            let instructions = try options.instructions.map { try size($0, option: "-i/--instructions") }
            let documents = try (options.document.isEmpty ? ["700"] : options.document).map { try size($0, option: "-d/--document") }
            let answers = try (options.answer.isEmpty ? ["150"] : options.answer).map { try size($0, option: "-a/--answer") }
            let turnsGiven = options.turns
            if let url = options.url {
                return try await live(
                    url: url, options: options, profile: profile, counter: counter, instructions: instructions,
                    documents: documents, answers: answers, turns: turnsGiven)
            }
            if let window = options.window { profile.contextWindow = window }
            let instructionTokens = instructions?.tokens(counter) ?? 0
            let documentTokens = documents.map { $0.tokens(counter) }
            let answerTokens = answers.map { $0.tokens(counter) }
            func exchanges(_ count: Int) -> [TranscriptGrowth.Exchange] {
                (0..<count).map { .init(prompt: documentTokens[$0 % documentTokens.count], answer: answerTokens[$0 % answerTokens.count]) }
            }
            var turns = turnsGiven ?? max(documentTokens.count, answerTokens.count)
            if turnsGiven == nil && turns == 1 {
                // Until two turns past the overflow, so the table shows it happen.
                let probe = TranscriptGrowth(instructions: instructionTokens, exchanges: exchanges(200), window: profile.contextWindow, overheads: profile.overheads)
                turns = min(200, max(6, (probe.overflowTurn ?? 10) + 2))
            }
            let growth = TranscriptGrowth(instructions: instructionTokens, exchanges: exchanges(turns), window: profile.contextWindow, overheads: profile.overheads)
            // Sizes given in tokens are exact; only texts counted by an estimating profile are estimates.
            let counted = ([instructions].compactMap { $0 } + documents + answers).contains { if case .text = $0 { return true } else { return false } }
            Output.out(options.csv ? csv(growth) : render(growth, profile: profile, estimated: counted && profile.isEstimate))
            return .ok
        }
    }

    static func size(_ value: String, option: String) throws -> Size {
        let cleaned = value.filter { $0 != "," && $0 != "_" }
        if let n = Int(cleaned) {
            guard n >= 0 else { throw UsageError(tool: spec.name, "\(option) wants a number of tokens or a file, not '\(value)'") }
            return .tokens(n)
        }
        guard FileManager.default.fileExists(atPath: value) else {
            throw UsageError(tool: spec.name, "\(option): '\(value)' is neither a number of tokens nor an existing file")
        }
        guard let data = FileManager.default.contents(atPath: value), let text = String(data: data, encoding: .utf8) else {
            throw UsageError(tool: spec.name, "\(option): cannot read '\(value)' as UTF-8 text")
        }
        return .text(text)
    }

    static func g(_ n: Int) -> String { NumberFormat.grouped(n) }

    static func render(_ growth: TranscriptGrowth, profile: ModelProfile, estimated: Bool) -> String {
        let approx = estimated ? "≈ " : ""
        var out = "\(profile.name): \(g(growth.window))-token window, \(profile.overheads.perRequest) tokens per request, \(profile.overheads.perMessage) per message"
        out += estimated ? " (texts counted by estimate: \(profile.tokenizer) scaled)\n" : "\n"
        out += growth.instructions == 0 ? "no instructions\n\n" : "instructions \(approx)\(g(growth.instructions)) tokens\n\n"
        let rows = growth.turns.map { t -> [String] in
            [
                String(t.number), String(t.messages), g(t.reusedPrompt), g(t.reusedWindow) + (t.reusedWindow > growth.window ? " !" : ""),
                g(t.reusedCumulative), g(t.freshPrompt), g(t.freshWindow) + (t.freshWindow > growth.window ? " !" : ""), g(t.freshCumulative)
            ]
        }
        out += Table(
            header: ["turn", "messages", "reused sent", "window", "cumulative", "fresh sent", "window", "cumulative"],
            alignRight: Array(repeating: true, count: 8)
        ).render(rows)
        out += "\n"
        if let turn = growth.overflowTurn {
            let t = growth.turns[turn - 1]
            out +=
                "Reused session: overflows at turn \(turn): \(approx)\(g(t.reusedPrompt)) sent + \(g(t.reusedWindow - t.reusedPrompt)) answer = \(g(t.reusedWindow)) of \(g(growth.window)) tokens"
            if let refused = growth.promptOverflowTurn { out += "; from turn \(refused) the request alone does not fit" }
            out += ".\n"
        } else {
            out += "Reused session: all \(growth.turns.count) turns fit (at most \(g(growth.turns.map(\.reusedWindow).max() ?? 0)) of \(g(growth.window)) tokens).\n"
        }
        if let turn = growth.freshOverflowTurn {
            out += "Fresh session per request: turn \(turn) does not fit even alone.\n"
        } else {
            out += "Fresh session per request: every turn fits (at most \(g(growth.turns.map(\.freshWindow).max() ?? 0)) of \(g(growth.window)) tokens).\n"
        }
        if let last = growth.turns.last, last.freshCumulative > 0 {
            out +=
                "Sent over \(last.number) turns: reused \(g(last.reusedCumulative)), fresh \(g(last.freshCumulative)) (\(NumberFormat.decimal(Double(last.reusedCumulative) / Double(last.freshCumulative), places: 1))×).\n"
        }
        return out
    }

    static func csv(_ growth: TranscriptGrowth) -> String {
        var out = "turn,messages,reused_sent,reused_window,reused_cumulative,fresh_sent,fresh_window,fresh_cumulative,window\n"
        for t in growth.turns {
            out += "\(t.number),\(t.messages),\(t.reusedPrompt),\(t.reusedWindow),\(t.reusedCumulative),\(t.freshPrompt),\(t.freshWindow),\(t.freshCumulative),\(growth.window)\n"
        }
        return out
    }

    // MARK: --url

    static func live(
        url endpoint: URL, options: Options, profile: ModelProfile, counter: MeasuredTokenizer, instructions: Size?,
        documents: [Size], answers: [Size], turns given: Int?
    ) async throws -> ExitCode {
        if answers.count > 1 { throw UsageError(tool: spec.name, "with --url the model writes the answers; give one -a/--answer size (its max_tokens)") }
        let maxTokens = max(1, answers[0].tokens(counter))
        let timeout = Double(options.timeout ?? 300)
        let run = LiveTranscript(url: endpoint, model: options.serverModel ?? "default", maxAnswerTokens: maxTokens, timeout: timeout)
        let serverWindow = await run.serverContextSize()
        let window = options.window ?? serverWindow
        let instructionText =
            try instructions.map { size -> String in
                switch size {
                case .tokens(let n): return n == 0 ? "" : try SyntheticDocument.instructions(tokens: n, tokenizer: counter.tokenizer)
                case .text(let text): return text
                }
            } ?? ""
        // Without a turn count, go on until the server refuses (or 64 turns).
        let count = given ?? (documents.count > 1 ? documents.count : 64)
        let texts = try (0..<count).map { k -> String in
            switch documents[k % documents.count] {
            case .tokens(let n): return try SyntheticDocument.text(tokens: n, number: k + 1, tokenizer: counter.tokenizer)
            case .text(let text): return text
            }
        }
        Output.err("ctxkit transcript: \(run.endpoint), window \(serverWindow.map(g) ?? "unknown (server did not say)"), max_tokens \(maxTokens)\n")
        let overheads = profile.overheads
        let turns = await run.run(instructions: instructionText, documents: texts, counter: counter, overheads: overheads) { turn in
            let measured = turn.measuredPrompt.map(g) ?? "-"
            let outcome = turn.error.map { turn.refusalStatus == nil ? " — failed: \($0)" : " — refused: \($0)" } ?? ""
            Output.err("  turn \(turn.number): predicted \(g(turn.predictedPrompt)), server \(measured)\(outcome)\n")
        }
        Output.out(renderLive(turns, profile: profile, server: run.endpoint, window: window, maxTokens: maxTokens, csv: options.csv))
        if let last = turns.last, last.error != nil, last.refusalStatus == nil {
            return .inputFailed  // the server could not be reached or did not answer
        }
        return .ok
    }

    static func renderLive(_ turns: [LiveTranscript.Turn], profile: ModelProfile, server: URL, window: Int?, maxTokens: Int, csv: Bool) -> String {
        if csv {
            var out = "turn,messages,predicted_prompt,measured_prompt,difference,completion_tokens,finish_reason,error\n"
            for t in turns {
                let difference = t.measuredPrompt.map { String($0 - t.predictedPrompt) } ?? ""
                let error = (t.error ?? "").replacingOccurrences(of: "\"", with: "\"\"")
                out +=
                    "\(t.number),\(t.messages),\(t.predictedPrompt),\(t.measuredPrompt.map(String.init) ?? ""),\(difference),\(t.completionTokens.map(String.init) ?? ""),\(t.finishReason ?? ""),\"\(error)\"\n"
            }
            return out
        }
        var out =
            "\(server): window \(window.map(g) ?? "unknown"); predicted with \(profile.name) (\(profile.tokenizer)\(profile.isEstimate ? ", estimated" : ""), \(profile.overheads.perRequest) per request, \(profile.overheads.perMessage) per message)\n\n"
        let rows = turns.map { t -> [String] in
            let difference = t.measuredPrompt.map { $0 - t.predictedPrompt }
            let perMessage = difference.map { NumberFormat.decimal(Double($0) / Double(t.messages), places: 1) } ?? "-"
            return [
                String(t.number), String(t.messages), g(t.predictedPrompt), t.measuredPrompt.map(g) ?? "-",
                difference.map { ($0 > 0 ? "+" : "") + g($0) } ?? "-", perMessage,
                t.completionTokens.map(g) ?? "-", t.error == nil ? (t.finishReason ?? "") : t.refusalStatus.map { "refused (HTTP \($0))" } ?? "failed"
            ]
        }
        out += Table(
            header: ["turn", "messages", "predicted", "server prompt_tokens", "difference", "per message", "answer tokens", "finish"],
            alignRight: [true, true, true, true, true, true, true, false]
        ).render(rows)
        out += "\n"
        if let failed = turns.first(where: { $0.error != nil }) {
            out += failed.refusalStatus == nil ? "Turn \(failed.number) failed: \(failed.error!)\n" : "The server refused turn \(failed.number): \(failed.error!)\n"
        } else if let cut = turns.first(where: { $0.finishReason == "length" && ($0.completionTokens ?? maxTokens) < maxTokens }) {
            out += "The answer of turn \(cut.number) was cut short by the window.\n"
        } else {
            out += "All \(turns.count) turns were answered.\n"
        }
        if let window, let predicted = turns.first(where: { $0.predictedPrompt > window }) {
            out += "Predicted: the request alone passes the \(g(window))-token window at turn \(predicted.number).\n"
        }
        return out
    }
}
