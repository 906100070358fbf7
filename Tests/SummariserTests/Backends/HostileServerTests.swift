import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing
import ContextKit
import ContextKitServing
import TestSupport
@testable import Summariser
@testable import SummariserServing

/// `scripts/hostile-server.py`, started once per test process on 127.0.0.1;
/// it exits when this process does (its standard input closes).
enum HostileServer {
    static let server: Result<ScriptServer, any Error> = Result {
        try ScriptServer(script: "hostile-server.py", arguments: ["--huge-mb", String(hugeMegabytes)], announcement: "listening on ")
    }

    static let hugeMegabytes = 64

    /// The base URL whose requests get `behaviour`; a fresh tag gives the test its own request count.
    static func url(_ behaviour: String, tag: String = UUID().uuidString) throws -> URL {
        try server.get().url.appendingPathComponent("\(behaviour).\(tag)")
    }

    /// Chat requests the server has had for `url`'s behaviour and tag.
    static func requests(to url: URL) async throws -> Int {
        try await count(url.lastPathComponent)
    }

    /// Requests to a `rate-limited` URL that came before its `Retry-After` had passed.
    static func earlyRequests(to url: URL) async throws -> Int {
        try await count(url.lastPathComponent + ":early")
    }

    static func count(_ key: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: try server.get().url.appendingPathComponent("stats"))
        let counts = try JSONSerialization.jsonObject(with: data) as? [String: Int]
        return counts?[key] ?? 0
    }
}

/// The indices of the calls the engine reported finished, from its event callback.
final class FinishedCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ index: Int) { lock.withLock { stored.append(index) } }
    var indices: [Int] { lock.withLock { stored } }
}

/// The process's resident memory, to show a huge answer is not all held at once.
func residentMegabytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ")[1]) ?? 0) / 1024
}

/// Every way a server can misbehave ends with a clear error within the
/// configured time-out, and what had arrived before is reported. The
/// time limits are generous because the test machine is shared; the tests
/// run one at a time so that a huge answer being pumped does not starve the
/// server thread another test is waiting on.
@Suite("hostile servers", .serialized)
struct HostileServerTests {
    static let requestTimeout: TimeInterval = 2
    static let totalTimeout: TimeInterval = 6
    /// Catches a hang (the hostile behaviours last far longer), not slowness:
    /// on a loaded 2-core machine a test may wait a minute for a thread.
    static let slack: Duration = .seconds(90)

    // MARK: The summariser's HTTP backend

    struct Outcome {
        var snapshots = 0
        var last: ResponseSnapshot?
        var error: GenerationError?
        var elapsed: Duration = .zero
    }

    func backend(_ url: URL, maxRetries: Int = 1, retryDelay: Duration = .milliseconds(50)) -> OpenAICompatibleBackend {
        OpenAICompatibleBackend(
            configuration: .init(
                baseURL: url, requestTimeout: Self.requestTimeout, totalTimeout: Self.totalTimeout,
                maxRetries: maxRetries, retryDelay: retryDelay))
    }

    /// Streams one answer, keeping only the newest snapshot (a huge answer must not pile up here).
    func stream(_ url: URL, maxRetries: Int = 1, retryDelay: Duration = .milliseconds(50)) async -> Outcome {
        var outcome = Outcome()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let session = backend(url, maxRetries: maxRetries, retryDelay: retryDelay).makeSession(instructions: "Summarise.")
            for try await snapshot in session.streamResponse(to: GenerationRequest(prompt: "Some text.")) {
                outcome.snapshots += 1
                outcome.last = snapshot
            }
        } catch {
            outcome.error = error as? GenerationError ?? .transport("not a GenerationError: \(error)", status: nil)
        }
        outcome.elapsed = clock.now - start
        return outcome
    }

    @Test func aCorrectServerAnswers() async throws {
        let outcome = await stream(try HostileServer.url("ok"))
        #expect(outcome.error == nil)
        #expect(outcome.last?.isComplete == true)
        #expect(try Summary.decode(outcome.last?.content ?? "").headline == "A hostile server answered")
    }

    @Test func connectionRefusedIsUnreachable() async throws {
        let outcome = await stream(URL(string: "http://127.0.0.1:1")!)
        guard case .unavailable(.unreachable(let url, _))? = outcome.error else {
            Issue.record("expected unreachable, got \(String(describing: outcome.error))")
            return
        }
        #expect(url == "http://127.0.0.1:1")
        #expect(outcome.elapsed < Self.slack)
    }

    @Test func aServerThatNeverAnswersEndsAtTheRequestTimeOut() async throws {
        let outcome = await stream(try HostileServer.url("never-answers"))
        guard case .transport(let detail, nil)? = outcome.error else {
            Issue.record("expected a transport error, got \(String(describing: outcome.error))")
            return
        }
        #expect(detail.contains("sent nothing for the request time-out"))
        #expect(outcome.elapsed < .seconds(Self.requestTimeout) + Self.slack)
    }

    @Test func aStreamThatNeverEndsStopsAtTheTotalTimeOutWithWhatArrived() async throws {
        let outcome = await stream(try HostileServer.url("streams-forever"))
        #expect(outcome.error == .transport("no complete answer within \(Int(Self.totalTimeout)) s (the total time-out)", status: nil))
        #expect(outcome.elapsed < .seconds(Self.totalTimeout) + Self.slack)
        #expect(outcome.snapshots > 3)
        #expect(outcome.last?.content.hasPrefix("more more more") == true)
        #expect(outcome.last?.isComplete == false)
    }

    @Test func serverErrorsAreRetriedThenReported() async throws {
        let url = try HostileServer.url("status-500")
        let outcome = await stream(url, maxRetries: 2)
        #expect(outcome.error == .transport("the hostile server failed on purpose", status: 500))
        #expect(try await HostileServer.requests(to: url) == 3)
    }

    /// A backoff that would end after the total time-out is not waited for.
    @Test func aRetryThatWouldEndPastTheTotalTimeOutIsNotWaitedFor() async throws {
        let url = try HostileServer.url("status-500")
        let outcome = await stream(url, maxRetries: 2, retryDelay: .seconds(10))
        #expect(
            outcome.error
                == .transport(
                    "the hostile server failed on purpose (the next retry would wait 10 s, which ends past the total time-out of \(Int(Self.totalTimeout)) s)", status: 500))
        #expect(try await HostileServer.requests(to: url) == 1)
        #expect(outcome.elapsed < Self.slack)
    }

    /// Retry-After: 2 fits the 6 s total time-out: the one retry allowed is
    /// made after the wait, and its 429 ends the request with the server's message.
    @Test func tooManyRequestsIsRetriedAfterRetryAfterThenReported() async throws {
        let url = try HostileServer.url("status-429")
        let outcome = await stream(url)
        #expect(outcome.error == .transport("rate limited; retry later", status: 429))
        #expect(try await HostileServer.requests(to: url) == 2)
        #expect(outcome.elapsed < .seconds(Self.totalTimeout) + Self.slack)
    }

    /// The server refuses a retry that comes before its Retry-After has passed,
    /// so an answer here shows the client waited as asked.
    @Test func aRateLimitedRequestSucceedsAfterWaitingRetryAfter() async throws {
        let url = try HostileServer.url("rate-limited")
        let outcome = await stream(url)
        #expect(outcome.error == nil)
        #expect(try Summary.decode(outcome.last?.content ?? "").headline == "A hostile server answered")
        #expect(try await HostileServer.requests(to: url) == 2)
        #expect(try await HostileServer.earlyRequests(to: url) == 0)
    }

    @Test func aRateLimitWithoutRetryAfterIsRetriedWithBackoff() async throws {
        let url = try HostileServer.url("rate-limited-bare")
        let outcome = await stream(url)
        #expect(outcome.error == nil)
        #expect(try await HostileServer.requests(to: url) == 2)
    }

    /// Retry-After: 3600 ends after the 6 s total time-out: no wait, no retry,
    /// and the error says how long the server asked for.
    @Test func aRetryAfterPastTheTotalTimeOutFailsAtOnceSayingHowLong() async throws {
        let url = try HostileServer.url("status-429-long")
        let outcome = await stream(url, maxRetries: 3)
        #expect(
            outcome.error
                == .transport(
                    "rate limited for an hour (the server's Retry-After asks for a wait of 1 h, which ends past the total time-out of \(Int(Self.totalTimeout)) s)", status: 429)
        )
        #expect(try await HostileServer.requests(to: url) == 1)
        #expect(outcome.elapsed < Self.slack)
    }

    @Test func malformedEventsAreSkippedAndTheUnfinishedStreamIsAnError() async throws {
        let outcome = await stream(try HostileServer.url("malformed-sse"))
        #expect(outcome.error == .transport("the server closed the stream before the answer was complete", status: nil))
        #expect(outcome.snapshots == 0)
    }

    @Test func aTruncatedStreamIsAnErrorAfterTheTextThatArrived() async throws {
        let outcome = await stream(try HostileServer.url("truncated"))
        #expect(outcome.error == .transport("the server closed the stream before the answer was complete", status: nil))
        #expect(outcome.last?.content == "The answer was cut off")
    }

    @Test func aNonJSONErrorBodyIsQuotedShort() async throws {
        let outcome = await stream(try HostileServer.url("non-json-error"), maxRetries: 0)
        guard case .transport(let detail, 502)? = outcome.error else {
            Issue.record("expected HTTP 502, got \(String(describing: outcome.error))")
            return
        }
        #expect(detail.contains("502 Bad Gateway"))
        #expect(detail.count <= 300)
    }

    @Test func aHugeAnswerEndsWithinTheTotalTimeOutInBoundedMemory() async throws {
        let before = residentMegabytes()
        let outcome = await stream(try HostileServer.url("huge"))
        let grown = residentMegabytes() - before
        #expect(outcome.error != nil)
        #expect(outcome.elapsed < .seconds(Self.totalTimeout) + Self.slack)
        #expect(grown < 4 * HostileServer.hugeMegabytes, "resident memory grew by \(grown) MB for a \(HostileServer.hugeMegabytes) MB answer")
        print(
            "huge answer (\(HostileServer.hugeMegabytes) MB): \(outcome.snapshots) snapshots, \(outcome.elapsed), resident memory +\(grown) MB, \(String(describing: outcome.error))"
        )
    }

    /// One event line that never ends: the parser must not hold all of it.
    @Test func anEndlessEventLineEndsWithinTheTotalTimeOutInBoundedMemory() async throws {
        let before = residentMegabytes()
        let outcome = await stream(try HostileServer.url("huge-line"))
        let grown = residentMegabytes() - before
        let limit = try backend(HostileServer.url("huge-line")).configuration.defaultMaximumResponseTokens * OpenAICompatibleBackend.bytesPerTokenLimit + 4096
        #expect(
            outcome.error == .transport("an event passed \(limit) bytes without ending, more than a whole answer may take; the server's event stream is malformed", status: nil))
        #expect(outcome.elapsed < .seconds(Self.totalTimeout) + Self.slack)
        // Holding the line would take at least its 64 MB; the limit stops reading after about 70 KB.
        #expect(grown < HostileServer.hugeMegabytes, "resident memory grew by \(grown) MB for a \(HostileServer.hugeMegabytes) MB line")
        print("endless line (\(HostileServer.hugeMegabytes) MB, then silence): \(outcome.elapsed), resident memory +\(grown) MB, \(String(describing: outcome.error))")
    }

    @Test func aHugeErrorBodyIsQuotedShort() async throws {
        let outcome = await stream(try HostileServer.url("huge-error"), maxRetries: 0)
        guard case .transport(let detail, 500)? = outcome.error else {
            Issue.record("expected HTTP 500, got \(String(describing: outcome.error))")
            return
        }
        #expect(detail.count <= 300)
        #expect(outcome.elapsed < .seconds(Self.totalTimeout) + Self.slack)
    }

    @Test(
        "availability and the window end within the request time-out",
        arguments: ["never-answers", "streams-forever", "huge"])
    func probesEnd(behaviour: String) async throws {
        let backend = backend(try HostileServer.url(behaviour))
        let clock = ContinuousClock()
        let start = clock.now
        let availability = await backend.availability()
        let window = await backend.contextSize()
        let elapsed = clock.now - start
        guard case .unavailable = availability else {
            Issue.record("\(behaviour): expected unavailable, got \(availability)")
            return
        }
        #expect(window == nil)
        #expect(elapsed < .seconds(3 * Self.requestTimeout) + Self.slack, "\(behaviour): availability and contextSize took \(elapsed)")
    }

    /// The engine's events say which calls finished before the one that failed.
    @Test func theEngineReportsTheCallsThatCompletedBeforeAFailure() async throws {
        let engine = try SummaryEngine(
            backend: backend(try HostileServer.url("ok-then-never"), maxRetries: 0),
            configuration: .init(profile: Fakes.profile))
        let finished = FinishedCalls()
        do {
            _ = try await engine.summarise(Fakes.text(paragraphs: 40)) { event in
                if case .callFinished(let call, _) = event { finished.append(call.index) }
            }
            Issue.record("the run should fail at its third call")
        } catch {
            guard case .generation(.transport(let detail, nil), let call) = error else {
                Issue.record("expected a transport failure of one call, got \(error)")
                return
            }
            #expect(detail.contains("sent nothing"))
            #expect(call >= 2)
            #expect(finished.indices.sorted() == [0, 1])
        }
    }

    // MARK: ContextKit's plain client (overflow probe, transcript measurement)

    func complete(_ url: URL, timeout: TimeInterval) async -> (OpenAICompatibleClient.Completion?, OpenAICompatibleClient.Failure?, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let client = OpenAICompatibleClient(baseURL: url, timeout: timeout)
        do {
            let completion = try await client.complete(messages: [.init(role: "user", content: "Hello")])
            return (completion, nil, clock.now - start)
        } catch {
            return (nil, error as? OpenAICompatibleClient.Failure, clock.now - start)
        }
    }

    @Test func theClientReadsACorrectAnswer() async throws {
        let (completion, failure, _) = await complete(try HostileServer.url("ok"), timeout: 10)
        #expect(failure == nil)
        #expect(completion?.promptTokens == 5)
    }

    /// The silent and the endless server are given the short time-out the
    /// test is about; the others a long one, which they must not need.
    @Test(
        "the client ends within its time-out with a clear failure",
        arguments: [
            "refused", "never-answers", "streams-forever", "status-500", "status-429", "malformed-sse",
            "truncated", "non-json-error", "huge", "huge-error"
        ])
    func clientFailsClearly(behaviour: String) async throws {
        let url = behaviour == "refused" ? URL(string: "http://127.0.0.1:1")! : try HostileServer.url(behaviour)
        let timeout: TimeInterval = ["never-answers", "streams-forever"].contains(behaviour) ? Self.requestTimeout : 20
        let (completion, failure, elapsed) = await complete(url, timeout: timeout)
        #expect(completion == nil, "\(behaviour): no failure")
        #expect(elapsed < .seconds(timeout) + Self.slack, "\(behaviour): took \(elapsed)")
        guard let failure else { return }
        let expected: String
        switch failure {
        case .unreachable: expected = "unreachable"
        case .httpError(let status, let body):
            expected = "http \(status)"
            #expect(failure.description.count < 400, "\(behaviour): the message quotes \(body.count) bytes")
        case .malformedResponse: expected = "malformed"
        case .contextOverflow: expected = "overflow"
        case .timedOut: expected = "timed out"
        case .tooLarge: expected = "too large"
        case .incomplete: expected = "incomplete"
        }
        let wanted = [
            "refused": "unreachable", "never-answers": "unreachable", "streams-forever": "timed out", "status-500": "http 500",
            "status-429": "http 429", "malformed-sse": "malformed", "truncated": "incomplete", "non-json-error": "http 502",
            "huge": "too large", "huge-error": "http 500"
        ][behaviour]
        #expect(expected == wanted, "\(behaviour): \(failure)")
    }
}
