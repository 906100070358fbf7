import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP response delivered as it arrives: the status first, then the body
/// in whatever pieces the network gives. Built on URLSession's delegate API,
/// which swift-corelibs-foundation implements on Linux (`bytes(for:)` it does not).
package final class HTTPByteStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: its one stored property is the stream's continuation, which is Sendable; NSObject keeps the compiler from seeing that.
    package enum Part: Sendable {
        /// The status and the headers (names in lower case; a repeated header keeps its last value).
        case status(Int, headers: [String: String])
        case body(Data)
    }

    private let continuation: AsyncThrowingStream<Part, any Error>.Continuation

    private init(_ continuation: AsyncThrowingStream<Part, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Sends `request`; the stream ends with the response, throws the
    /// network's error, and cancels the request when its consumer goes away.
    /// `http://` goes over `PlainHTTPConnection` (see there why), anything
    /// else over URLSession.
    package static func open(_ request: URLRequest) -> AsyncThrowingStream<Part, any Error> {
        if request.url?.scheme?.lowercased() == "http" { return PlainHTTPConnection.open(request) }
        return AsyncThrowingStream { continuation in
            let delegate = HTTPByteStream(continuation)
            // A session per request: the session holds its delegate until invalidated.
            let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }

    package func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        continuation.yield(.status(http?.statusCode ?? 0, headers: headers))
        completionHandler(.allow)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.body(data))
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        session.finishTasksAndInvalidate()
    }
}
