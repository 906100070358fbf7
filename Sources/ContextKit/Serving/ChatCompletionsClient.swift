import ContextKitHTTP
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A minimal client for OpenAI-compatible `/v1/chat/completions` servers
/// (llama.cpp's llama-server, vLLM, Ollama, LM Studio, OpenAI), non-streaming:
/// what the overflow probe and the transcript measurement need.
package struct ChatCompletionsClient: Sendable {
    /// The server's base URL, e.g. `http://127.0.0.1:8080` (a trailing `/v1` is accepted).
    package let baseURL: URL
    package let apiKey: String?
    /// Seconds before a request is abandoned, whether the server is silent
    /// or still sending (a server that trickles bytes forever is stopped too).
    package let timeout: TimeInterval
    /// Bytes of answer accepted; a chat completion of a few tokens is far
    /// smaller, so more means a broken server, not a long answer.
    package let maximumResponseBytes: Int

    package init(baseURL: URL, apiKey: String? = nil, timeout: TimeInterval = 120, maximumResponseBytes: Int = 16 << 20) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// One request's answer: what the server charged and returned.
    package struct Completion: Sendable {
        package let content: String
        package let promptTokens: Int?
        package let completionTokens: Int?
    }

    /// Why a request failed, in terms the user can act on.
    package enum Failure: Error, CustomStringConvertible, Sendable {
        /// No connection, or a connection on which the server sent nothing within the time-out.
        case unreachable(url: String, reason: String)
        case contextOverflow(ContextOverflow, body: String)
        case httpError(status: Int, body: String)
        case malformedResponse(String)
        /// The server began answering but did not finish within the time-out.
        case timedOut(url: String, seconds: TimeInterval)
        /// The answer grew past `maximumResponseBytes`.
        case tooLarge(url: String, limit: Int)
        /// The connection closed before the answer was complete.
        case incomplete(url: String, receivedBytes: Int)

        package var description: String {
            switch self {
            case let .unreachable(url, reason):
                return "cannot reach \(url): \(reason); check that the server is running and the URL is right"
            case let .timedOut(url, seconds):
                return "\(url) started answering but did not finish within \(Self.seconds(seconds)) s; raise the time-out if the server is just slow"
            case let .tooLarge(url, limit):
                let size = limit >= 1 << 20 ? "\(limit >> 20) MB" : "\(limit) bytes"
                return "\(url) sent more than \(size) for one chat completion; it is not answering as an OpenAI-compatible server would"
            case let .incomplete(url, received):
                return "\(url) closed the connection after \(received) bytes, before the answer was complete; check the server's log"
            case let .contextOverflow(overflow, _):
                let counts = overflow.promptTokens.map { "\($0) prompt tokens" } ?? "an unknown number of tokens"
                let window = overflow.contextWindow.map { " for a window of \($0)" } ?? ""
                return "the server refused the request as too long (\(counts)\(window))"
            case let .httpError(status, body):
                return "the server answered HTTP \(status): \(body.prefix(300))"
            case let .malformedResponse(reason):
                return "the server's answer is not an OpenAI-compatible chat completion: \(reason)"
            }
        }

        private static func seconds(_ t: TimeInterval) -> String {
            t == t.rounded() ? String(Int(t)) : String(format: "%.1f", t)
        }
    }

    var completionsURL: URL { endpoint("chat/completions") }

    /// `/v1/models`: what the server serves (and whether it answers at all).
    package var modelsURL: URL { endpoint("models") }

    private func endpoint(_ name: String) -> URL {
        let path = baseURL.path.hasSuffix("/v1") || baseURL.path.hasSuffix("/v1/") ? name : "v1/" + name
        return baseURL.appendingPathComponent(path)
    }

    /// The HTTP request for one chat completion; `extra` is merged into the
    /// JSON body (`response_format`, `seed`, `temperature` …). Shared by
    /// `complete` and streaming clients, so both send the same request.
    package func makeRequest(messages: [ChatTemplate.Message], model: String? = nil, maxTokens: Int,
                            stream: Bool = false, extra: [String: Any] = [:]) throws -> URLRequest {
        var body: [String: Any] = [
            "messages": messages.map { ["role": $0.role, "content": $0.content] },
            "max_tokens": maxTokens,
            "stream": stream,
        ]
        if let model { body["model"] = model }
        for (k, v) in extra { body[k] = v }
        var request = URLRequest(url: completionsURL, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if stream { request.setValue("text/event-stream", forHTTPHeaderField: "Accept") }
        if let apiKey { request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return request
    }

    /// Sends one chat completion request. `extra` is merged into the JSON body
    /// (`response_format`, `seed`, `temperature` …).
    package func complete(messages: [ChatTemplate.Message], model: String? = nil, maxTokens: Int = 1,
                         extra: [String: Any] = [:]) async throws -> Completion {
        let request = try makeRequest(messages: messages, model: model, maxTokens: maxTokens, extra: extra)
        let (status, data) = try await BoundedFetch.run(request, timeout: timeout, limit: maximumResponseBytes)
        let text = String(decoding: data, as: UTF8.self)
        guard (200..<300).contains(status) else {
            if let overflow = ContextOverflow.parse(text) { throw Failure.contextOverflow(overflow, body: text) }
            throw Failure.httpError(status: status, body: text)
        }
        guard let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Failure.malformedResponse("not JSON: \(text.prefix(200))")
        }
        let usage = json["usage"] as? [String: Any]
        let choices = json["choices"] as? [[String: Any]]
        let message = choices?.first?["message"] as? [String: Any]
        return Completion(content: message?["content"] as? String ?? "",
                          promptTokens: usage?["prompt_tokens"] as? Int,
                          completionTokens: usage?["completion_tokens"] as? Int)
    }
}

extension ChatCompletionsClient {
    /// The server's context window, where it says: llama.cpp's `/props`
    /// (`default_generation_settings.n_ctx`). `nil` for servers that don't tell.
    package func serverContextWindow() async -> Int? {
        var request = URLRequest(url: baseURL.appendingPathComponent("props"), timeoutInterval: min(timeout, 10))
        if let apiKey { request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
        guard let (_, data) = try? await BoundedFetch.run(request, timeout: min(timeout, 10), limit: 1 << 20),
              let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        let settings = json["default_generation_settings"] as? [String: Any]
        return (settings?["n_ctx"] as? Int) ?? (json["n_ctx"] as? Int)
    }
}

/// One HTTP exchange with a deadline on the whole of it and a cap on the body.
///
/// A request's `timeoutInterval` only bounds silence, and reading to the end
/// keeps whatever arrives: a server that sends a byte a second, or a
/// gigabyte, would hold the caller forever or fill its memory. The exchange
/// goes over `HTTPByteStream`, so a local server's slow answer is waited for
/// without spinning (see `PlainHTTPConnection`).
private enum BoundedFetch {
    /// Enough of an error body to quote; the rest of a huge one is not read.
    static let errorBodyLimit = 64 << 10

    /// Whether the server has sent anything: a deadline then means "too slow", not "unreachable".
    private actor Exchange {
        private(set) var started = false
        func start() { started = true }
    }

    /// The status and body of `request`, or a `ChatCompletionsClient.Failure`.
    static func run(_ request: URLRequest, timeout: TimeInterval, limit: Int) async throws -> (Int, Data) {
        let url = request.url?.absoluteString ?? "the server"
        let exchange = Exchange()
        return try await withThrowingTaskGroup(of: (Int, Data)?.self) { group in
            group.addTask { try await read(request, url: url, timeout: timeout, limit: limit, exchange: exchange) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            if let answer = try await group.next()! { return answer }
            throw await deadlineFailure(url: url, timeout: timeout, exchange: exchange)
        }
    }

    private static func deadlineFailure(url: String, timeout: TimeInterval, exchange: Exchange) async -> ChatCompletionsClient.Failure {
        await exchange.started
            ? .timedOut(url: url, seconds: timeout)
            : .unreachable(url: url, reason: "the server sent nothing within \(Int(timeout)) s")
    }

    private static func read(_ request: URLRequest, url: String, timeout: TimeInterval, limit: Int, exchange: Exchange) async throws -> (Int, Data) {
        var status: Int?
        var body = Data()
        do {
            for try await part in HTTPByteStream.open(request) {
                await exchange.start()
                switch part {
                case .status(let code, _):
                    status = code
                case .body(let data):
                    body.append(data)
                    if let status, !(200..<300).contains(status), body.count >= errorBodyLimit {
                        return (status, body.prefix(errorBodyLimit))
                    }
                    if body.count > limit { throw ChatCompletionsClient.Failure.tooLarge(url: url, limit: limit) }
                }
            }
        } catch let failure as ChatCompletionsClient.Failure {
            throw failure
        } catch {
            try Task.checkCancellation()
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
                throw await deadlineFailure(url: url, timeout: timeout, exchange: exchange)
            }
            if status != nil { throw ChatCompletionsClient.Failure.incomplete(url: url, receivedBytes: body.count) }
            throw ChatCompletionsClient.Failure.unreachable(url: url, reason: nsError.localizedDescription)
        }
        return (status ?? 0, body)
    }
}
