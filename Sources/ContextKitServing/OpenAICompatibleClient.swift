import ContextKit
import ContextKitHTTP
import ContextKitJSON
import Foundation
import Render
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one client for OpenAI-compatible servers (llama.cpp's llama-server,
/// vLLM, Ollama, LM Studio, OpenAI): chat completions whole (`complete`, what
/// the overflow probe and the transcript measurement need) or streamed
/// (`openStream`, what the summariser's backend reads), the models the server
/// lists, and the server's context window. Over `HTTPClient`, so every caller
/// gets the same time-outs, size caps and base-URL rule (`ServerBaseURL`).
package struct OpenAICompatibleClient: Sendable {
    /// The server's URL as given (`http://127.0.0.1:8080`, with or without `/v1`).
    package let baseURL: URL
    /// Where its endpoints are.
    package let server: ServerBaseURL
    /// Sent as `Authorization: Bearer KEY`; nil sends no credentials.
    package let apiKey: String?
    /// Seconds before a request is abandoned, whether the server is silent
    /// or still sending (a server that trickles bytes forever is stopped too).
    package let timeout: TimeInterval
    /// Bytes of answer accepted; a chat completion of a few tokens is far
    /// smaller, so more means a broken server, not a long answer.
    package let maximumResponseBytes: Int
    /// The HTTP client, carrying the credentials and the silence time-out.
    package let http: HTTPClient

    /// A client for the server at `baseURL`; nothing is sent until asked.
    package init(baseURL: URL, apiKey: String? = nil, timeout: TimeInterval = 120, maximumResponseBytes: Int = 16 << 20) {
        self.baseURL = baseURL
        self.server = ServerBaseURL(baseURL)
        self.apiKey = apiKey
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.http = HTTPClient(timeout: timeout, headers: apiKey.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    /// `/v1/chat/completions`.
    package var completionsURL: URL { server.api("chat/completions") }
    /// `/v1/models`: what the server serves (and whether it answers at all).
    package var modelsURL: URL { server.api("models") }
    /// llama.cpp's `/props`, beside the API.
    package var propsURL: URL { server.beside("props") }

    /// Seconds a models or window request may take in all.
    package var probeTimeout: TimeInterval { min(timeout, 10) }
    /// Bytes a models or window answer may take.
    static let probeBodyLimit = 1 << 20

    /// One request's answer: what the server charged and returned.
    package struct Completion: Sendable {
        /// `choices[0].message.content`; nil when the answer has no `choices[0].message`.
        package let content: String?
        /// `usage.prompt_tokens`.
        package let promptTokens: Int?
        /// `usage.completion_tokens`.
        package let completionTokens: Int?
        /// `choices[0].finish_reason`.
        package let finishReason: String?
    }

    /// Why a request failed, in terms the user can act on.
    package enum Failure: Error, CustomStringConvertible, Sendable {
        /// No connection, or a connection on which the server sent nothing within the time-out.
        case unreachable(url: String, reason: String)
        /// The server refused the prompt as too long (HTTP `status`); `body` is its answer.
        case contextOverflow(ContextOverflow, status: Int, body: String)
        /// Any other non-2xx answer.
        case httpError(status: Int, body: String)
        /// A 2xx answer that is not a chat completion.
        case malformedResponse(String)
        /// The server began answering but did not finish within the time-out.
        case timedOut(url: String, seconds: TimeInterval)
        /// The answer grew past `maximumResponseBytes`.
        case tooLarge(url: String, limit: Int)
        /// The connection closed before the answer was complete.
        case incomplete(url: String, receivedBytes: Int)

        /// What went wrong and what to check.
        package var description: String {
            switch self {
            case let .unreachable(url, reason):
                return "cannot reach \(url): \(reason); check that the server is running and the URL is right"
            case let .timedOut(url, seconds):
                return "\(url) started answering but did not finish within \(NumberFormat.duration(seconds: seconds)); raise the time-out if the server is just slow"
            case let .tooLarge(url, limit):
                let size = limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit) bytes"
                return "\(url) sent more than \(size) for one chat completion; it is not answering as an OpenAI-compatible server would"
            case let .incomplete(url, received):
                return "\(url) closed the connection after \(received) bytes, before the answer was complete; check the server's log"
            case let .contextOverflow(overflow, _, _):
                let counts = overflow.promptTokens.map { "\($0) prompt tokens" } ?? "an unknown number of tokens"
                let window = overflow.contextWindow.map { " for a window of \($0)" } ?? ""
                return "the server refused the request as too long (\(counts)\(window))"
            case let .httpError(status, body):
                return "the server answered HTTP \(status): \(body.prefix(300))"
            case let .malformedResponse(reason):
                return "the server's answer is not an OpenAI-compatible chat completion: \(reason)"
            }
        }
    }

    // MARK: Chat completions

    /// The JSON body of one chat completion; `extra` members follow
    /// (`response_format`, `seed`, `temperature` …), replacing any of the same name.
    package func requestBody(
        messages: [ChatTemplate.Message], model: String?, maxTokens: Int, stream: Bool,
        extra: [JSONMember] = []
    ) -> Data {
        var body = OrderedJSON.object([])
        if let model { body = body.setting("model", to: .string(model)) }
        body = body.setting("messages", to: .array(messages.map { .object([JSONMember("role", .string($0.role)), JSONMember("content", .string($0.content))]) }))
        body = body.setting("max_tokens", to: .int(maxTokens)).setting("stream", to: .bool(stream))
        for member in extra { body = body.setting(member.key, to: member.value) }
        return Data(JSONWriter(style: .compact(escapingSlashes: false)).write(body).utf8)
    }

    /// The POST of `body` to the chat-completions endpoint.
    func completionRequest(_ body: Data, stream: Bool) -> URLRequest {
        var headers = ["Content-Type": "application/json"]
        if stream { headers["Accept"] = "text/event-stream" }
        return http.request(completionsURL, method: "POST", headers: headers, body: body)
    }

    /// Sends one chat completion and reads the whole answer within `timeout`.
    /// `extra` is merged into the JSON body (`response_format`, `seed`, `temperature` …).
    /// Throws a `Failure`, or `CancellationError` when the task is cancelled.
    package func complete(
        messages: [ChatTemplate.Message], model: String? = nil, maxTokens: Int = 1,
        extra: [JSONMember] = []
    ) async throws -> Completion {
        let request = completionRequest(requestBody(messages: messages, model: model, maxTokens: maxTokens, stream: false, extra: extra), stream: false)
        let response: HTTPResponse
        do {
            response = try await http.fetch(request, within: timeout, limit: maximumResponseBytes)
        } catch {
            throw try failure(error)
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard let json = try? JSONParser.parse([UInt8](response.body)), json.members != nil else {
            throw Failure.malformedResponse("not JSON: \(text.prefix(200))")
        }
        let choice = json["choices"]?.elements?.first
        return Completion(
            content: choice?["message"].map { $0["content"]?.stringValue ?? "" },
            promptTokens: json["usage"]?["prompt_tokens"]?.intValue,
            completionTokens: json["usage"]?["completion_tokens"]?.intValue,
            finishReason: choice?["finish_reason"]?.stringValue)
    }

    /// `error` in the terms of `Failure`; cancellation stays cancellation.
    private func failure(_ error: HTTPFailure) throws -> Failure {
        switch error {
        case let .unreachable(url, reason):
            return .unreachable(url: url, reason: reason)
        case let .silent(url, _, answered), let .deadlinePassed(url, _, answered):
            return answered ? .timedOut(url: url, seconds: timeout) : .unreachable(url: url, reason: "the server sent nothing within \(NumberFormat.duration(seconds: timeout))")
        case let .tooLarge(url, limit):
            return .tooLarge(url: url, limit: limit)
        case let .broken(url, reason, answered, received):
            return answered ? .incomplete(url: url, receivedBytes: received) : .unreachable(url: url, reason: reason)
        case let .status(refusal):
            if let overflow = ContextOverflow.parse(refusal.body) { return .contextOverflow(overflow, status: refusal.status, body: refusal.body) }
            return .httpError(status: refusal.status, body: refusal.body)
        case .cancelled:
            throw CancellationError()
        }
    }

    /// Sends one streamed chat completion (`body` from `requestBody(…, stream: true)`)
    /// and returns once a 2xx status is in; the events are read from the
    /// response. A 5xx or 429 is retried as `retry` says.
    package func openStream(_ body: Data, retry: RetryPolicy) async throws(HTTPFailure) -> HTTPResponseStream {
        try await http.open(completionRequest(body, stream: true), retry: retry)
    }

    // MARK: Models and window

    /// `/v1/models`, parsed, within `probeTimeout`.
    package func models() async throws(HTTPFailure) -> OrderedJSON? {
        try await probe(modelsURL)
    }

    /// Why nothing answers at the server's address, or nil when something
    /// does (whatever it answers, even an HTTP error). A tool that plans for
    /// or talks to a server asks first, so a wrong port is an error, not a
    /// plan for a fallback model.
    package func unreachable() async -> Failure? {
        do throws(HTTPFailure) {
            _ = try await probe(modelsURL)
            return nil
        } catch {
            guard let failure = try? failure(error), case .unreachable = failure else { return nil }
            return failure
        }
    }

    /// The server's context window, where it says: llama.cpp's `/props`
    /// (`default_generation_settings.n_ctx`, or `n_ctx`), else vLLM's
    /// `max_model_len` in `/v1/models` for `model` (or the first model).
    /// nil for servers that don't tell.
    package func contextWindow(model: String? = nil) async -> Int? {
        await serverModel(model: model).contextWindow
    }

    /// A small GET, parsed: all of it within `probeTimeout`, at most
    /// `probeBodyLimit` bytes; nil when the answer is not JSON.
    func probe(_ url: URL) async throws(HTTPFailure) -> OrderedJSON? {
        let response = try await http.fetch(http.request(url), within: probeTimeout, limit: Self.probeBodyLimit)
        return try? JSONParser.parse([UInt8](response.body))
    }

    /// The `error.message` (or `message`, or `detail`) of a JSON error body,
    /// else the body's start; what a refusal says, to quote.
    package static func message(in body: String) -> String {
        let json = try? JSONParser.parse(body)
        if let message = json?["error"]?["message"]?.stringValue ?? json?["message"]?.stringValue ?? json?["detail"]?.stringValue {
            return message
        }
        let trimmed = String(decoding: body.utf8.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "no details" : trimmed
    }
}
