import Foundation
import Testing
import TestSupport
import ContextKit
@testable import ContextKitReports

/// The live transcript against a `LocalHTTPServer` playing llama.cpp.
@Suite("Live transcript")
struct LiveTranscriptTests {
    @Test("the live runner finds the chat-completions endpoint under a base URL")
    func endpoint() {
        func endpoint(_ url: String) -> String { LiveTranscript(url: URL(string: url)!, maxAnswerTokens: 1).endpoint.absoluteString }
        #expect(endpoint("http://127.0.0.1:8080") == "http://127.0.0.1:8080/v1/chat/completions")
        #expect(endpoint("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8080/v1/chat/completions")
        #expect(endpoint("http://h/v1/chat/completions") == "http://h/v1/chat/completions")
    }

    @Test("the live runner measures each turn until the server refuses, given a base URL ending in /v1")
    func liveRun() async throws {
        let refusal =
            #"{"error":{"code":400,"message":"request (3012 tokens) exceeds the available context size (2048 tokens)","type":"exceed_context_size_error","n_prompt_tokens":3012,"n_ctx":2048}}"#
        let answer = #"{"choices":[{"message":{"role":"assistant","content":"Noted."},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":2}}"#
        let server = try LocalHTTPServer { request, connection in
            let (status, body) = request.number == 0 ? ("200 OK", answer) : ("400 Bad Request", refusal)
            connection.send("HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        let run = LiveTranscript(url: URL(string: server.url.absoluteString + "/v1")!, maxAnswerTokens: 8, timeout: 30)
        // Loaded off Swift concurrency's two-thread pool: a debug build takes seconds, and
        // blocking the pool that long makes other suites' network time-outs fire.
        let counter = MeasuredTokenizer(label: "cl100k", tokenizer: try await offThePool { try Tokenizer.named("cl100k_base") })
        let turns = await run.run(instructions: "", documents: ["one", "two", "three"], counter: counter, overheads: .init())
        #expect(turns.map(\.measuredPrompt) == [30, 3012])
        #expect(turns.last?.refusalStatus == 400)
        #expect(server.requests.map(\.path) == ["/v1/chat/completions", "/v1/chat/completions"])
    }
}
