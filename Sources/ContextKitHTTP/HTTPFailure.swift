import Foundation
import Render

/// Why an exchange with `HTTPClient` failed, in cases a caller can map to
/// its own words: the client knows what happened on the wire, the caller
/// what the user should do about it.
package enum HTTPFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection: the host is unknown, the port refused, the URL is not one.
    case unreachable(url: String, reason: String)
    /// The connection stayed silent longer than the client's `timeout`;
    /// `answered` when the response had begun.
    case silent(url: String, seconds: TimeInterval, answered: Bool)
    /// The whole exchange took longer than its deadline; `answered` when the
    /// response had begun (else the server sent nothing at all in that time).
    case deadlinePassed(url: String, seconds: TimeInterval, answered: Bool)
    /// The body grew past the limit it was read with.
    case tooLarge(url: String, limit: Int)
    /// The exchange broke (connection lost, malformed response) after
    /// `receivedBytes` of body; `answered` when the status had arrived.
    case broken(url: String, reason: String, answered: Bool, receivedBytes: Int)
    /// A non-2xx answer, after whatever retries the policy allowed.
    case status(HTTPStatusFailure)
    /// The caller's task was cancelled.
    case cancelled

    /// Plain words for a log; callers that talk to users map the cases instead.
    package var description: String {
        switch self {
        case let .unreachable(url, reason): return "cannot reach \(url): \(reason)"
        case let .silent(url, seconds, _): return "\(url) sent nothing for \(NumberFormat.duration(seconds: seconds))"
        case let .deadlinePassed(url, seconds, _): return "\(url) did not answer within \(NumberFormat.duration(seconds: seconds))"
        case let .tooLarge(url, limit): return "\(url) sent more than \(limit) bytes"
        case let .broken(url, reason, _, _): return "\(url): \(reason)"
        case let .status(failure): return "HTTP \(failure.status): \(failure.body.prefix(300))"
        case .cancelled: return "cancelled"
        }
    }
}

/// A non-2xx answer: enough of it to quote, and why it was not retried further.
package struct HTTPStatusFailure: Sendable, Equatable {
    /// The HTTP status.
    package let status: Int
    /// The start of the body (at most `HTTPClient.errorBodyLimit` bytes), as text.
    package let body: String
    /// The `Retry-After` header, as sent.
    package let retryAfter: String?
    /// Set when a retry was due but its wait would have ended past the deadline.
    package let abandonedRetry: AbandonedRetry?

    /// A retry not made because its wait ends past the deadline.
    package struct AbandonedRetry: Sendable, Equatable {
        /// The wait the retry would have needed.
        package let wait: Duration
        /// Whether the server's `Retry-After` asked for that wait (else it was the backoff).
        package let askedByServer: Bool
    }

    /// A server error or a rate limit: the same request may succeed later.
    package var isRetryable: Bool { status == 429 || (500..<600).contains(status) }
}
