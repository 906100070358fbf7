import Foundation
import Testing
import TestSupport

@testable import ContextKitHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The client against `LocalHTTPServer`s that answer as the test writes.
/// Time limits are generous because the test machine is shared; they catch
/// a hang, not slowness.
@Suite struct HTTPClientTests {
    let client = HTTPClient(timeout: 10)

    /// The failure `body` threw, or nil when it returned (or threw something else, which the expectation then shows).
    func failure(_ body: () async throws -> Void) async -> HTTPFailure? {
        do { try await body(); return nil } catch { return error as? HTTPFailure }
    }

    @Test func aChunkedBodyIsReadWhole() async throws {
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
            connection.send("6\r\n world\r\n0\r\n\r\n")
        }
        let response = try await client.fetch(client.request(server.url), within: 60, limit: 1000)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello world")
    }

    @Test func aBodyPastTheLimitIsTooLarge() async throws {
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 5000))
        }
        let url = server.url
        let failure = await failure { _ = try await client.fetch(client.request(url), within: 60, limit: 1000) }
        #expect(failure == .tooLarge(url: url.absoluteString, limit: 1000))
    }

    @Test func aSilentServerEndsAtTheTimeOutHavingSentNothing() async throws {
        let server = try LocalHTTPServer { _, _ in Thread.sleep(forTimeInterval: 20) }
        let url = server.url
        let quick = HTTPClient(timeout: 0.5)
        let failure = await failure { _ = try await quick.fetch(quick.request(url), within: 60, limit: 1000) }
        #expect(failure == .silent(url: url.absoluteString, seconds: 0.5, answered: false))
    }

    @Test func aTricklingServerEndsAtTheDeadlineHavingAnswered() async throws {
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
            for _ in 0..<100 where connection.send("x") { Thread.sleep(forTimeInterval: 0.2) }
        }
        let url = server.url
        let clock = ContinuousClock()
        let start = clock.now
        let failure = await failure { _ = try await client.fetch(client.request(url), within: 1, limit: 1000) }
        #expect(failure == .deadlinePassed(url: url.absoluteString, seconds: 1, answered: true))
        #expect(clock.now - start < .seconds(15))
    }

    @Test func aRateLimitedRequestIsSentAgainOnceItsRetryAfterHasPassed() async throws {
        let server = try LocalHTTPServer { request, connection in
            if request.number == 0 {
                connection.send("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 4\r\n\r\nslow")
            } else {
                connection.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            }
        }
        var response = try await client.open(client.request(server.url), retry: RetryPolicy(maxRetries: 1, delay: .milliseconds(1)))
        #expect(String(decoding: try await response.readAll(limit: 100), as: UTF8.self) == "ok")
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests[1].arrived - requests[0].arrived >= .seconds(1), "the retry came before the Retry-After had passed")
    }

    @Test func aRetryThatWouldEndPastTheDeadlineIsNotWaitedFor() async throws {
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3600\r\nContent-Length: 4\r\n\r\nslow")
        }
        let url = server.url
        let retry = RetryPolicy(maxRetries: 3, delay: .milliseconds(1), deadline: .now + .seconds(60))
        let failure = await failure { _ = try await client.open(client.request(url), retry: retry) }
        #expect(
            failure
                == .status(
                    HTTPStatusFailure(
                        status: 429, body: "slow", retryAfter: "3600",
                        abandonedRetry: .init(wait: .seconds(3600), askedByServer: true))))
        #expect(server.requests.count == 1)
    }

    @Test func serverErrorsAreRetriedWithBackoffThenReported() async throws {
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops")
        }
        let url = server.url
        let failure = await failure { _ = try await client.open(client.request(url), retry: RetryPolicy(maxRetries: 2, delay: .milliseconds(10))) }
        #expect(failure == .status(HTTPStatusFailure(status: 500, body: "oops", retryAfter: nil, abandonedRetry: nil)))
        #expect(server.requests.count == 3)
    }

    @Test func aHugeErrorBodyIsReadOnlyAsFarAsCanBeQuoted() async throws {
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 1000000\r\n\r\n" + String(repeating: "e", count: 1_000_000))
        }
        let url = server.url
        let failure = await failure { _ = try await client.fetch(client.request(url), within: 60, limit: 10 << 20) }
        guard case .status(let refusal)? = failure else {
            Issue.record("expected a status failure, got \(String(describing: failure))")
            return
        }
        #expect(refusal.body.utf8.count == HTTPClient.errorBodyLimit)
    }

    @Test func serverSentEventsArriveWhateverTheChunksSplit() async throws {
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            func chunk(_ text: String) -> String { String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n" }
            connection.send(chunk("data: one\n"))
            connection.send(chunk("\ndata: two\n\ndat"))
            connection.send(chunk("a: three\n\n") + "0\r\n\r\n")
        }
        var response = try await client.open(client.request(server.url, headers: ["Accept": "text/event-stream"]))
        var data: [String] = []
        while let events = try await response.nextEvents() { data += events.map(\.data) }
        #expect(data == ["one", "two", "three"])
    }

    @Test func theClientsHeadersAreSentWithEveryRequest() async throws {
        let server = try LocalHTTPServer { _, connection in connection.send("HTTP/1.1 204 No Content\r\n\r\n") }
        let keyed = HTTPClient(timeout: 10, headers: ["Authorization": "Bearer key"])
        _ = try await keyed.fetch(keyed.request(server.url), within: 60, limit: 10)
        #expect(server.requests.first?.headers["authorization"] == "Bearer key")
    }

    /// A server that hangs up while a large request body is still being sent
    /// makes the send fail, not the process end of SIGPIPE: the client sends
    /// with MSG_NOSIGNAL (SO_NOSIGPIPE on Apple platforms), and nothing in the
    /// test process ignores the signal for it.
    @Test func aServerThatHangsUpDuringTheRequestIsAFailureNotSIGPIPE() async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(listening)
        // Accepts one connection and closes it at once, its request unread.
        Thread { close(accept(listener, nil, nil)) }.start()
        let url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/v1/chat/completions")!
        let body = Data(repeating: UInt8(ascii: "x"), count: 64 << 20)
        let failure = await failure { _ = try await client.fetch(client.request(url, method: "POST", body: body), within: 60, limit: 10) }
        #expect(failure != nil)
    }

    @Test func aClosedPortIsUnreachable() async {
        let failure = await failure { _ = try await client.fetch(client.request(URL(string: "http://127.0.0.1:1")!), within: 60, limit: 10) }
        guard case .unreachable(let url, _)? = failure else {
            Issue.record("expected unreachable, got \(String(describing: failure))")
            return
        }
        #expect(url == "http://127.0.0.1:1")
    }
}
