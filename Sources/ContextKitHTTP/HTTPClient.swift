import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one HTTP client: requests over `HTTPByteStream` (a plain socket for
/// `http://`, so a slow local server is waited for without spinning; see
/// `PlainHTTPConnection`), with
/// - a time-out on silence (`timeout`: connecting, then between reads) and a
///   deadline on a whole exchange (`fetch`, `withDeadline`), because a
///   server that trickles a byte a second is never silent;
/// - a cap on what is read (`fetch`'s `limit`; error bodies are read only
///   as far as `errorBodyLimit`, enough to quote);
/// - retries of a 5xx or a 429, as a `RetryPolicy` says, honouring `Retry-After`;
/// - chunked bodies (in `PlainHTTPConnection`) and server-sent events
///   (`HTTPResponseStream.nextEvents`).
///
/// Failures are `HTTPFailure`s; non-2xx answers are failures too, so a
/// returned response is always a success.
package struct HTTPClient: Sendable {
    /// Seconds the connection may stay silent: while connecting, then between reads.
    package var timeout: TimeInterval
    /// Sent with every request (`Authorization`, …).
    package var headers: [String: String]

    /// Enough of an error body to quote; the rest of a huge one is not read.
    package static let errorBodyLimit = 64 << 10

    /// A client whose connections may stay silent for `timeout` seconds, sending `headers` with every request.
    package init(timeout: TimeInterval, headers: [String: String] = [:]) {
        self.timeout = timeout
        self.headers = headers
    }

    /// A request for `url`: the client's headers, then `headers`, and `body` if any.
    package func request(_ url: URL, method: String = "GET", headers extra: [String: String] = [:], body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers.merging(extra, uniquingKeysWith: { $1 }) { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return request
    }

    /// A whole 2xx answer, all of it within `seconds` and at most `limit` bytes of body.
    package func fetch(_ request: URLRequest, within seconds: TimeInterval, limit: Int) async throws(HTTPFailure) -> HTTPResponse {
        let progress = Progress()
        do {
            return try await Self.withDeadline(seconds: seconds, url: Self.name(request), progress: progress) {
                var response = try await open(request, progress: progress)
                return HTTPResponse(status: response.status, headers: response.headers, body: try await response.readAll(limit: limit))
            }
        } catch let failure as HTTPFailure {
            throw failure
        } catch {
            throw .cancelled  // the only other error a deadline's task group throws
        }
    }

    /// The response to `request` once its status is in, the body still to
    /// read; a non-2xx answer is retried as `retry` says, then thrown as `.status`.
    package func open(_ request: URLRequest, retry: RetryPolicy = .never) async throws(HTTPFailure) -> HTTPResponseStream {
        try await open(request, retry: retry, progress: Progress())
    }

    private func open(_ request: URLRequest, retry: RetryPolicy = .never, progress: Progress) async throws(HTTPFailure) -> HTTPResponseStream {
        let clock = ContinuousClock()
        var attempt = 0
        while true {
            var response = try await HTTPResponseStream.start(request, url: Self.name(request), progress: progress)
            if (200..<300).contains(response.status) { return response }
            let body = try await response.readAll(limit: Self.errorBodyLimit, truncating: true)
            let failure = HTTPStatusFailure(
                status: response.status, body: String(decoding: body, as: UTF8.self),
                retryAfter: response.headers["retry-after"], abandonedRetry: nil)
            guard let (wait, asked) = retry.wait(after: failure, attempt: attempt, now: Date()) else { throw .status(failure) }
            // Waiting past the deadline would only end in its vaguer failure.
            if let deadline = retry.deadline, !(wait < deadline - clock.now) {
                throw .status(
                    HTTPStatusFailure(
                        status: failure.status, body: failure.body, retryAfter: failure.retryAfter,
                        abandonedRetry: .init(wait: wait, askedByServer: asked)))
            }
            do { try await Task.sleep(for: wait) } catch { throw .cancelled }
            attempt += 1
        }
    }

    /// `body`'s result, or `.deadlinePassed` once `seconds` have passed
    /// (`body` is then cancelled). `body`'s own errors pass through.
    package static func withDeadline<T: Sendable>(
        seconds: TimeInterval, url: String,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withDeadline(seconds: seconds, url: url, progress: Progress(), body)
    }

    private static func withDeadline<T: Sendable>(
        seconds: TimeInterval, url: String, progress: Progress,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(seconds, 0) * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            if let result = try await group.next()! { return result }
            throw HTTPFailure.deadlinePassed(url: url, seconds: seconds, answered: progress.answered)
        }
    }

    /// How failures name the request: its URL.
    static func name(_ request: URLRequest) -> String { request.url?.absoluteString ?? "the server" }

    /// Whether the response to a request has begun, shared with the task that
    /// watches the deadline: past it, "too slow" and "sent nothing" are different failures.
    final class Progress: @unchecked Sendable {
        // @unchecked Sendable: `begun` is read and written only under `lock`.
        private let lock = NSLock()
        private var begun = false
        var answered: Bool { lock.withLock { begun } }
        func answer() { lock.withLock { begun = true } }
    }
}
