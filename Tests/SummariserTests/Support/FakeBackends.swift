import Foundation
import ContextKit
@testable import Summariser

/// A thread-safe log of what a fake backend saw, in order.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _entries: [String] = []
    private var _prompts: [String] = []
    private var _sent: [(instructions: String, prompt: String)] = []
    private var _sessions = 0

    func add(_ entry: String) { lock.withLock { _entries.append(entry) } }
    /// Records a request: `prompt` is the text (the frame stripped), `sent` what the request carried.
    func prompt(_ prompt: String, sent: (instructions: String, prompt: String)? = nil) -> Int {
        lock.withLock {
            _prompts.append(prompt)
            _sent.append(sent ?? ("", prompt))
            return _prompts.count - 1
        }
    }
    func newSession() -> Int {
        lock.withLock {
            _sessions += 1; return _sessions
        }
    }

    var entries: [String] { lock.withLock { _entries } }
    /// The text of each request, without the source frame.
    var prompts: [String] { lock.withLock { _prompts } }
    /// Each request's instructions and prompt as sent, frame included.
    var sent: [(instructions: String, prompt: String)] { lock.withLock { _sent } }
    var sessions: Int { lock.withLock { _sessions } }
}

/// What a fake answers to one request (given the prompt's text, its
/// source frame stripped): the answer text, or an error.
typealias FakeBehaviour = @Sendable (_ request: Int, _ instructions: String, _ prompt: String) async throws -> String

/// A backend whose answers come from a closure. Records sessions, prewarms
/// and requests; streams each answer in `pieces` cumulative snapshots,
/// `delay` apart (the first one after `delay` too), and reports usage when
/// `reportsUsage`.
struct FakeBackend: LanguageModelBackend {
    var log = CallLog()
    var window: Int? = nil
    var available: BackendAvailability = .available
    var copies = false
    var pieces = 3
    var delay: Duration = .zero
    var reportsUsage = false
    /// The backend's own exact count of a text, when it has one (Apple's model from 26.4).
    var exactCount: (@Sendable (String) -> Int)? = nil
    /// The backend's own exact count of a whole request (instructions, prompt, schema), when it has one
    /// (a GGUF's template, Apple's model from 26.4).
    var requestCount: (@Sendable (String, String, OutputSchema?) -> Int)? = nil
    var behaviour: FakeBehaviour

    var name: String { "fake" }
    var copiesByDesign: Bool { copies }
    func availability() async -> BackendAvailability { available }
    func contextSize() async -> Int? { window }
    func tokenCount(for text: String) async -> Int? { exactCount?(text) }
    func promptTokens(instructions: String, prompt: String, schema: OutputSchema?) async -> Int? { requestCount?(instructions, prompt, schema) }

    func makeSession(instructions: String) -> any LanguageModelSession {
        Session(backend: self, id: log.newSession(), instructions: instructions)
    }

    final class Session: LanguageModelSession, @unchecked Sendable {
        let backend: FakeBackend
        let id: Int
        let instructions: String
        private let lock = NSLock()
        private var used = false

        init(backend: FakeBackend, id: Int, instructions: String) {
            self.backend = backend
            self.id = id
            self.instructions = instructions
        }

        func prewarm() async { backend.log.add("prewarm s\(id)") }

        func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
            let reused = lock.withLock {
                defer { used = true }; return used
            }
            let backend = self.backend, id = self.id, instructions = self.instructions
            return AsyncThrowingStream { continuation in
                let task = Task {
                    if reused { backend.log.add("REUSED s\(id)") }
                    let text = SourceFraming.standard.unframe(request.prompt)
                    let n = backend.log.prompt(text, sent: (instructions, request.prompt))
                    backend.log.add("start s\(id) r\(n)")
                    do {
                        let answer = try await backend.behaviour(n, instructions, text)
                        let chars = Array(answer)
                        let step = max(1, (chars.count + backend.pieces - 1) / backend.pieces)
                        var end = 0
                        repeat {
                            if backend.delay > .zero { try await Task.sleep(for: backend.delay) }
                            end = min(end + step, chars.count)
                            let done = end == chars.count
                            let usage = done && backend.reportsUsage ? ResponseUsage(promptTokens: 1000 + n, completionTokens: 50) : nil
                            continuation.yield(ResponseSnapshot(content: String(chars[..<end]), isComplete: done, usage: usage))
                        } while end < chars.count
                        backend.log.add("finish s\(id) r\(n)")
                        continuation.finish()
                    } catch {
                        backend.log.add("fail s\(id) r\(n)")
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}

enum Fakes {
    static let profile = ModelProfile(name: "test", contextWindow: 1024, tokenizer: .encoding("cl100k_base"))

    /// A summary of `prompt` that is not a copy: its numbers and a fixed phrasing.
    static func summaryJSON(for prompt: String, request: Int) -> String {
        let numbers = prompt.split(whereSeparator: { !$0.isNumber }).prefix(3).joined(separator: ", ")
        return Summary(headline: "Part \(request)", points: ["Numbers \(numbers).", "Words \(prompt.count / 100) hundred.", "Request \(request)."]).json
    }

    static let stub: FakeBehaviour = { n, _, prompt in summaryJSON(for: prompt, request: n) }

    /// Varied prose of about `paragraphs` × 600 characters: every sentence
    /// differs (numbers and rotating words), so copy phrases are unique.
    static func text(paragraphs: Int) -> String {
        let subjects = ["The harbour crew", "A survey team", "The night keeper", "Two engineers", "The ferry captain", "A visiting inspector"]
        let verbs = ["measured", "repaired", "inspected", "recorded", "replaced", "painted"]
        let objects = ["the northern breakwater", "a cracked lens panel", "the fog signal", "the tide gauge", "the supply jetty", "the lamp room windows"]
        let endings = [
            "before the storm arrived", "under a clear evening sky", "while the tide was turning", "during the long winter shift",
            "with borrowed tools from the village", "after the morning ferry left"
        ]
        var out: [String] = []
        var k = 0
        for p in 0..<paragraphs {
            var sentences: [String] = []
            for _ in 0..<6 {
                sentences.append("\(subjects[k % 6]) \(verbs[(k / 6) % 6]) \(objects[(k / 36 + k) % 6]) on day \(k + 1) \(endings[(k * 5) % 6]), logging reading \(k * 37 % 1000).")
                k += 1
            }
            out.append((p % 5 == 0 ? "## Section \(p / 5 + 1)\n\n" : "") + sentences.joined(separator: " "))
        }
        return out.joined(separator: "\n\n")
    }
}
