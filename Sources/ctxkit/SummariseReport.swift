import ContextKit
import ContextKitJSON
import Foundation
import Render
import Summariser
import ToolSupport

extension SummariseCommand {
    /// A finished run, shown as `--json`, as `--stats`, and saved as latency figures.
    struct Report {
        let job: Job
        let run: SummaryRun

        static func seconds(_ duration: Duration) -> String { NumberFormat.duration(seconds: duration.seconds) }

        static func rounded(_ duration: Duration?) -> OrderedJSON {
            duration.map { .double(($0.seconds * 1000).rounded() / 1000) } ?? .null
        }

        // MARK: JSON

        func json() -> OrderedJSON {
            let m = run.metrics
            let first = run.levels.first?.plan
            return .object([
                JSONMember("file", .string(job.path)),
                JSONMember("backend", .string(job.backend.name)),
                JSONMember("profile", .string(job.profile.name)),
                JSONMember("profileSource", .optional(job.profileSource)),
                JSONMember("window", .int(run.window)),
                JSONMember(
                    "summary",
                    .object([
                        JSONMember("headline", .string(run.summary.headline)),
                        JSONMember("points", .array(run.summary.points.map { .string($0) }))
                    ])),
                JSONMember("inputIsItsOwnSummary", .bool(run.isInputItsOwnSummary)),
                JSONMember(
                    "text",
                    .object([
                        JSONMember("characters", .int(first?.textCharacters ?? job.text.unicodeScalars.count)),
                        JSONMember("bytes", .int(first?.textBytes ?? job.text.utf8.count)),
                        JSONMember("tokens", .optional(first?.textTokens)),
                        JSONMember("tokensAreEstimates", .bool(job.profile.isEstimate))
                    ])),
                JSONMember("levels", .array(run.levels.map(levelJSON))),
                JSONMember("calls", .array(m.calls.map(callJSON))),
                JSONMember(
                    "totals",
                    .object([
                        JSONMember("calls", .int(m.calls.count)),
                        JSONMember("failedCalls", .int(m.calls.filter { $0.failure != nil }.count)),
                        JSONMember("levels", .int(run.levels.count)),
                        JSONMember("tokensSent", .int(m.tokensSent)),
                        JSONMember("tokensReceived", .int(m.tokensReceived)),
                        JSONMember("charactersReceived", .int(m.charactersReceived)),
                        JSONMember("copiesDetected", .int(m.copiesDetected)),
                        JSONMember("copiesKept", .int(m.copiesKept)),
                        JSONMember("replans", .int(run.replans.count)),
                        JSONMember("meanTimeToFirstToken", Self.rounded(m.meanTimeToFirstToken)),
                        JSONMember("callSeconds", Self.rounded(m.callTime)),
                        JSONMember("totalSeconds", Self.rounded(m.totalTime))
                    ])),
                JSONMember("copies", .array(run.copies.map { .object([JSONMember("call", .int($0.call)), JSONMember("phrase", .string($0.phrase))]) })),
                JSONMember(
                    "replans",
                    .array(
                        run.replans.map { r in
                            .object([
                                JSONMember("level", .int(r.level)), JSONMember("call", .int(r.call)), JSONMember("plannedTokens", .int(r.plannedTokens)),
                                JSONMember("reportedTokens", .optional(r.reportedTokens)), JSONMember("roomBefore", .int(r.roomBefore)), JSONMember("roomAfter", .int(r.roomAfter))
                            ])
                        }))
            ])
        }

        private func levelJSON(_ level: SummaryRun.Level) -> OrderedJSON {
            let b = level.plan.budget
            return .object([
                JSONMember("level", .int(level.level)),
                JSONMember("stage", .string(level.stage.rawValue)),
                JSONMember(
                    "budget",
                    .object([
                        JSONMember("window", .int(b.window)), JSONMember("requestOverhead", .int(b.requestOverhead)), JSONMember("instructions", .int(b.instructions)),
                        JSONMember("schema", .int(b.schema)), JSONMember("reserve", .int(b.reserve)), JSONMember("room", .int(b.room)),
                        JSONMember("sourceFrame", .int(b.frame))
                    ])),
                JSONMember(
                    "chunks",
                    .array(
                        level.plan.chunks.map { c in
                            .object([
                                JSONMember("bytes", .array([.int(c.bytes.lowerBound), .int(c.bytes.upperBound)])),
                                JSONMember("characters", .array([.int(c.characters.lowerBound), .int(c.characters.upperBound)])),
                                JSONMember("tokens", .int(c.tokens)),
                                JSONMember("endsAt", .optional(c.endLevel?.description))
                            ])
                        }))
            ])
        }

        private func callJSON(_ c: CallMetrics) -> OrderedJSON {
            .object([
                JSONMember("call", .int(c.index)),
                JSONMember("stage", .string(c.stage.rawValue)),
                JSONMember("level", .int(c.level)),
                JSONMember("part", .int(c.part)),
                JSONMember("attempt", .int(c.attempt)),
                JSONMember("timeToFirstToken", Self.rounded(c.timeToFirstToken)),
                JSONMember("totalSeconds", Self.rounded(c.totalTime)),
                JSONMember("charactersReceived", .int(c.charactersReceived)),
                JSONMember("charactersPerSecond", .optional(c.charactersPerSecond.map { ($0 * 10).rounded() / 10 })),
                JSONMember("tokensPlanned", .int(c.tokensPlanned)),
                JSONMember("tokensPlannedByBackend", .bool(c.tokensPlannedByBackend)),
                JSONMember("tokensSent", .int(c.tokensSent)),
                JSONMember("tokensSentReported", .bool(c.tokensSentReported)),
                JSONMember("tokensReceived", .int(c.tokensReceived)),
                JSONMember("tokensReceivedReported", .bool(c.tokensReceivedReported)),
                JSONMember("serverPromptMilliseconds", .optional(c.usage?.promptMilliseconds)),
                JSONMember("serverGenerationMilliseconds", .optional(c.usage?.generationMilliseconds)),
                JSONMember("copied", .bool(c.copied)),
                JSONMember("failure", .optional(c.failure.map { "\($0)" }))
            ])
        }

        // MARK: --stats

        func statsText() -> String {
            let m = run.metrics
            guard !m.calls.isEmpty else {
                return "No model call: the text is shorter than \(job.engine.configuration.minimumCharacters) characters and is its own summary.\n"
            }
            let table = Table(
                header: ["call", "stage", "part", "try", "first token", "total", "chars/s", "planned", "sent", "received", "note"],
                alignRight: [true, false, false, true, true, true, true, true, true, true, false])
            let rows = m.calls.map { c -> [String] in
                [
                    String(c.index + 1), c.stage.rawValue, "\(c.level).\(c.part + 1)", String(c.attempt),
                    c.timeToFirstToken.map(Self.seconds) ?? "–", Self.seconds(c.totalTime),
                    c.charactersPerSecond.map { NumberFormat.decimal($0, places: 0) } ?? "–",
                    NumberFormat.grouped(c.tokensPlanned) + (c.tokensPlannedByBackend ? " x" : ""),
                    NumberFormat.grouped(c.tokensSent) + (c.tokensSentReported ? " r" : ""),
                    NumberFormat.grouped(c.tokensReceived) + (c.tokensReceivedReported ? " r" : ""),
                    c.failure.map { "failed: \($0)" } ?? (c.copied ? "copy" : "")
                ]
            }
            var out = table.render(rows) + "\n"
            let failed = m.calls.filter { $0.failure != nil }.count
            out +=
                "\n\(m.calls.count) calls (\(failed) failed) on \(run.levels.count) level\(run.levels.count == 1 ? "" : "s"), window \(NumberFormat.grouped(run.window)) tokens, backend \(job.backend.name)\n"
            out +=
                "tokens sent \(NumberFormat.grouped(m.tokensSent)), received \(NumberFormat.grouped(m.tokensReceived)) (r: reported by the backend; otherwise counted with \(job.profile.name)); planned x: the backend's own count of the request, made before sending it\n"
            if let source = job.profileSource { out += "profile: \(source)\n" }
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
                run.metrics.calls.contains(where: { $0.failure == nil && $0.timeToFirstToken != nil })
            else { return nil }
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
