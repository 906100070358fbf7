import Foundation

/// When `HTTPClient` sends a request again after a 5xx or a 429: up to
/// `maxRetries` times, waiting what the server's `Retry-After` asks, else
/// `delay`, then twice that, …; a wait that would end past `deadline` is not
/// waited for (the failure says how long it would have been).
package struct RetryPolicy: Sendable {
    /// Retries after the first request.
    package var maxRetries: Int
    /// The wait before the first retry when the server sends no `Retry-After`, doubled for each further one.
    package var delay: Duration
    /// No retry whose wait ends after this.
    package var deadline: ContinuousClock.Instant?

    /// A policy of `maxRetries` retries, the first after `delay`, none ending past `deadline`.
    package init(maxRetries: Int, delay: Duration, deadline: ContinuousClock.Instant? = nil) {
        self.maxRetries = maxRetries
        self.delay = delay
        self.deadline = deadline
    }

    /// One request, no retry.
    package static let never = RetryPolicy(maxRetries: 0, delay: .zero)

    /// The wait before retry number `attempt` (0 first) after `failure`, or
    /// nil when there is to be none; `now` reads a `Retry-After` date.
    func wait(after failure: HTTPStatusFailure, attempt: Int, now: Date) -> (Duration, askedByServer: Bool)? {
        guard failure.isRetryable, attempt < maxRetries else { return nil }
        if let asked = failure.retryAfter.flatMap({ Self.delay(fromRetryAfter: $0, now: now) }) { return (asked, true) }
        return (delay * (1 << min(attempt, 30)), false)
    }

    /// The wait a `Retry-After` value asks for: whole seconds, or an HTTP
    /// date (RFC 9110 §10.2.3); nil when it is neither. A date in the past is no wait.
    package static func delay(fromRetryAfter value: String, now: Date) -> Duration? {
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
}
