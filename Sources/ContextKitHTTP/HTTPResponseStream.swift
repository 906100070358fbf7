import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose status is in and whose body is read as the caller asks:
/// piece by piece (`next`), whole up to a limit (`readAll`), or as
/// server-sent events (`nextEvents`). Network errors come out as `HTTPFailure`s.
package struct HTTPResponseStream {
    /// The HTTP status.
    package let status: Int
    /// The headers, names in lower case.
    package let headers: [String: String]
    /// Body bytes read so far.
    package private(set) var receivedBytes = 0

    private let url: String
    private var parts: AsyncThrowingStream<HTTPByteStream.Part, any Error>.AsyncIterator
    private var parser = ServerSentEventParser()

    /// Sends `request` and waits for the status.
    static func start(_ request: URLRequest, url: String, progress: HTTPClient.Progress) async throws(HTTPFailure) -> HTTPResponseStream {
        var parts = HTTPByteStream.open(request).makeAsyncIterator()
        let first: HTTPByteStream.Part?
        do { first = try await parts.next() } catch { throw failure(error, url: url, timeout: request.timeoutInterval, answered: false, receivedBytes: 0) }
        guard case let .status(status, headers)? = first else {
            throw .broken(url: url, reason: "the server closed the connection without answering", answered: false, receivedBytes: 0)
        }
        progress.answer()
        return HTTPResponseStream(status: status, headers: headers, url: url, parts: parts, timeout: request.timeoutInterval)
    }

    private let timeout: TimeInterval

    private init(
        status: Int, headers: [String: String], url: String,
        parts: AsyncThrowingStream<HTTPByteStream.Part, any Error>.AsyncIterator, timeout: TimeInterval
    ) {
        self.status = status
        self.headers = headers
        self.url = url
        self.parts = parts
        self.timeout = timeout
    }

    /// The next piece of the body as the network gave it; nil at its end.
    package mutating func next() async throws(HTTPFailure) -> Data? {
        while true {
            let part: HTTPByteStream.Part?
            do { part = try await parts.next() } catch {
                throw Self.failure(error, url: url, timeout: timeout, answered: true, receivedBytes: receivedBytes)
            }
            switch part {
            case nil: return nil
            case .status?: continue  // only the first part is a status, and `start` took it
            case .body(let data)?:
                receivedBytes += data.count
                return data
            }
        }
    }

    /// The rest of the body: `.tooLarge` past `limit` bytes, or with
    /// `truncating` its first `limit` bytes, the rest left unread.
    package mutating func readAll(limit: Int, truncating: Bool = false) async throws(HTTPFailure) -> Data {
        var body = Data()
        while let data = try await next() {
            if truncating {
                body.append(data.prefix(limit - body.count))
                if body.count >= limit { break }
            } else {
                body.append(data)
                if body.count > limit { throw .tooLarge(url: url, limit: limit) }
            }
        }
        return body
    }

    /// The server-sent events the next network read completes (often none,
    /// sometimes several); nil at the end of the body.
    package mutating func nextEvents() async throws(HTTPFailure) -> [ServerSentEvent]? {
        guard let data = try await next() else { return nil }
        return parser.feed(data)
    }

    /// Bytes the event parser holds for an event not yet complete: a reader
    /// stops a stream whose event never ends by checking this.
    package var pendingEventBytes: Int { parser.pendingByteCount }

    /// A network error as an `HTTPFailure` (errors are `NSURLErrorDomain`
    /// ones, from URLSession or `PlainHTTPConnection` alike).
    static func failure(_ error: any Error, url: String, timeout: TimeInterval, answered: Bool, receivedBytes: Int) -> HTTPFailure {
        if Task.isCancelled { return .cancelled }
        let nsError = error as NSError
        let reason = nsError.localizedDescription
        guard nsError.domain == NSURLErrorDomain else { return .broken(url: url, reason: reason, answered: answered, receivedBytes: receivedBytes) }
        switch nsError.code {
        case NSURLErrorCancelled:
            return .cancelled
        case NSURLErrorTimedOut:
            return .silent(url: url, seconds: timeout, answered: answered)
        case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed, NSURLErrorNotConnectedToInternet, NSURLErrorBadURL:
            return answered ? .broken(url: url, reason: reason, answered: true, receivedBytes: receivedBytes) : .unreachable(url: url, reason: reason)
        default:
            return .broken(url: url, reason: reason, answered: answered, receivedBytes: receivedBytes)
        }
    }
}
