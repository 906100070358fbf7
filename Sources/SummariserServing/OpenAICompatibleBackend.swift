import ContextKit
import ContextKitHTTP
import ContextKitServing
import ContextKitJSON
import Summariser
import Foundation
import Render

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
        /// How each request's prompt tokens are counted before it is sent.
        public var promptCounting: PromptCounting

        /// A configuration for the server at `baseURL`; times in seconds.
        public init(
            baseURL: URL, model: String? = nil, apiKey: String? = nil, requestTimeout: TimeInterval = 120,
            totalTimeout: TimeInterval = 600, maxRetries: Int = 2, retryDelay: Duration = .milliseconds(500),
            defaultMaximumResponseTokens: Int = 512, promptCounting: PromptCounting = .none
        ) {
            self.baseURL = baseURL
            self.model = model
            self.apiKey = apiKey
            self.requestTimeout = requestTimeout
            self.totalTimeout = totalTimeout
            self.maxRetries = maxRetries
            self.retryDelay = retryDelay
            self.defaultMaximumResponseTokens = defaultMaximumResponseTokens
            self.promptCounting = promptCounting
        }
    }

    /// Where the exact prompt tokens of a request come from.
    public enum PromptCounting: Sendable {
        /// Nowhere: the engine trusts its profile's count.
        case none
        /// The model's own tokenizer and chat template, on this machine (a
        /// GGUF's `PromptPredictor`): what llama.cpp charges, without asking.
        case predictor(PromptPredictor)
        /// The server's own `/apply-template` and `/tokenize` (llama.cpp),
        /// one round trip each per call, for a model whose file is elsewhere.
        case server

        /// The counting `ServerProfile` chose for a server.
        package init(_ counting: ServerProfile.Counting) {
            switch counting {
            case .none: self = .none
            case .predictor(let predictor): self = .predictor(predictor)
            case .server: self = .server
            }
        }
    }

    /// The server and limits this backend uses.
    public let configuration: Configuration
    let client: OpenAICompatibleClient

    /// A backend for the server `configuration` names; nothing is sent until
    /// `availability()`, `contextSize()` or a session's first request.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.client = OpenAICompatibleClient(
            baseURL: configuration.baseURL, apiKey: configuration.apiKey,
            timeout: configuration.requestTimeout)
    }

    /// `openai URL`, with the model in parentheses when one is configured.
    public var name: String { "openai \(configuration.baseURL.absoluteString)" + (configuration.model.map { " (\($0))" } ?? "") }

    // MARK: Availability and window

    /// Asks `/v1/models`: no answer is `unreachable`, 401/403 `unauthorised`,
    /// 503 (llama-server loading) or a model missing from the list `modelNotLoaded`.
    public func availability() async -> BackendAvailability {
        let models: OrderedJSON?
        do {
            models = try await client.models()
        } catch .status(let refusal) {
            switch refusal.status {
            case 401, 403:
                return .unavailable(.unauthorised(url: configuration.baseURL.absoluteString))
            case 503:
                return .unavailable(.modelNotLoaded(model: configuration.model, detail: OpenAICompatibleClient.message(in: refusal.body)))
            default:
                return .unavailable(
                    .unreachable(
                        url: client.modelsURL.absoluteString,
                        detail: "HTTP \(refusal.status): \(OpenAICompatibleClient.message(in: refusal.body))"))
            }
        } catch {
            return .unavailable(.unreachable(url: configuration.baseURL.absoluteString, detail: Self.detail(of: error)))
        }
        guard let model = configuration.model else { return .available }
        let ids = (models?["data"]?.elements ?? []).compactMap { $0["id"]?.stringValue }
        let wanted = model.lowercased()
        if ids.isEmpty || ids.contains(where: { $0.lowercased() == wanted || $0.lowercased().contains(wanted) }) { return .available }
        return .unavailable(.modelNotLoaded(model: model, detail: "the server serves \(ids.joined(separator: ", "))"))
    }

    /// The server's window: llama.cpp's `/props` (`n_ctx`), else vLLM's
    /// `max_model_len` in `/v1/models`; nil when the server does not say.
    public func contextSize() async -> Int? {
        await client.contextWindow(model: configuration.model)
    }

    /// The request's prompt tokens as `promptCounting` says; nil when it
    /// says nothing, or the server could not count (the plan's count is used).
    /// `schema` adds nothing: both ways count the messages as llama.cpp's
    /// template renders them, and llama.cpp turns a `response_format` schema
    /// into a grammar on decoding, not into prompt text.
    public func promptTokens(instructions: String, prompt: String, schema: OutputSchema?) async -> Int? {
        let messages = Self.messages(instructions: instructions, prompt: prompt)
        switch configuration.promptCounting {
        case .none: return nil
        case .predictor(let predictor): return try? predictor.promptTokens(messages)
        case .server: return try? await client.serverPromptTokens(messages)
        }
    }

    /// A failed availability request in words for `unreachable`'s detail.
    static func detail(of failure: HTTPFailure) -> String {
        switch failure {
        case let .unreachable(_, reason), let .broken(_, reason, _, _): return reason
        case let .silent(url, seconds, _), let .deadlinePassed(url, seconds, _): return "\(url) did not answer within \(NumberFormat.duration(seconds: seconds))"
        case let .tooLarge(url, limit): return "\(url) sent more than \(limit) bytes"
        case let .status(refusal): return "HTTP \(refusal.status): \(OpenAICompatibleClient.message(in: refusal.body))"
        case .cancelled: return "cancelled"
        }
    }

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
        do {
            try await HTTPClient.withDeadline(seconds: seconds, url: client.completionsURL.absoluteString, body)
        } catch HTTPFailure.deadlinePassed {
            throw GenerationError.transport("no complete answer within \(NumberFormat.duration(seconds: seconds)) (the total time-out)", status: nil)
        }
    }

    /// Sends the request, retrying 5xx and 429 answers, and streams the answer into `continuation`.
    func run(
        _ request: GenerationRequest, instructions: String,
        continuation: AsyncThrowingStream<ResponseSnapshot, any Error>.Continuation
    ) async throws {
        // `withDeadline` started its timer just before this call.
        let retry = RetryPolicy(
            maxRetries: configuration.maxRetries, delay: configuration.retryDelay,
            deadline: ContinuousClock().now + .seconds(configuration.totalTimeout))
        let maxTokens = request.options.maximumResponseTokens ?? configuration.defaultMaximumResponseTokens
        var answer = StreamedAnswer(limit: maxTokens * Self.bytesPerTokenLimit + 4096)
        do {
            var response = try await client.openStream(requestBody(request, instructions: instructions), retry: retry)
            while let events = try await response.nextEvents() {
                // One snapshot per network read, however many events it held.
                var grew = false
                for event in events { grew = try answer.take(event) || grew }
                if grew { continuation.yield(ResponseSnapshot(content: answer.content)) }
                // A line (or event) that never ends is held whole by the parser: stop at what one answer may take.
                if response.pendingEventBytes > answer.limit {
                    throw GenerationError.transport(
                        "an event passed \(answer.limit) bytes without ending, more than a whole answer may take; the server's event stream is malformed", status: nil)
                }
            }
        } catch let failure as HTTPFailure {
            throw generationError(failure)
        }
        continuation.yield(try answer.finish(schema: request.schema, maxTokens: maxTokens))
    }

    /// The JSON body of one streamed chat completion.
    func requestBody(_ request: GenerationRequest, instructions: String) -> Data {
        var extra = [JSONMember("stream_options", .object([JSONMember("include_usage", .bool(true))]))]
        let options = request.options
        switch options.mode {
        case .greedy?: extra.append(JSONMember("temperature", .int(0)))
        case .topK(let k)?: extra.append(JSONMember("top_k", .int(k)))
        case .probabilityThreshold(let p)?: extra.append(JSONMember("top_p", .double(p)))
        case nil: break
        }
        if let t = options.temperature { extra.append(JSONMember("temperature", .double(t))) }
        if let seed = options.seed { extra.append(JSONMember("seed", .number(String(seed)))) }
        if let schema = request.schema {
            extra.append(
                JSONMember(
                    "response_format",
                    .object([
                        JSONMember("type", .string("json_schema")),
                        JSONMember("json_schema", .object([JSONMember("name", .string(schema.name)), JSONMember("schema", schema.schema)]))
                    ])))
        }
        return client.requestBody(
            messages: Self.messages(instructions: instructions, prompt: request.prompt), model: configuration.model,
            maxTokens: options.maximumResponseTokens ?? configuration.defaultMaximumResponseTokens,
            stream: true, extra: extra)
    }

    /// The messages of one request: the instructions as the system prompt (none when empty), the prompt as the user's.
    static func messages(instructions: String, prompt: String) -> [ChatTemplate.Message] {
        (instructions.isEmpty ? [] : [.init(role: "system", content: instructions)]) + [.init(role: "user", content: prompt)]
    }

    /// A non-2xx answer (or an error event inside a stream) as the `GenerationError` it means.
    static func refusal(status: Int, body: String, model: String?, url: String) -> GenerationError {
        if let overflow = ContextOverflow.parse(body) { return .contextOverflow(overflow) }
        let message = OpenAICompatibleClient.message(in: body)
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

    /// No token decodes to more bytes than this (the longest in common
    /// vocabularies are runs of spaces): an answer longer than max_tokens
    /// times this is a server gone wrong, not a summary.
    static let bytesPerTokenLimit = 128

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
            guard !done, let json = try? JSONParser.parse(data), json.members != nil else { return false }
            if let error = json["error"] {
                // An error inside a stream that has begun is final: a retry would restart the snapshots.
                throw OpenAICompatibleBackend.refusal(status: error["code"]?.intValue ?? 500, body: data, model: nil, url: "the server")
            }
            if let u = json["usage"], u.members != nil {
                usage = usage ?? ResponseUsage()
                usage?.promptTokens = u["prompt_tokens"]?.intValue
                usage?.completionTokens = u["completion_tokens"]?.intValue
            }
            if let t = json["timings"], t.members != nil {
                usage = usage ?? ResponseUsage()
                usage?.promptMilliseconds = t["prompt_ms"]?.doubleValue
                usage?.generationMilliseconds = t["predicted_ms"]?.doubleValue
                if usage?.promptTokens == nil { usage?.promptTokens = t["prompt_n"]?.intValue }
                if usage?.completionTokens == nil { usage?.completionTokens = t["predicted_n"]?.intValue }
            }
            guard let choice = json["choices"]?.elements?.first, choice.members != nil else { return false }
            if let reason = choice["finish_reason"]?.stringValue { finishReason = reason }
            let delta = [choice["delta"], choice["message"]].compactMap { $0 }.first { $0.members != nil }
            if let r = delta?["refusal"]?.stringValue { refusal += r }
            guard let piece = delta?["content"]?.stringValue, !piece.isEmpty else { return false }
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
                    throw GenerationError.contextOverflow(
                        ContextOverflow(
                            dialect: .llamaCpp, promptTokens: prompt, completionTokens: maxTokens,
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

    /// A failed exchange as the `GenerationError` it means; the server is
    /// named by its scheme, host and port.
    func generationError(_ failure: HTTPFailure) -> GenerationError {
        let url = client.completionsURL
        let host = "\(url.scheme ?? "http")://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
        switch failure {
        case let .unreachable(_, reason):
            return .unavailable(.unreachable(url: host, detail: reason))
        case .silent:
            return .transport("the server at \(host) sent nothing for the request time-out", status: nil)
        case .cancelled:
            return .cancelled
        case let .status(refusal):
            let error = Self.refusal(status: refusal.status, body: refusal.body, model: configuration.model, url: configuration.baseURL.absoluteString)
            guard let abandoned = refusal.abandonedRetry else { return error }
            let detail: String
            if case .transport(let message, _) = error { detail = message } else { detail = error.description }
            let wait = NumberFormat.duration(seconds: abandoned.wait.seconds)
            let why = abandoned.askedByServer ? "the server's Retry-After asks for a wait of \(wait)" : "the next retry would wait \(wait)"
            let total = NumberFormat.duration(seconds: configuration.totalTimeout)
            return .transport("\(detail) (\(why), which ends past the total time-out of \(total))", status: refusal.status)
        case let .broken(_, reason, _, _):
            return .transport("\(host): \(reason)", status: nil)
        case .deadlinePassed, .tooLarge:
            return .transport("\(host): \(failure)", status: nil)
        }
    }
}
