import ContextKit
import Foundation
import Summariser
import ToolSupport

extension SummariseCommand {
    /// A finished run, shown as `--json`, as `--stats`, and saved as latency figures.
    struct Report {
        let job: Job
        let run: SummaryRun

        static func seconds(_ duration: Duration) -> String {
            let s = duration.seconds
            return s < 10 ? NumberFormat.decimal(s, places: 3) + " s" : NumberFormat.decimal(s, places: 1) + " s"
        }

        static func rounded(_ duration: Duration?) -> JSONValue {
            duration.map { .double(($0.seconds * 1000).rounded() / 1000) } ?? .null
        }

        // MARK: JSON

        func json() -> JSONValue {
            let m = run.metrics
            let first = run.levels.first?.plan
            return .object([
                ("file", .string(job.path)),
                ("backend", .string(job.backend.name)),
                ("profile", .string(job.profile.name)),
                ("window", .int(run.window)),
                ("summary", .object([
                    ("headline", .string(run.summary.headline)),
                    ("points", .array(run.summary.points.map { .string($0) })),
                ])),
                ("inputIsItsOwnSummary", .bool(run.isInputItsOwnSummary)),
                ("text", .object([
                    ("characters", .int(first?.textCharacters ?? job.text.unicodeScalars.count)),
                    ("bytes", .int(first?.textBytes ?? job.text.utf8.count)),
                    ("tokens", .optional(first?.textTokens)),
                    ("tokensAreEstimates", .bool(job.profile.isEstimate)),
                ])),
                ("levels", .array(run.levels.map(levelJSON))),
                ("calls", .array(m.calls.map(callJSON))),
                ("totals", .object([
                    ("calls", .int(m.calls.count)),
                    ("failedCalls", .int(m.calls.filter { $0.failure != nil }.count)),
                    ("levels", .int(run.levels.count)),
                    ("tokensSent", .int(m.tokensSent)),
                    ("tokensReceived", .int(m.tokensReceived)),
                    ("charactersReceived", .int(m.charactersReceived)),
                    ("copiesDetected", .int(m.copiesDetected)),
                    ("copiesKept", .int(m.copiesKept)),
                    ("replans", .int(run.replans.count)),
                    ("meanTimeToFirstToken", Self.rounded(m.meanTimeToFirstToken)),
                    ("callSeconds", Self.rounded(m.callTime)),
                    ("totalSeconds", Self.rounded(m.totalTime)),
                ])),
                ("copies", .array(run.copies.map { .object([("call", .int($0.call)), ("phrase", .string($0.phrase))]) })),
                ("replans", .array(run.replans.map { r in
                    .object([("level", .int(r.level)), ("call", .int(r.call)), ("plannedTokens", .int(r.plannedTokens)),
                             ("reportedTokens", .optional(r.reportedTokens)), ("roomBefore", .int(r.roomBefore)), ("roomAfter", .int(r.roomAfter))])
                })),
            ])
        }

        private func levelJSON(_ level: SummaryRun.Level) -> JSONValue {
            let b = level.plan.budget
            return .object([
                ("level", .int(level.level)),
                ("stage", .string(level.stage.rawValue)),
                ("budget", .object([
                    ("window", .int(b.window)), ("requestOverhead", .int(b.requestOverhead)), ("instructions", .int(b.instructions)),
                    ("schema", .int(b.schema)), ("reserve", .int(b.reserve)), ("room", .int(b.room)),
                ])),
                ("chunks", .array(level.plan.chunks.map { c in
                    .object([
                        ("bytes", .array([.int(c.bytes.lowerBound), .int(c.bytes.upperBound)])),
                        ("characters", .array([.int(c.characters.lowerBound), .int(c.characters.upperBound)])),
                        ("tokens", .int(c.tokens)),
                        ("endsAt", .optional(c.endLevel?.description)),
                    ])
                })),
            ])
        }

        private func callJSON(_ c: CallMetrics) -> JSONValue {
            .object([
                ("call", .int(c.index)),
                ("stage", .string(c.stage.rawValue)),
                ("level", .int(c.level)),
                ("part", .int(c.part)),
                ("attempt", .int(c.attempt)),
                ("timeToFirstToken", Self.rounded(c.timeToFirstToken)),
                ("totalSeconds", Self.rounded(c.totalTime)),
                ("charactersReceived", .int(c.charactersReceived)),
                ("charactersPerSecond", .optional(c.charactersPerSecond.map { ($0 * 10).rounded() / 10 })),
                ("tokensPlanned", .int(c.tokensPlanned)),
                ("tokensSent", .int(c.tokensSent)),
                ("tokensSentReported", .bool(c.tokensSentReported)),
                ("tokensReceived", .int(c.tokensReceived)),
                ("tokensReceivedReported", .bool(c.tokensReceivedReported)),
                ("serverPromptMilliseconds", .optional(c.usage?.promptMilliseconds)),
                ("serverGenerationMilliseconds", .optional(c.usage?.generationMilliseconds)),
                ("copied", .bool(c.copied)),
                ("failure", .optional(c.failure.map { "\($0)" })),
            ])
        }

        // MARK: --stats

        func statsText() -> String {
            let m = run.metrics
            guard !m.calls.isEmpty else {
                return "No model call: the text is shorter than \(job.engine.configuration.minimumCharacters) characters and is its own summary.\n"
            }
            let table = Table(header: ["call", "stage", "part", "try", "first token", "total", "chars/s", "sent", "received", "note"],
                              alignRight: [true, false, false, true, true, true, true, true, true, false])
            let rows = m.calls.map { c -> [String] in
                [String(c.index + 1), c.stage.rawValue, "\(c.level).\(c.part + 1)", String(c.attempt),
                 c.timeToFirstToken.map(Self.seconds) ?? "–", Self.seconds(c.totalTime),
                 c.charactersPerSecond.map { NumberFormat.decimal($0, places: 0) } ?? "–",
                 NumberFormat.grouped(c.tokensSent) + (c.tokensSentReported ? " r" : ""),
                 NumberFormat.grouped(c.tokensReceived) + (c.tokensReceivedReported ? " r" : ""),
                 c.failure.map { "failed: \($0)" } ?? (c.copied ? "copy" : "")]
            }
            var out = table.render(rows) + "\n"
            let failed = m.calls.filter { $0.failure != nil }.count
            out += "\n\(m.calls.count) calls (\(failed) failed) on \(run.levels.count) level\(run.levels.count == 1 ? "" : "s"), window \(NumberFormat.grouped(run.window)) tokens, backend \(job.backend.name)\n"
            out += "tokens sent \(NumberFormat.grouped(m.tokensSent)), received \(NumberFormat.grouped(m.tokensReceived)) (r: reported by the backend; otherwise counted with \(job.profile.name))\n"
            out += "copies detected \(m.copiesDetected), kept \(m.copiesKept); replans after an overflow \(run.replans.count)\n"
            out += "time to first token: mean \(m.meanTimeToFirstToken.map(Self.seconds) ?? "–"); time in calls \(Self.seconds(m.callTime)), total \(Self.seconds(m.totalTime))\n"
            if let path = latencyPath { out += "latency figures saved for 'ctxkit plan': \(path)\n" }
            return out
        }

        // MARK: Latency for the planner

        /// Where `saveLatency` writes: only for a server run with an explicitly
        /// named profile, so one server's timings never stand in for another model.
        var latencyPath: String? {
            guard !job.backend.copiesByDesign, job.explicitProfile,
                  run.metrics.calls.contains(where: { $0.failure == nil && $0.timeToFirstToken != nil }) else { return nil }
            return LatencyModel.measuredPath(profile: job.profile.name)
        }

        func saveLatency() {
            guard let path = latencyPath else { return }
            let calls = run.metrics.calls.filter { $0.failure == nil && $0.timeToFirstToken != nil }
            let model = LatencyModel.measured(
                backend: job.backend.name, coldFirstToken: calls.first?.timeToFirstToken?.seconds,
                warmFirstTokens: calls.dropFirst().compactMap { $0.timeToFirstToken?.seconds },
                outputCharacters: calls.reduce(0) { $0 + $1.charactersReceived },
                outputSeconds: calls.reduce(0) { $0 + ($1.totalTime - ($1.timeToFirstToken ?? .zero)).seconds })
            do {
                try model.save(to: path)
            } catch {
                Output.err("ctxkit summarise: warning: could not save latency figures to \(path): \(error.localizedDescription)\n")
            }
        }
    }
}
