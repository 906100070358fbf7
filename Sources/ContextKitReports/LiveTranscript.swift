import ContextKit
import ContextKitJSON
import ContextKitServing
import Foundation

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

    /// The client for the server `url` names.
    var client: OpenAICompatibleClient { OpenAICompatibleClient(baseURL: url, timeout: timeout) }

    /// The chat-completions endpoint under `url`.
    package var endpoint: URL { client.completionsURL }

    /// The server's context size when it says (llama.cpp's `/props`, vLLM's `/v1/models`), else nil.
    package func serverContextSize() async -> Int? {
        await client.contextWindow(model: model)
    }

    /// Sends `documents` one per turn after `instructions` (empty: no system message).
    /// - Parameter onTurn: called after each turn, for progress output.
    package func run(
        instructions: String, documents: [String], counter: MeasuredTokenizer,
        overheads: ModelProfile.Overheads, onTurn: (Turn) -> Void = { _ in }
    ) async -> [Turn] {
        let client = self.client
        var messages: [ChatTemplate.Message] = instructions.isEmpty ? [] : [.init(role: "system", content: instructions)]
        let instructionTokens = instructions.isEmpty ? 0 : counter.count(instructions)
        var exchanges: [TranscriptGrowth.Exchange] = []
        var turns: [Turn] = []
        for (index, document) in documents.enumerated() {
            messages.append(.init(role: "user", content: document))
            let prompt = counter.count(document)
            let model = TranscriptGrowth(
                instructions: instructionTokens, exchanges: exchanges + [.init(prompt: prompt, answer: 0)],
                window: Int.max, overheads: overheads)
            var turn = Turn(
                number: index + 1, messages: messages.count, predictedPrompt: model.turns.last!.reusedPrompt,
                measuredPrompt: nil, completionTokens: nil, predictedAnswer: 0, finishReason: nil, error: nil, refusalStatus: nil)
            let answer: String
            do {
                let reply = try await complete(messages, client: client)
                answer = reply.content ?? ""
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
            messages.append(.init(role: "assistant", content: answer))
            exchanges.append(.init(prompt: prompt, answer: turn.predictedAnswer))
            turns.append(turn)
            onTurn(turn)
        }
        return turns
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

    /// One turn: greedy and seeded, so a rerun sends the same conversation.
    private func complete(_ messages: [ChatTemplate.Message], client: OpenAICompatibleClient) async throws -> OpenAICompatibleClient.Completion {
        let reply: OpenAICompatibleClient.Completion
        do {
            reply = try await client.complete(
                messages: messages, model: model, maxTokens: maxAnswerTokens,
                extra: [JSONMember("temperature", .int(0)), JSONMember("seed", .int(1))])
        } catch let failure as OpenAICompatibleClient.Failure {
            switch failure {
            case let .httpError(status, body), let .contextOverflow(_, status, body):
                throw Refusal(
                    status: status, message: OpenAICompatibleClient.message(in: body),
                    promptTokens: (try? JSONParser.parse(body))?["error"]?["n_prompt_tokens"]?.intValue)
            default:
                throw failure
            }
        }
        guard reply.content != nil else {
            throw TransportError(description: "the server's answer has no choices[0].message; is \(endpoint) an OpenAI-compatible chat-completions endpoint?")
        }
        return reply
    }
}
