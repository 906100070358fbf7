import ContextKit
import ContextKitHTTP
import ContextKitJSON
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an OpenAI-compatible server says about the model it runs: its
/// window, and — from llama.cpp's `/props` — the model file's path, its chat
/// template, and whether the server tokenizes on request (`/tokenize`,
/// `/apply-template`). Everything is optional: a server that says nothing
/// gives an empty value, never an error.
package struct ServerModel: Equatable, Sendable {
    /// Tokens the server's context holds (`/props` `n_ctx`, vLLM's `max_model_len`).
    package var contextWindow: Int?
    /// Where the server read its model (llama.cpp's `model_path`), as the server sees it.
    package var modelPath: String?
    /// The model's name: `/v1/models`' first id, or the file's name.
    package var modelID: String?
    /// The chat template the server renders (llama.cpp's `chat_template`).
    package var chatTemplate: String?
    /// The server is llama.cpp's (it answered `/props`), which tokenizes and
    /// renders templates on request.
    package var isLlamaCpp: Bool

    /// A description from its parts.
    package init(
        contextWindow: Int? = nil, modelPath: String? = nil, modelID: String? = nil,
        chatTemplate: String? = nil, isLlamaCpp: Bool = false
    ) {
        self.contextWindow = contextWindow
        self.modelPath = modelPath
        self.modelID = modelID
        self.chatTemplate = chatTemplate
        self.isLlamaCpp = isLlamaCpp
    }

    /// The model file when it is readable on this machine (a server started
    /// here, or a shared disk); nil otherwise.
    package var localModelFile: URL? {
        guard let modelPath, !modelPath.isEmpty, FileManager.default.isReadableFile(atPath: modelPath) else { return nil }
        return URL(fileURLWithPath: modelPath)
    }
}

extension OpenAICompatibleClient {
    /// `/tokenize` and `/apply-template`, beside the API (llama.cpp's).
    package var tokenizeURL: URL { server.beside("tokenize") }
    package var applyTemplateURL: URL { server.beside("apply-template") }

    /// What the server says it runs: `/props` (llama.cpp), then `/v1/models`.
    package func serverModel(model: String? = nil) async -> ServerModel {
        var info = ServerModel()
        if let props = try? await probe(propsURL), props.members != nil {
            info.isLlamaCpp = props["n_ctx"] != nil || props["default_generation_settings"] != nil || props["model_path"] != nil
            info.contextWindow = (props["default_generation_settings"]?["n_ctx"]?.intValue ?? props["n_ctx"]?.intValue).flatMap { $0 > 0 ? $0 : nil }
            info.modelPath = props["model_path"]?.stringValue
            info.chatTemplate = props["chat_template"]?.stringValue
        }
        if let list = try? await models()?["data"]?.elements {
            let entry = list.first { model == nil || $0["id"]?.stringValue == model } ?? list.first
            info.modelID = entry?["id"]?.stringValue
            if info.contextWindow == nil, let n = entry?["max_model_len"]?.intValue, n > 0 { info.contextWindow = n }
        }
        if info.modelID == nil, let path = info.modelPath { info.modelID = URL(fileURLWithPath: path).lastPathComponent }
        return info
    }

    /// The prompt the server would charge for `messages`, counted by the
    /// server itself: its template rendered by `/apply-template` (assistant
    /// turn opened), then `/tokenize` with special tokens parsed and the BOS
    /// token added as a completion adds it. Throws `HTTPFailure`, or
    /// `Failure.malformedResponse` when an answer is not what llama.cpp sends.
    package func serverPromptTokens(_ messages: [ChatTemplate.Message]) async throws -> Int {
        let rendered = try await post(applyTemplateURL, requestBody(messages: messages, model: nil, maxTokens: 1, stream: false))
        guard let prompt = rendered["prompt"]?.stringValue else {
            throw Failure.malformedResponse("/apply-template's answer has no \"prompt\"")
        }
        let body = OrderedJSON.object([
            JSONMember("content", .string(prompt)), JSONMember("add_special", .bool(true)),
            JSONMember("parse_special", .bool(true))
        ])
        let tokens = try await post(tokenizeURL, Data(JSONWriter(style: .compact(escapingSlashes: false)).write(body).utf8))
        guard let ids = tokens["tokens"]?.elements else {
            throw Failure.malformedResponse("/tokenize's answer has no \"tokens\"")
        }
        return ids.count
    }

    /// A small JSON POST, parsed, within `timeout`.
    private func post(_ url: URL, _ body: Data) async throws -> OrderedJSON {
        let request = http.request(url, method: "POST", headers: ["Content-Type": "application/json"], body: body)
        let response = try await http.fetch(request, within: timeout, limit: maximumResponseBytes)
        guard let json = try? JSONParser.parse([UInt8](response.body)) else {
            throw Failure.malformedResponse("\(url.path) did not answer JSON")
        }
        return json
    }
}
