import ContextKit
import ContextKitJSON

/// Measures what a chat server really charges, one variable at a time, and
/// sets each measurement beside ContextKit's prediction.
///
/// Each probe sends a request with `max_tokens: 1` and reads
/// `usage.prompt_tokens`; the overflow probe sends a prompt longer than the
/// window on purpose and reads the count out of the refusal. Overheads are
/// differences between probes that change one thing (an empty user message,
/// one more message, a system prompt, a response schema).
package struct OverflowProbe: Sendable {
    package let client: OpenAICompatibleClient
    package let predictor: PromptPredictor?
    /// The model name to send, if the server wants one.
    package let model: String?

    package init(client: OpenAICompatibleClient, predictor: PromptPredictor?, model: String? = nil) {
        self.client = client
        self.predictor = predictor
        self.model = model
    }

    /// One probe: the request, what the server charged, what ContextKit predicted.
    package struct Measurement: Sendable {
        package let name: String
        package let messages: [ChatTemplate.Message]
        package let measured: Int?
        package let predicted: Int?
        /// Why `measured` is missing, or what else the server said.
        package let note: String?

        package var difference: Int? {
            guard let measured, let predicted else { return nil }
            return predicted - measured
        }
    }

    /// Fixed costs derived from the measurements.
    package struct Overheads: Sendable {
        /// An empty user message: the template's framing of one turn plus the opened assistant turn.
        package let emptyUserMessage: Int?
        /// Each further message (an assistant and a user turn, averaged).
        package let perExtraMessage: Int?
        /// An empty system message.
        package let systemPrompt: Int?
        /// A `response_format` JSON schema (0 where the schema only constrains decoding).
        package let responseSchema: Int?
    }

    /// Everything a run found.
    package struct Report: Sendable {
        package let measurements: [Measurement]
        package let overheads: Overheads
        /// The deliberate overflow: what the server said, or `nil` if it could not be provoked.
        package let overflow: ContextOverflow?
        /// The predicted prompt tokens of the overflow request.
        package let overflowPredicted: Int?
        /// Plain words on what could not be measured and why.
        package let notes: [String]
    }

    /// The probes, in the order they are sent.
    package static let probes: [(String, [ChatTemplate.Message])] = [
        ("empty user message", [.init(role: "user", content: "")]),
        ("user: test", [.init(role: "user", content: "test")]),
        ("user, assistant, user (empty)", [.init(role: "user", content: ""), .init(role: "assistant", content: ""), .init(role: "user", content: "")]),
        ("empty system + empty user", [.init(role: "system", content: ""), .init(role: "user", content: "")]),
        (
            "system + user",
            [
                .init(role: "system", content: "You are a careful assistant. Answer in one sentence."),
                .init(role: "user", content: "What does a context window limit?")
            ]
        )
    ]

    /// A small structured-output schema (the field notes' `Summary`), its
    /// keys in sorted order at every level: the order it was sent in when
    /// the measurements in the field notes were made.
    package static var summarySchema: OrderedJSON {
        func object(_ members: (String, OrderedJSON)...) -> OrderedJSON { .object(members.map { JSONMember($0.0, $0.1) }) }
        return object(
            (
                "json_schema",
                object(
                    ("name", .string("Summary")),
                    (
                        "schema",
                        object(
                            ("description", .string("A short summary of a piece of text")),
                            (
                                "properties",
                                object(
                                    ("headline", object(("description", .string("A headline of at most eight words")), ("type", .string("string")))),
                                    (
                                        "points",
                                        object(
                                            ("description", .string("The main points, one short sentence each")),
                                            ("items", object(("type", .string("string")))),
                                            ("maxItems", .int(3)), ("minItems", .int(3)), ("type", .string("array")))
                                    ))
                            ),
                            ("required", .array([.string("headline"), .string("points")])),
                            ("type", .string("object")))
                    ))
            ),
            ("type", .string("json_schema")))
    }

    /// Runs every probe. `window` is the server's context size, when known,
    /// to size the overflow request; without it the overflow probe is skipped.
    package func run(window: Int?) async -> Report {
        var measurements: [Measurement] = []
        var notes: [String] = []
        for (name, messages) in Self.probes {
            let (measurement, unreachable) = await measure(name, messages)
            measurements.append(measurement)
            if unreachable {
                // Nothing else can be measured; say so once instead of once per probe.
                return Report(
                    measurements: measurements, overheads: Overheads(emptyUserMessage: nil, perExtraMessage: nil, systemPrompt: nil, responseSchema: nil),
                    overflow: nil, overflowPredicted: nil, notes: ["the server could not be reached, so nothing was measured"])
            }
        }
        let (schema, _) = await measure(
            "empty user message + response_format schema", [.init(role: "user", content: "")],
            extra: [JSONMember("response_format", Self.summarySchema)])
        measurements.append(schema)

        func measured(_ i: Int) -> Int? { measurements[i].measured }
        let empty = measured(0)
        let overheads = Overheads(
            emptyUserMessage: empty,
            perExtraMessage: zip2(measured(2), empty).map { ($0 - $1) / 2 },
            systemPrompt: zip2(measured(3), empty).map { $0 - $1 },
            responseSchema: zip2(schema.measured, empty).map { $0 - $1 })

        var overflow: ContextOverflow? = nil
        var overflowPredicted: Int? = nil
        if let window {
            // About 1.5 windows of text: one token per repeated word in every vocabulary we know.
            let text = String(repeating: " hello", count: window + window / 2)
            let messages = [ChatTemplate.Message(role: "user", content: text)]
            overflowPredicted = try? predictor?.promptTokens(messages)
            do {
                let completion = try await client.complete(messages: messages, model: model, maxTokens: 1)
                notes.append(
                    "the server accepted a prompt of about \(window + window / 2) tokens for a \(window)-token window and charged \(completion.promptTokens.map(String.init) ?? "an unreported number of") prompt tokens: it truncates silently instead of refusing (Ollama does this), so its overflow cannot be measured"
                )
            } catch let failure as OpenAICompatibleClient.Failure {
                if case let .contextOverflow(found, _, body) = failure {
                    overflow = found
                    if found.promptTokens == nil { notes.append("the overflow error carries no token count: \(body.prefix(200))") }
                } else {
                    notes.append("the overflow request failed for another reason: \(failure)")
                }
            } catch {
                notes.append("the overflow request failed: \(error)")
            }
        } else {
            notes.append("the context window is unknown (give --window), so no overflow was provoked")
        }
        if predictor == nil { notes.append("no tokenizer and chat template given (--gguf), so nothing was predicted") }
        return Report(measurements: measurements, overheads: overheads, overflow: overflow, overflowPredicted: overflowPredicted, notes: notes)
    }

    private func measure(_ name: String, _ messages: [ChatTemplate.Message], extra: [JSONMember] = []) async -> (Measurement, unreachable: Bool) {
        let predicted = extra.isEmpty ? (try? predictor?.promptTokens(messages)) ?? nil : nil
        do {
            let completion = try await client.complete(messages: messages, model: model, maxTokens: 1, extra: extra)
            return (
                Measurement(
                    name: name, messages: messages, measured: completion.promptTokens, predicted: predicted,
                    note: completion.promptTokens == nil ? "the server reported no usage.prompt_tokens" : nil), false
            )
        } catch {
            var unreachable = false
            if case OpenAICompatibleClient.Failure.unreachable = error { unreachable = true }
            return (Measurement(name: name, messages: messages, measured: nil, predicted: predicted, note: "\(error)"), unreachable)
        }
    }

    private func zip2(_ a: Int?, _ b: Int?) -> (Int, Int)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}
