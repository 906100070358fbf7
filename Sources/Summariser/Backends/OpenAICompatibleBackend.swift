import ContextKitHTTP
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ContextKit

/// Chat completions over HTTP from any OpenAI-compatible server: llama.cpp's
/// llama-server, vLLM, Ollama, LM Studio, OpenAI.
///
/// - Streams with server-sent events (`stream: true`) and turns the deltas
///   into cumulative snapshots.
/// - A schema becomes `response_format: {type: json_schema}` (llama.cpp and
///   vLLM compile it to a grammar, so the answer always parses).
/// - Captures `usage` (asked for with `stream_options.include_usage`) and
///   llama.cpp's `timings`.
/// - Time-outs: `requestTimeout` is how long the connection may stay silent,
///   `totalTimeout` how long a whole answer may take.
/// - Retries a 5xx answer (llama-server's 503 while loading, a proxy's 502)
///   and a 429 (rate limited) up to `maxRetries` times, waiting what the
///   server's `Retry-After` asks, else `retryDelay`, then twice that, …; a
///   wait that would end after `totalTimeout` fails at once, saying how long.
/// - Context overflows are read with ContextKit's `ContextOverflow`, so the
///   engine gets the server's own counts.
///
/// Sessions are stateless on the wire: every request carries the session's
/// instructions as a system message and the prompt as the user message.
public struct OpenAICompatibleBackend: LanguageModelBackend {
    /// Where the server is, which model to ask for, and how patient to be.
    public struct Configuration: Sendable {
        /// The server's base URL (`http://127.0.0.1:8080`; a trailing `/v1` is accepted).
        public var baseURL: URL
        /// Sent as `model`; nil lets the server use the one it has loaded (llama-server).
        public var model: String?
        /// Sent as `Authorization: Bearer KEY`; nil sends no credentials.
        public var apiKey: String?
        /// Seconds the connection may stay silent before the request fails.
        public var requestTimeout: TimeInterval
        /// Seconds one answer may take from request to last token.
        public var totalTimeout: TimeInterval
        /// Retries of a 5xx or 429 answer.
        public var maxRetries: Int
        /// The wait before the first retry, doubled for each further one, when the server sends no `Retry-After`.
        public var retryDelay: Duration
        /// `max_tokens` when the request's options do not set it.
        public var defaultMaximumResponseTokens: Int

        /// A configuration for the server at `baseURL`; times in seconds.
        public init(baseURL: URL, model: String? = nil, apiKey: String? = nil, requestTimeout: TimeInterval = 120,
                    totalTimeout: TimeInterval = 600, maxRetries: Int = 2, retryDelay: Duration = .milliseconds(500),
                    defaultMaximumResponseTokens: Int = 512) {
            self.baseURL = baseURL
            self.model = model
            self.apiKey = apiKey
            self.requestTimeout = requestTimeout
            self.totalTimeout = totalTimeout
            self.maxRetries = maxRetries
            self.retryDelay = retryDelay
            self.defaultMaximumResponseTokens = defaultMaximumResponseTokens
        }
    }

    /// The server and limits this backend uses.
    public let configuration: Configuration
    let client: ChatCompletionsClient

    /// A backend for the server `configuration` names; nothing is sent until
    /// `availability()`, `contextSize()` or a session's first request.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.client = ChatCompletionsClient(baseURL: configuration.baseURL, apiKey: configuration.apiKey,
                                            timeout: configuration.requestTimeout)
    }

    /// `openai URL`, with the model in parentheses when one is configured.
    public var name: String { "openai \(configuration.baseURL.absoluteString)" + (configuration.model.map { " (\($0))" } ?? "") }

    // MARK: Availability and window

    /// Asks `/v1/models`: no answer is `unreachable`, 401/403 `unauthorised`,
    /// 503 (llama-server loading) or a model missing from the list `modelNotLoaded`.
    public func availability() async -> BackendAvailability {
        let url = client.modelsURL
        let (status, body): (Int, Data)
        do {
            (status, body) = try await get(url, timeout: probeTimeout)
        } catch {
            return .unavailable(.unreachable(url: configuration.baseURL.absoluteString, detail: Self.describe(error)))
        }
        switch status {
        case 200..<300:
            break
        case 401, 403:
            return .unavailable(.unauthorised(url: configuration.baseURL.absoluteString))
        case 503:
            return .unavailable(.modelNotLoaded(model: configuration.model, detail: Self.message(in: body)))
        default:
            return .unavailable(.unreachable(url: url.absoluteString, detail: "HTTP \(status): \(Self.message(in: body))"))
        }
        guard let model = configuration.model else { return .available }
        let ids = ((try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["data"] as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? String }
        let wanted = model.lowercased()
        if ids.isEmpty || ids.contains(where: { $0.lowercased() == wanted || $0.lowercased().contains(wanted) }) { return .available }
        return .unavailable(.modelNotLoaded(model: model, detail: "the server serves \(ids.joined(separator: ", "))"))
    }

    /// The server's window: llama.cpp's `/props` (`n_ctx`), else vLLM's
    /// `max_model_len` in `/v1/models`; nil when the server does not say.
    public func contextSize() async -> Int? {
        var root = configuration.baseURL
        if root.path.hasSuffix("/v1") || root.path.hasSuffix("/v1/") { root.deleteLastPathComponent() }
        if let (status, body) = try? await get(root.appendingPathComponent("props"), timeout: probeTimeout), status == 200,
           let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            let settings = json["default_generation_settings"] as? [String: Any]
            if let n = (settings?["n_ctx"] as? Int) ?? (json["n_ctx"] as? Int), n > 0 { return n }
        }
        if let (status, body) = try? await get(client.modelsURL, timeout: probeTimeout), status == 200,
           let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
           let models = json["data"] as? [[String: Any]] {
            let model = models.first { configuration.model == nil || $0["id"] as? String == configuration.model } ?? models.first
            if let n = model?["max_model_len"] as? Int, n > 0 { return n }
        }
        return nil
    }

    /// Seconds an availability or window probe may take in all.
    var probeTimeout: TimeInterval { min(configuration.requestTimeout, 10) }

    /// A small GET: all of it within `timeout` seconds, at most `getBodyLimit` bytes.
    private func get(_ url: URL, timeout: TimeInterval) async throws -> (Int, Data) {
        let request: URLRequest = {
            var request = URLRequest(url: url, timeoutInterval: timeout)
            if let key = configuration.apiKey { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
            return request
        }()
        return try await Self.within(seconds: timeout, orThrow: .transport("\(url.absoluteString) did not answer within \(Int(timeout)) s", status: nil)) {
            var status = 0
            var body = Data()
            for try await part in HTTPByteStream.open(request) {
                switch part {
                case .status(let code, _): status = code
                case .body(let data):
                    body.append(data)
                    if body.count > Self.getBodyLimit {
                        throw GenerationError.transport("\(url.absoluteString) sent more than \(Self.getBodyLimit) bytes", status: nil)
                    }
                }
            }
            return (status, body)
        }
    }

    static let getBodyLimit = 1 << 20

    /// A session that sends `instructions` as the system message of each
    /// request; `prewarm()` does nothing over HTTP.
    public func makeSession(instructions: String) -> any LanguageModelSession {
        Session(backend: self, instructions: instructions)
    }

    // MARK: Session

    struct Session: LanguageModelSession {
        let backend: OpenAICompatibleBackend
        let instructions: String

        /// Nothing to do over HTTP: the server keeps its model loaded, and
        /// llama.cpp reuses the cached instructions on its own because every
        /// request starts with the same system message. A warm-up request
        /// would only queue behind the running one for the server's slot.
        func prewarm() async {}

        func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
            let backend = self.backend, instructions = self.instructions
            // Snapshots are cumulative, so a slow consumer loses nothing by seeing only the newest.
            return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
                let task = Task {
                    do {
                        try await backend.withDeadline {
                            try await backend.run(request, instructions: instructions, continuation: continuation)
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: Task.isCancelled ? GenerationError.cancelled : GenerationError(error))
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    /// Runs `body`, failing it when `totalTimeout` passes first.
    func withDeadline(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let seconds = configuration.totalTimeout
        _ = try await Self.within(seconds: seconds, orThrow: .transport("no complete answer within \(Int(seconds)) s (the total time-out)", status: nil)) {
            try await body()
        }
    }

    /// `body`'s result, or `error` once `seconds` have passed (`body` is then cancelled).
    static func within<T: Sendable>(seconds: TimeInterval, orThrow error: GenerationError,
                                    _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw error
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// Sends the request, retrying 5xx answers, and streams the answer into `continuation`.
    func run(_ request: GenerationRequest, instructions: String,
             continuation: AsyncThrowingStream<ResponseSnapshot, any Error>.Continuation) async throws {
        let urlRequest: URLRequest
        do {
            urlRequest = try makeURLRequest(request, instructions: instructions)
        } catch {
            throw GenerationError.unsupportedGuide("the schema could not be encoded: \(error)")
        }
        let clock = ContinuousClock()
        // `withDeadline` started its timer just before this call.
        let deadline = clock.now + .seconds(configuration.totalTimeout)
        var attempt = 0
        while true {
            do {
                try await stream(urlRequest, schema: request.schema,
                                 maxTokens: request.options.maximumResponseTokens ?? configuration.defaultMaximumResponseTokens,
                                 continuation: continuation)
                return
            } catch let failure as ServerFailure {
                let error = failure.error(model: configuration.model, url: configuration.baseURL.absoluteString)
                guard failure.isRetryable, attempt < configuration.maxRetries else { throw error }
                let asked = failure.retryAfter.flatMap { Self.retryDelay(fromRetryAfter: $0, now: Date()) }
                let wait = asked ?? configuration.retryDelay * (1 << attempt)
                // Waiting past the deadline would only end in the total time-out's vaguer error.
                guard wait < deadline - clock.now else {
                    let detail: String
                    if case .transport(let message, _) = error { detail = message } else { detail = error.description }
                    let why = asked != nil ? "the server's Retry-After asks for a wait of \(Self.seconds(wait))" : "the next retry would wait \(Self.seconds(wait))"
                    throw GenerationError.transport("\(detail) (\(why), which ends past the total time-out of \(Int(configuration.totalTimeout)) s)", status: failure.status)
                }
                try await Task.sleep(for: wait)
                attempt += 1
            }
        }
    }

    /// The wait a `Retry-After` value asks for: whole seconds, or an HTTP
    /// date (RFC 9110 §10.2.3); nil when it is neither. A date in the past is no wait.
    static func retryDelay(fromRetryAfter value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // More digits than an Int holds is still a number, just a very long wait.
            return .seconds(Int64(text) ?? .max)
        }
        for format in httpDateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                return .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
            }
        }
        return nil
    }

    /// IMF-fixdate, then the obsolete RFC 850 and asctime forms that RFC 9110 still asks recipients to accept.
    static let httpDateFormats = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]

    /// A wait as people read it: "2 s", "1.5 s", "0.05 s".
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : String(format: "%.3g s", Double(seconds) + Double(attoseconds) / 1e18)
    }

    func makeURLRequest(_ request: GenerationRequest, instructions: String) throws -> URLRequest {
        var extra: [String: Any] = ["stream_options": ["include_usage": true]]
        let options = request.options
        switch options.mode {
        case .greedy?: extra["temperature"] = 0
        case .topK(let k)?: extra["top_k"] = k
        case .probabilityThreshold(let p)?: extra["top_p"] = p
        case nil: break
        }
        if let t = options.temperature { extra["temperature"] = t }
        if let seed = options.seed { extra["seed"] = NSNumber(value: seed) }
        if let schema = request.schema {
            let json = try JSONSerialization.jsonObject(with: Data(schema.compactJSON.utf8))
            extra["response_format"] = ["type": "json_schema", "json_schema": ["name": schema.name, "schema": json]]
        }
        var messages: [ChatTemplate.Message] = []
        if !instructions.isEmpty { messages.append(.init(role: "system", content: instructions)) }
        messages.append(.init(role: "user", content: request.prompt))
        return try client.makeRequest(messages: messages, model: configuration.model,
                                      maxTokens: options.maximumResponseTokens ?? configuration.defaultMaximumResponseTokens,
                                      stream: true, extra: extra)
    }

    /// A non-2xx answer: its status, body and `Retry-After` header.
    struct ServerFailure: Error {
        let status: Int
        let body: String
        var retryAfter: String? = nil

        /// A server error or a rate limit: the same request may succeed later.
        var isRetryable: Bool { status == 429 || (500..<600).contains(status) }

        func error(model: String?, url: String) -> GenerationError {
            if let overflow = ContextOverflow.parse(body) { return .contextOverflow(overflow) }
            let message = OpenAICompatibleBackend.message(in: Data(body.utf8))
            switch status {
            case 401, 403:
                return .unavailable(.unauthorised(url: url))
            case 404 where body.lowercased().contains("model"):
                return .unavailable(.modelNotLoaded(model: model, detail: message))
            case 503 where body.contains("Loading model"):
                return .unavailable(.modelNotLoaded(model: model, detail: message))
            case 400 where ["schema", "grammar", "response_format"].contains(where: body.lowercased().contains):
                return .unsupportedGuide(message)
            default:
                return .transport(message, status: status)
            }
        }
    }

    /// One HTTP exchange: status, then events until `[DONE]`.
    private func stream(_ urlRequest: URLRequest, schema: OutputSchema?, maxTokens: Int,
                        continuation: AsyncThrowingStream<ResponseSnapshot, any Error>.Continuation) async throws {
        var status = 0
        var retryAfter: String?
        var errorBody = Data()
        var parser = ServerSentEventParser()
        var answer = StreamedAnswer(limit: maxTokens * Self.bytesPerTokenLimit + 4096)
        do {
            reading: for try await part in HTTPByteStream.open(urlRequest) {
                switch part {
                case .status(let code, let headers):
                    status = code
                    retryAfter = headers["retry-after"]
                case .body(let data):
                    guard (200..<300).contains(status) else {
                        errorBody.append(data.prefix(Self.errorBodyLimit - errorBody.count))
                        if errorBody.count >= Self.errorBodyLimit { break reading }  // enough to quote; stop reading
                        continue
                    }
                    // One snapshot per network read, however many events it held.
                    var grew = false
                    for event in parser.feed(data) { grew = try answer.take(event) || grew }
                    if grew { continuation.yield(ResponseSnapshot(content: answer.content)) }
                    // A line (or event) that never ends is held whole by the parser: stop at what one answer may take.
                    if parser.pendingByteCount > answer.limit {
                        throw GenerationError.transport("an event passed \(answer.limit) bytes without ending, more than a whole answer may take; the server's event stream is malformed", status: nil)
                    }
                }
            }
        } catch let error as GenerationError {
            throw error
        } catch {
            if Task.isCancelled { throw GenerationError.cancelled }
            throw Self.transportError(error, url: urlRequest.url)
        }
        guard (200..<300).contains(status) else { throw ServerFailure(status: status, body: String(decoding: errorBody, as: UTF8.self), retryAfter: retryAfter) }
        continuation.yield(try answer.finish(schema: schema, maxTokens: maxTokens))
    }

    /// No token decodes to more bytes than this (the longest in common
    /// vocabularies are runs of spaces): an answer longer than max_tokens
    /// times this is a server gone wrong, not a summary.
    static let bytesPerTokenLimit = 128
    /// Error bodies are read this far, enough to quote.
    static let errorBodyLimit = 65536

    /// What the stream has said so far.
    struct StreamedAnswer {
        /// Bytes of content beyond which the answer is refused.
        let limit: Int
        var content = ""
        var refusal = ""
        var finishReason: String?
        var usage: ResponseUsage?
        var done = false

        /// Takes one event; true when it added content.
        mutating func take(_ event: ServerSentEvent) throws -> Bool {
            let data = event.data.trimmingCharacters(in: .whitespaces)
            if data == "[DONE]" { done = true; return false }
            guard !done, let json = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return false }
            if json["error"] != nil {
                // An error inside a stream that has begun is final: a retry would restart the snapshots.
                throw ServerFailure(status: (json["error"] as? [String: Any])?["code"] as? Int ?? 500, body: data).error(model: nil, url: "the server")
            }
            if let u = json["usage"] as? [String: Any] {
                usage = usage ?? ResponseUsage()
                usage?.promptTokens = u["prompt_tokens"] as? Int
                usage?.completionTokens = u["completion_tokens"] as? Int
            }
            if let t = json["timings"] as? [String: Any] {
                usage = usage ?? ResponseUsage()
                usage?.promptMilliseconds = (t["prompt_ms"] as? NSNumber)?.doubleValue
                usage?.generationMilliseconds = (t["predicted_ms"] as? NSNumber)?.doubleValue
                if usage?.promptTokens == nil { usage?.promptTokens = t["prompt_n"] as? Int }
                if usage?.completionTokens == nil { usage?.completionTokens = t["predicted_n"] as? Int }
            }
            guard let choice = (json["choices"] as? [[String: Any]])?.first else { return false }
            if let reason = choice["finish_reason"] as? String { finishReason = reason }
            let delta = choice["delta"] as? [String: Any] ?? choice["message"] as? [String: Any] ?? [:]
            if let r = delta["refusal"] as? String { refusal += r }
            guard let piece = delta["content"] as? String, !piece.isEmpty else { return false }
            content += piece
            if content.utf8.count + refusal.utf8.count > limit {
                throw GenerationError.transport("the answer passed \(limit) bytes, more than its token limit allows; the server is not honouring max_tokens", status: nil)
            }
            return true
        }

        /// The last snapshot, or the failure the stream ended with.
        func finish(schema: OutputSchema?, maxTokens: Int) throws -> ResponseSnapshot {
            if !refusal.isEmpty { throw GenerationError.refusal(explanation: refusal) }
            switch finishReason {
            case "content_filter"?:
                throw GenerationError.guardrailViolation("the server's content filter stopped the answer")
            case "length"?:
                // Stopped short of max_tokens: the window ran out, not the limit
                // (llama.cpp does not check max_tokens against the room left).
                if let prompt = usage?.promptTokens, let completion = usage?.completionTokens, completion < maxTokens {
                    throw GenerationError.contextOverflow(ContextOverflow(dialect: .llamaCpp, promptTokens: prompt, completionTokens: maxTokens,
                                                                          contextWindow: prompt + completion))
                }
                if schema != nil {
                    throw GenerationError.decodingFailure("the answer reached its token limit before the JSON was complete")
                }
            default:
                break
            }
            guard done || finishReason != nil else {
                throw GenerationError.transport("the server closed the stream before the answer was complete", status: nil)
            }
            return ResponseSnapshot(content: content, isComplete: true, usage: usage)
        }
    }

    // MARK: Errors

    static func transportError(_ error: any Error, url: URL?) -> GenerationError {
        let nsError = error as NSError
        let host = url.map { "\($0.scheme ?? "http")://\($0.host ?? "")" + ($0.port.map { ":\($0)" } ?? "") } ?? "the server"
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed, NSURLErrorNotConnectedToInternet:
                return .unavailable(.unreachable(url: host, detail: nsError.localizedDescription))
            case NSURLErrorTimedOut:
                return .transport("the server at \(host) sent nothing for the request time-out", status: nil)
            case NSURLErrorCancelled:
                return .cancelled
            default:
                break
            }
        }
        return .transport("\(host): \(describe(error))", status: nil)
    }

    static func describe(_ error: any Error) -> String {
        (error as? GenerationError)?.description ?? (error as NSError).localizedDescription
    }

    /// The `error.message` of a JSON error body, else the body's start.
    static func message(in body: Data) -> String {
        let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        if let message = (json?["error"] as? [String: Any])?["message"] as? String ?? json?["message"] as? String ?? json?["detail"] as? String {
            return message
        }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "no details" : text
    }
}
