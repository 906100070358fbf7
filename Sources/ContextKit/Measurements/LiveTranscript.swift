import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs a reused-session conversation against an OpenAI-compatible server
/// (`POST /v1/chat/completions`: llama.cpp's llama-server, vLLM, Ollama, LM
/// Studio, OpenAI) and records, per turn, the `prompt_tokens` the server
/// charged next to what `TranscriptGrowth` predicts from the same text.
///
/// Each turn resends the whole conversation, as a reused session does. The
/// run stops at the first turn the server refuses (typically: the context is
/// exceeded); llama.cpp's refusal carries the prompt's size
/// (`n_prompt_tokens`), which is kept as that turn's measurement.
package struct LiveTranscript: Sendable {
    package struct Turn: Equatable, Sendable {
        package var number: Int
        /// Messages sent (instructions, earlier prompts and answers, the new prompt).
        package var messages: Int
        /// The prompt tokens predicted with the profile's tokenizer and overheads.
        package var predictedPrompt: Int
        /// `usage.prompt_tokens`, or the refusal's `n_prompt_tokens`.
        package var measuredPrompt: Int?
        /// `usage.completion_tokens`.
        package var completionTokens: Int?
        /// The answer's tokens as the profile counts them (they go into the next prediction).
        package var predictedAnswer: Int
        package var finishReason: String?
        /// The server's refusal or the transport failure that ended the run.
        package var error: String?
        /// The HTTP status of a refusal; nil when the server was not reached.
        package var refusalStatus: Int?
    }

    /// The server's base URL (`http://127.0.0.1:8080`) or its full chat-completions URL.
    package var url: URL
    /// The `model` field; servers that host one model ignore it.
    package var model: String
    /// `max_tokens` of every answer.
    package var maxAnswerTokens: Int
    package var timeout: TimeInterval

    package init(url: URL, model: String = "default", maxAnswerTokens: Int, timeout: TimeInterval = 300) {
        self.url = url
        self.model = model
        self.maxAnswerTokens = maxAnswerTokens
        self.timeout = timeout
    }

    /// The chat-completions endpoint under `url`.
    package var endpoint: URL {
        let path = url.path
        if path.hasSuffix("/chat/completions") { return url }
        if path.hasSuffix("/v1") || path.hasSuffix("/v1/") { return url.appendingPathComponent("chat/completions") }
        return url.appendingPathComponent("v1/chat/completions")
    }

    /// The server's context size when it says (llama.cpp's `/props`), else nil.
    package func serverContextSize() -> Int? {
        var base = endpoint
        for _ in 0..<2 { base.deleteLastPathComponent() }
        if base.path.hasSuffix("/v1") { base.deleteLastPathComponent() }
        var request = URLRequest(url: base.appendingPathComponent("props"), timeoutInterval: min(timeout, 10))
        request.httpMethod = "GET"
        guard let (status, data) = try? send(request), status == 200,
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let settings = json["default_generation_settings"] as? [String: Any] else { return nil }
        return (settings["n_ctx"] as? NSNumber)?.intValue ?? (json["n_ctx"] as? NSNumber)?.intValue
    }

    /// Sends `documents` one per turn after `instructions` (empty: no system message).
    /// - Parameter onTurn: called after each turn, for progress output.
    package func run(instructions: String, documents: [String], counter: MeasuredTokenizer,
                    overheads: ModelProfile.Overheads, onTurn: (Turn) -> Void = { _ in }) -> [Turn] {
        var messages: [[String: String]] = instructions.isEmpty ? [] : [["role": "system", "content": instructions]]
        let instructionTokens = instructions.isEmpty ? 0 : counter.count(instructions)
        var exchanges: [TranscriptGrowth.Exchange] = []
        var turns: [Turn] = []
        for (index, document) in documents.enumerated() {
            messages.append(["role": "user", "content": document])
            let prompt = counter.count(document)
            let model = TranscriptGrowth(instructions: instructionTokens, exchanges: exchanges + [.init(prompt: prompt, answer: 0)],
                                         window: Int.max, overheads: overheads)
            var turn = Turn(number: index + 1, messages: messages.count, predictedPrompt: model.turns.last!.reusedPrompt,
                            measuredPrompt: nil, completionTokens: nil, predictedAnswer: 0, finishReason: nil, error: nil, refusalStatus: nil)
            let answer: String
            do {
                let reply = try complete(messages)
                answer = reply.content
                turn.measuredPrompt = reply.promptTokens
                turn.completionTokens = reply.completionTokens
                turn.finishReason = reply.finishReason
            } catch let refusal as Refusal {
                turn.measuredPrompt = refusal.promptTokens
                turn.error = refusal.message
                turn.refusalStatus = refusal.status
                turns.append(turn)
                onTurn(turn)
                break
            } catch {
                turn.error = "\(error)"
                turns.append(turn)
                onTurn(turn)
                break
            }
            turn.predictedAnswer = counter.count(answer)
            messages.append(["role": "assistant", "content": answer])
            exchanges.append(.init(prompt: prompt, answer: turn.predictedAnswer))
            turns.append(turn)
            onTurn(turn)
        }
        return turns
    }

    struct Reply {
        var content: String
        var promptTokens: Int?
        var completionTokens: Int?
        var finishReason: String?
    }

    /// A non-2xx answer: the server's message, and the prompt size if it gave one.
    struct Refusal: Error, CustomStringConvertible {
        var status: Int
        var message: String
        var promptTokens: Int?
        var description: String { "HTTP \(status): \(message)" }
    }

    struct TransportError: Error, CustomStringConvertible {
        var description: String
    }

    private func complete(_ messages: [[String: String]]) throws -> Reply {
        var request = URLRequest(url: endpoint, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // Greedy and seeded, so a rerun sends the same conversation.
        let body: [String: Any] = ["model": model, "messages": messages, "max_tokens": maxAnswerTokens,
                                   "temperature": 0, "seed": 1, "stream": false]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (status, data) = try send(request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard (200..<300).contains(status) else {
            let error = json?["error"] as? [String: Any]
            let message = (error?["message"] as? String) ?? (json?["message"] as? String)
                ?? String(decoding: data.prefix(300), as: UTF8.self)
            throw Refusal(status: status, message: message, promptTokens: (error?["n_prompt_tokens"] as? NSNumber)?.intValue)
        }
        guard let json, let choices = json["choices"] as? [[String: Any]], let first = choices.first,
              let message = first["message"] as? [String: Any] else {
            throw TransportError(description: "the server's answer has no choices[0].message; is \(endpoint) an OpenAI-compatible chat-completions endpoint?")
        }
        let usage = json["usage"] as? [String: Any]
        return Reply(content: (message["content"] as? String) ?? "",
                     promptTokens: (usage?["prompt_tokens"] as? NSNumber)?.intValue,
                     completionTokens: (usage?["completion_tokens"] as? NSNumber)?.intValue,
                     finishReason: first["finish_reason"] as? String)
    }

    /// One request, waited for (the CLI is synchronous). The session's own
    /// limits are raised to `timeout`: a small CPU-bound server can take
    /// minutes over a long prompt, and FoundationNetworking otherwise gives up
    /// after its 60-second default whatever the request says.
    private func send(_ request: URLRequest) throws -> (Int, Data) {
        final class Box: @unchecked Sendable {
            var result: Result<(Int, Data), Error> = .failure(TransportError(description: "no answer"))
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let url = request.url?.absoluteString ?? "?"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        configuration.timeoutIntervalForResource = request.timeoutInterval
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            if let error {
                box.result = .failure(TransportError(description: "cannot reach \(url): \(error.localizedDescription); is the server running?"))
            } else {
                box.result = .success(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
            }
            done.signal()
        }.resume()
        done.wait()
        return try box.result.get()
    }
}
