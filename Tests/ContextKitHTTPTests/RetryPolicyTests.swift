import Foundation
import Testing
@testable import ContextKitHTTP

@Suite struct RetryPolicyTests {
    func failure(_ status: Int, retryAfter: String? = nil) -> HTTPStatusFailure {
        HTTPStatusFailure(status: status, body: "", retryAfter: retryAfter, abandonedRetry: nil)
    }

    let policy = RetryPolicy(maxRetries: 3, delay: .milliseconds(100))
    let now = Date(timeIntervalSince1970: 1_796_040_000)  // 2026-11-30 12:00:00 GMT

    @Test func theBackoffDoublesForEachFurtherRetry() {
        #expect(policy.wait(after: failure(500), attempt: 2, now: now)?.0 == .milliseconds(400))
    }

    @Test func retryAfterIsWaitedInsteadOfTheBackoff() {
        #expect(policy.wait(after: failure(429, retryAfter: "7"), attempt: 0, now: now)?.0 == .seconds(7))
    }

    @Test func aClientErrorOtherThanARateLimitIsNotRetried() {
        #expect(policy.wait(after: failure(400), attempt: 0, now: now) == nil)
    }

    @Test func noRetryIsMadePastMaxRetries() {
        #expect(policy.wait(after: failure(503), attempt: 3, now: now) == nil)
    }

    @Test(
        "Retry-After is whole seconds or an HTTP date",
        arguments: [
            ("2", Duration.seconds(2)), (" 120 ", .seconds(120)), ("99999999999999999999999", .seconds(Int64.max)),
            ("Mon, 30 Nov 2026 12:00:30 GMT", .seconds(30)), ("Monday, 30-Nov-26 12:01:00 GMT", .seconds(60)),
            ("Mon Nov 30 12:00:05 2026", .seconds(5)), ("Mon, 30 Nov 2026 11:00:00 GMT", .zero)
        ])
    func retryAfter(value: String, wait: Duration) {
        #expect(RetryPolicy.delay(fromRetryAfter: value, now: now) == wait)
    }

    @Test("a Retry-After that is neither a number of seconds nor a date asks for nothing", arguments: ["-5", "soon", ""])
    func notRetryAfter(value: String) {
        #expect(RetryPolicy.delay(fromRetryAfter: value, now: now) == nil)
    }
}
