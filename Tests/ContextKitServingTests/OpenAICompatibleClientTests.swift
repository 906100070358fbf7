import ContextKitJSON
import Foundation
import Testing
import TestSupport
import ContextKit
@testable import ContextKitServing

/// The OpenAI-compatible client against `LocalHTTPServer`s playing llama.cpp and vLLM.
@Suite struct OpenAICompatibleClientTests {
    /// A base URL given each way a user might write it.
    static let suffixes = ["", "/", "/v1", "/v1/"]

    /// A server answering `routes[path]` with 200 and that JSON, anything else with 404.
    func server(_ routes: [String: String]) throws -> LocalHTTPServer { try LocalHTTPServer.json(routes) }

    func client(_ server: LocalHTTPServer, _ suffix: String) -> OpenAICompatibleClient {
        OpenAICompatibleClient(baseURL: URL(string: server.url.absoluteString + suffix)!, timeout: 30)
    }

    static let completion = #"{"choices":[{"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":1}}"#

    @Test("a completion reaches /v1/chat/completions whichever way the base URL is given", arguments: suffixes)
    func completionEndpoint(suffix: String) async throws {
        let server = try server(["/v1/chat/completions": Self.completion])
        let completion = try await client(server, suffix).complete(messages: [.init(role: "user", content: "Hello")])
        #expect(completion.promptTokens == 7)
    }

    @Test("llama.cpp's window is read from /props whichever way the base URL is given", arguments: suffixes)
    func llamaCppWindow(suffix: String) async throws {
        let server = try server(["/props": #"{"default_generation_settings":{"n_ctx":4096}}"#])
        #expect(await client(server, suffix).contextWindow() == 4096)
    }

    @Test func vLLMsWindowIsTheServedModelsMaxModelLen() async throws {
        let server = try server(["/v1/models": #"{"data":[{"id":"other","max_model_len":2048},{"id":"served","max_model_len":8192}]}"#])
        #expect(await client(server, "/v1").contextWindow(model: "served") == 8192)
    }

    @Test func aServerThatDoesNotTellHasNoWindow() async throws {
        let server = try server([:])
        #expect(await client(server, "").contextWindow() == nil)
    }

    @Test func aRefusalAsTooLongIsAContextOverflowWithItsStatus() async throws {
        let refusal =
            #"{"error":{"code":400,"message":"request (3012 tokens) exceeds the available context size (2048 tokens)","type":"exceed_context_size_error","n_prompt_tokens":3012,"n_ctx":2048}}"#
        let server = try LocalHTTPServer { _, connection in
            connection.send("HTTP/1.1 400 Bad Request\r\nContent-Length: \(refusal.utf8.count)\r\n\r\n\(refusal)")
        }
        do {
            _ = try await client(server, "").complete(messages: [.init(role: "user", content: "long")])
            Issue.record("the refusal was taken for an answer")
        } catch OpenAICompatibleClient.Failure.contextOverflow(let overflow, let status, _) {
            #expect(status == 400)
            #expect(overflow.promptTokens == 3012)
        }
    }

    /// The bytes sent: members in the order written (model, messages, max_tokens, stream, then extras), slashes unescaped.
    @Test func theRequestBodyKeepsItsMemberOrder() throws {
        let client = OpenAICompatibleClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
        let body = client.requestBody(
            messages: [.init(role: "user", content: "a/b")], model: "m", maxTokens: 4, stream: true,
            extra: [JSONMember("seed", .int(1)), JSONMember("max_tokens", .int(5))])
        #expect(String(decoding: body, as: UTF8.self) == #"{"model":"m","messages":[{"role":"user","content":"a/b"}],"max_tokens":5,"stream":true,"seed":1}"#)
    }
}
