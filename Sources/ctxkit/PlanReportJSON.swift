import ContextKit
import ContextKitJSON

/// `ctxkit plan --json`: the plan as one JSON document.
extension PlanCommand.Report {
    func json() -> OrderedJSON {
        let profile = job.profile
        var characterEnd = 0
        let chunkList: [OrderedJSON] = chunks.chunks.map { chunk in
            var fields: [JSONMember] = [
                JSONMember("index", .int(chunk.index + 1)),
                JSONMember("bytes", .object([JSONMember("start", .int(chunk.bytes.lowerBound)), JSONMember("end", .int(chunk.bytes.upperBound))])),
                JSONMember("characters", .object([JSONMember("start", .int(chunk.characters.lowerBound)), JSONMember("end", .int(chunk.characters.upperBound))]))
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
                JSONMember("firstWords", .string(firstWords(chunk)))
            ]
            return .object(fields)
        }
        let calls = try? callPlan.get()
        let levels: [OrderedJSON] = (calls?.levels ?? []).map { level in
            .object([
                JSONMember("kind", .string(level.kind.rawValue)),
                JSONMember(
                    "calls",
                    .array(
                        level.calls.map { call in
                            .object([
                                JSONMember("inputs", .array(call.inputs.map { .int($0 + 1) })), JSONMember("inputTokens", .int(call.inputTokens)),
                                JSONMember("tokensSent", .int(call.tokensSent))
                            ])
                        }))
            ])
        }
        let latency = job.latency
        return .object([
            JSONMember("file", .string(job.path)),
            JSONMember("profile", .string(profile.name)),
            JSONMember("profileSource", .optional(job.profileSource)),
            JSONMember("tokenizer", .string(profile.tokenizer.description)),
            JSONMember(
                "estimate",
                profile.estimate.map { .object([JSONMember("factor", .double($0.factor)), JSONMember("errorBar", .double($0.errorBar)), JSONMember("method", .string($0.method))]) }
                    ?? .null),
            JSONMember(
                "budget",
                .object([
                    JSONMember("window", .int(budget.window)), JSONMember("requestOverhead", .int(budget.requestOverhead)),
                    JSONMember("instructions", .int(budget.instructions)), JSONMember("schema", .int(budget.schema)), JSONMember("schemaFraming", .int(schemaFraming)),
                    JSONMember("sourceFrame", .int(budget.frame)),
                    JSONMember("reserve", .int(budget.reserve)), JSONMember("overlap", .int(budget.overlap)),
                    JSONMember("room", .int(budget.room)), JSONMember("newTextPerChunk", .int(budget.newTextPerChunk))
                ])),
            JSONMember(
                "text",
                .object([
                    JSONMember("bytes", .int(chunks.textBytes)), JSONMember("characters", .int(chunks.textCharacters)),
                    JSONMember("tokens", .int(chunks.textTokens)), JSONMember("tokenizerTokens", .int(chunks.textProxyTokens))
                ])),
            JSONMember("chunks", .array(chunkList)),
            JSONMember("meanFill", .double((chunks.meanFill * 1000).rounded() / 1000)),
            JSONMember(
                "plan",
                calls.map { calls in
                    .object([
                        JSONMember("summaryTokens", .int(calls.summaryTokens)), JSONMember("summarySource", .string(summarySource)),
                        JSONMember("fanIn", .int(calls.fanIn)), JSONMember("passThrough", .bool(calls.passThrough)),
                        JSONMember("levels", .array(levels)),
                        JSONMember("calls", .int(calls.totalCalls)), JSONMember("tokensSent", .int(calls.tokensSent)), JSONMember("outputTokens", .int(calls.outputTokens))
                    ])
                }
                    ?? .object([
                        JSONMember("summaryTokens", .int(summary.tokens)), JSONMember("summarySource", .string(summarySource)),
                        JSONMember("error", .string(callPlan.errorDescription))
                    ])),
            JSONMember(
                "time",
                .object([
                    JSONMember("seconds", calls.map { .double((seconds($0) * 100).rounded() / 100) } ?? .null), JSONMember("estimate", .bool(true)),
                    JSONMember("measured", .bool(latency.measured)),
                    JSONMember("source", .string(latency.source)),
                    JSONMember("coldFirstToken", .double(latency.coldFirstToken)), JSONMember("warmFirstToken", .double(latency.warmFirstToken)),
                    JSONMember("outputCharactersPerSecond", .double(latency.outputCharactersPerSecond)),
                    JSONMember("idleSeconds", .double(job.idle)), JSONMember("concurrency", .int(job.concurrency))
                ])),
            JSONMember("planningSeconds", .double((planningSeconds.wall * 10000).rounded() / 10000)),
            JSONMember("planningCPUSeconds", .double((planningSeconds.cpu * 10000).rounded() / 10000))
        ])
    }
}

extension Result where Failure == PlanError {
    var errorDescription: String {
        if case let .failure(error) = self { return error.description }
        return ""
    }
}
