import ContextKit
import Foundation
import Render

extension PlanCommand {
    /// A finished plan and how to show it: the text report here, the JSON in PlanReportJSON.swift.
    struct Report {
        let job: Job
        let plan: SummaryPlan

        var budget: TokenBudget { plan.budget }
        var schemaFraming: Int { plan.schemaFraming }
        var chunks: ChunkPlan { plan.chunks }
        var callPlan: Result<MapReducePlan, PlanError> { plan.calls }
        var summary: SummarySize { plan.summary }
        var planningSeconds: (wall: Double, cpu: Double) { plan.planningSeconds }

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
            let overheadNote =
                perMessage > 0
                ? "\(profile.overheads.perRequest) per request + \(perMessage) × \(messages) message\(messages == 1 ? "" : "s") (profile)"
                : "per request (profile)"
            let instructionsNote =
                job.instructions.map { $0.label == "text" ? "--instructions text, \($0.text.unicodeScalars.count) characters" : $0.label } ?? "none (--instructions)"
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
                    NumberFormat.percent(chunk.tokens, of: budget.room)
                ]
                if budget.overlap > 0 { cells.append(approx + NumberFormat.grouped(chunk.overlapTokens)) }
                cells += [chunk.endLevel?.description ?? "end", firstWords(chunk)]
                return cells
            }
            let shown: [Chunk?] = listAll || list.count <= 40 ? list : Array(list.prefix(20)) + [nil] + Array(list.suffix(5))
            for chunk in shown {
                if let chunk {
                    rows.append(row(chunk))
                } else {
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
            rows.append([
                "total", "\(calls.totalCalls) call\(calls.totalCalls == 1 ? "" : "s")",
                "\(approx)\(NumberFormat.grouped(calls.tokensSent)) tokens sent, \(approx)\(NumberFormat.grouped(calls.outputTokens)) written"
            ])
            out += indent(
                Table(header: ["", "", ""], alignRight: [false, false, false]).render(rows).split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(
                    separator: "\n"))
            let latency = job.latency
            out += "  time    ≈ \(NumberFormat.duration(seconds: seconds(calls))) (estimate: first token \(NumberFormat.duration(seconds: latency.coldFirstToken)) cold, "
            out += "\(NumberFormat.duration(seconds: latency.warmFirstToken)) warm"
            if job.idle > 0 { out += " + \(NumberFormat.duration(seconds: latency.idlePenalty(afterIdle: job.idle))) after \(NumberFormat.duration(seconds: job.idle)) idle" }
            out += ", \(NumberFormat.decimal(latency.outputCharactersPerSecond, places: 0)) characters/s of output"
            if job.concurrency > 1 { out += ", \(job.concurrency) calls at a time" }
            out += "; \(latency.source)"
            out += latency.measured ? ")\n" : "; prompt reading time not modelled; --cold/--warm/--chars-per-second override)\n"
            return out
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
    }
}
