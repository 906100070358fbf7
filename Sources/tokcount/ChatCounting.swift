import ContextKit
import ContextKitJSON
import Foundation
import Render
import ToolSupport

/// `--chat FILE|-`: conversations counted as the model sees them.
enum ChatCounting {
    /// One conversation's outcome.
    struct Outcome {
        let path: String
        var conversation: Conversation?
        var count: ConversationCount?
        var fit: FitReport?
        var error: String?
    }

    static func run(_ paths: [String], options: TokcountCommand.Options, settings s: TokcountCommand.Settings) throws -> ExitCode {
        let counter: ConversationCounter
        do {
            // The template's predictor counts with the model's own tokenizer:
            // the one already loaded unless -e replaced it.
            let framing = try ChatFraming.inferred(for: s.profile, tokenizer: s.tokenizerIsTheProfiles ? s.tokenizer : nil)
            counter = try ConversationCounter(profile: s.profile, tokenizer: s.tokenizer, estimate: .some(s.estimate), framing: framing)
        } catch {
            throw UsageError(tool: "tokcount", "-m/--model \(s.profile.name): \(error)")
        }
        var outcomes: [Outcome] = []
        for path in paths {
            var outcome = Outcome(path: path)
            do {
                // The file's bytes go as soon as they are parsed: a huge message is held once, not twice, while it is rendered.
                let conversation = try Conversation(json: WholeInput.read(path))
                let count = try counter.count(conversation)
                outcome.conversation = conversation
                outcome.count = count
                outcome.fit = count.fit(window: s.profile.contextWindow, reserve: s.reserve, source: s.reserveSource)
            } catch let error as ConversationError {
                outcome.error = "\(error)"
            } catch let error as InputError {
                outcome.error = error.reason
            } catch {
                outcome.error = "\(error)"
            }
            if let e = outcome.error { Output.err("tokcount: \(InputFile.display(path)): \(e)\n") }
            outcomes.append(outcome)
        }
        if let limit = options.truncate {
            return ChatTruncating.run(outcomes, counter: counter, limit: limit, at: options.truncateAt ?? .character, settings: s)
        }
        let failed = outcomes.contains { $0.error != nil }
        let overflowed = outcomes.contains { $0.fit.map { !$0.fits } ?? false }
        let exit: ExitCode = failed ? .inputFailed : (s.check && overflowed ? .overflow : .ok)
        if s.json {
            Output.out(
                OrderedJSON.object([
                    JSONMember("schemaVersion", .int(JSONReport.schemaVersion)),
                    JSONMember("tool", .string("tokcount")),
                    JSONMember("version", .string(ToolVersion.string)),
                    JSONMember("profile", JSONReport.profile(s)),
                    JSONMember("conversations", .array(outcomes.map(json))),
                    JSONMember("exitCode", .int(Int(exit.rawValue)))
                ]).rendered() + "\n")
        } else {
            for outcome in outcomes where outcome.count != nil { Output.out(text(outcome, settings: s)) }
        }
        return exit
    }

    // MARK: Text

    static func text(_ o: Outcome, settings s: TokcountCommand.Settings) -> String {
        let count = o.count!, fit = o.fit!
        let approx = count.isEstimate ? "≈" : ""
        func n(_ v: Int) -> String { approx + NumberFormat.grouped(v) }
        var rows: [[String]] = []
        for m in count.messages {
            let place = m.promptBytes.map { "bytes \(NumberFormat.grouped($0.lowerBound))–\(NumberFormat.grouped($0.upperBound))" } ?? ""
            rows.append([String(m.index), m.role.rawValue, n(m.tokens), "\(NumberFormat.grouped(m.firstToken))–\(NumberFormat.grouped(m.firstToken + m.tokens))", place])
        }
        rows.append([
            "", "tools", n(count.tools), "", o.conversation!.tools.isEmpty ? "" : "\(o.conversation!.tools.count) definition\(o.conversation!.tools.count == 1 ? "" : "s")"
        ])
        rows.append(["", "overhead", n(count.overhead), "", count.overheadSource])
        rows.append(["", "total", n(count.total), "", ""])
        var out = InputFile.display(o.path) + "\n"
        out += Table(header: ["#", "role", "tokens", "prompt tokens", "in the rendered prompt"], alignRight: [true, false, true, false, false])
            .render(rows).split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
        out += "\n  model:  \(s.profile.name), \(count.method)\n"
        out +=
            "  fit:    \(n(fit.used)) of \(NumberFormat.grouped(fit.budget.window)) tokens with \(NumberFormat.grouped(fit.budget.reserve)) reserved for the answer (\(fit.budget.reserveSource)), "
            + (fit.fits ? "fits with \(n(fit.spare)) to spare" : "overflows by \(n(fit.overflow))") + "\n"
        for note in count.notes { out += "  note:   \(note)\n" }
        return out
    }

    // MARK: JSON

    static func json(_ o: Outcome) -> OrderedJSON {
        var fields = [JSONMember("path", .string(o.path == "-" ? "(standard input)" : o.path))]
        guard let count = o.count, let fit = o.fit else {
            return .object(fields + [JSONMember("status", .string("failed")), JSONMember("reason", .optional(o.error)), JSONMember("tokens", .null)])
        }
        fields += [
            JSONMember("status", .string("counted")),
            JSONMember("reason", .null),
            JSONMember("tokens", .int(count.total)),
            JSONMember("estimated", .bool(count.isEstimate)),
            JSONMember("method", .string(count.method)),
            JSONMember(
                "messages",
                .array(
                    count.messages.map { m in
                        .object([
                            JSONMember("index", .int(m.index)),
                            JSONMember("role", .string(m.role.rawValue)),
                            JSONMember("tokens", .int(m.tokens)),
                            JSONMember("firstToken", .int(m.firstToken)),
                            JSONMember("promptBytes", m.promptBytes.map { .object([JSONMember("start", .int($0.lowerBound)), JSONMember("end", .int($0.upperBound))]) } ?? .null)
                        ])
                    })),
            JSONMember("messageTokens", .int(count.messageTokens)),
            JSONMember("tools", .int(count.tools)),
            JSONMember("overhead", .int(count.overhead)),
            JSONMember("overheadSource", .string(count.overheadSource)),
            JSONMember("notes", .array(count.notes.map { .string($0) })),
            JSONMember("fit", JSONReport.fit(fit))
        ]
        return .object(fields)
    }
}
