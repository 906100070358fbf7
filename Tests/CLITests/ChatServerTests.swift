import ContextKit
import ContextKitHTTP
import ContextKitServing
import ContextKitJSON
import Foundation
import Testing
import TestSupport
@testable import TokenKit

/// `tokcount --chat -m SmolLM2.gguf` against llama-server running that model:
/// the total equals the server's own `usage.prompt_tokens` (a completion with
/// `max_tokens: 1`) and the count of `/apply-template` then `/tokenize`, and
/// the rendered prompt is the server's, on every conversation. Starts the
/// server itself; under CI=true a missing server fails (it is not skipped).
@Suite(
    "tokcount --chat on llama-server: SmolLM2's prompt tokens", .serialized,
    .enabled(if: LlamaServer.shouldRun, "llama-server is not installed (scripts/llama-server install)"),
    .timeLimit(.minutes(30)))
struct ChatServerTests {
    static let tokcount = ToolRunner(tool: "tokcount")

    /// Languages, emoji, code, system prompts present, empty and missing,
    /// several turns, special-token text, content parts, names, tool results.
    /// SmolLM2's template takes no tools, so none are sent (llama.cpp writes its
    /// own tool instructions for such a template, which no template shows).
    static let conversations: [(String, String)] = [
        ("empty user", #"[{"role": "user", "content": ""}]"#),
        ("hello", #"[{"role": "user", "content": "Hello"}]"#),
        ("english", #"[{"role": "user", "content": "The lighthouse keeper wound the clockwork every four hours, as his father had done."}]"#),
        ("chinese", #"[{"role": "user", "content": "灯塔看守人每四个小时给发条上一次弦。"}]"#),
        ("japanese", #"[{"role": "user", "content": "灯台守は四時間ごとにぜんまいを巻いた。"}]"#),
        ("arabic", #"[{"role": "user", "content": "كان حارس المنارة يلف الساعة كل أربع ساعات."}]"#),
        ("hindi", #"[{"role": "user", "content": "प्रकाशस्तंभ का रखवाला हर चार घंटे में घड़ी में चाबी भरता था।"}]"#),
        ("russian", #"[{"role": "user", "content": "Смотритель маяка заводил часовой механизм каждые четыре часа."}]"#),
        ("emoji", #"[{"role": "user", "content": "Ship it 🚢👩‍💻🏽 — done ✅!! 🇫🇷"}]"#),
        ("swift code", #"[{"role": "user", "content": "func count(_ s: String) -> Int {\n    s.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }\n}"}]"#),
        ("python code", #"[{"role": "user", "content": "def f(x: int) -> int:\n\treturn x ** 2  # square\n"}]"#),
        ("json in content", #"[{"role": "user", "content": "{\"headline\": \"Tides\", \"points\": [\"a\", \"b\"]}"}]"#),
        ("whitespace", #"[{"role": "user", "content": "  leading and trailing  \n\n\n  "}]"#),
        ("system + user", #"[{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Summarise: cats sleep a lot."}]"#),
        ("empty system", #"[{"role": "system", "content": ""}, {"role": "user", "content": "Hi"}]"#),
        ("developer role", #"[{"role": "developer", "content": "Answer in French."}, {"role": "user", "content": "One?"}]"#),
        (
            "three turns, no system",
            #"[{"role": "user", "content": "Hi there"}, {"role": "assistant", "content": "Hello! How can I help?"}, {"role": "user", "content": "Tell me a joke."}]"#
        ),
        (
            "five turns with system",
            #"{"messages": [{"role": "system", "content": "Answer in French."}, {"role": "user", "content": "One?"}, {"role": "assistant", "content": "Un."}, {"role": "user", "content": "Two?"}, {"role": "assistant", "content": "Deux."}, {"role": "user", "content": "Three?"}]}"#
        ),
        ("special-token text", #"[{"role": "user", "content": "Write <|im_start|> and <|im_end|> and <|endoftext|> literally."}]"#),
        ("text parts", #"[{"role": "user", "content": [{"type": "text", "text": "First part."}, {"type": "text", "text": "Second part, café."}]}]"#),
        ("named user", #"{"model": "smollm2", "messages": [{"role": "user", "name": "ann", "content": "Who am I?"}]}"#),
        ("ends with assistant", #"[{"role": "user", "content": "Say yes."}, {"role": "assistant", "content": "Yes."}]"#),
        ("long paragraph", "[{\"role\": \"user\", \"content\": \"\(String(repeating: "Token counting must be exact. ", count: 30))\"}]")
    ]

    /// The server's root URL (the client's base may end in /v1).
    static func root(_ url: URL) -> URL {
        url.path.hasSuffix("/v1") ? url.deletingLastPathComponent() : url
    }

    static func post(_ http: HTTPClient, _ url: URL, _ body: OrderedJSON) async throws -> OrderedJSON {
        let data = Data(JSONWriter(style: .compact(escapingSlashes: false)).write(body).utf8)
        let response = try await http.fetch(http.request(url, method: "POST", headers: ["Content-Type": "application/json"], body: data), within: 300, limit: 1 << 24)
        return try JSONParser.parse([UInt8](response.body))
    }

    @Test("tokcount --chat totals equal prompt_tokens and /apply-template + /tokenize on every conversation")
    func countsMatchTheServer() async throws {
        let model = try LlamaServer.modelPath()
        let dir = try TempDir()
        var files: [String] = []
        for (k, (_, text)) in Self.conversations.enumerated() {
            let url = dir.url.appendingPathComponent("c\(k).json")
            try Data(text.utf8).write(to: url)
            files.append(url.path)
        }
        let run = try Self.tokcount.run(files.flatMap { ["--chat", $0] } + ["-m", model.path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let counted = try #require(run.json()["conversations"] as? [[String: Any]])
        let totals = counted.map { $0["tokens"] as? Int }
        let counter = try ConversationCounter(profile: ModelProfile(gguf: model))

        let (rows, mismatches, compared) = try await LlamaServer.withServer(window: 2048) { url in
            let client = OpenAICompatibleClient(baseURL: url)
            let http = HTTPClient(timeout: 300)
            let root = Self.root(url)
            var rows: [String] = [], mismatches = 0, compared = 0
            for (k, (name, text)) in Self.conversations.enumerated() {
                let body = try JSONParser.parse(text)
                let messages = body["messages"] ?? body
                let charged = try await client.complete(messages: [], maxTokens: 1, extra: [JSONMember("messages", messages)]).promptTokens
                let applied = try await Self.post(http, root.appendingPathComponent("apply-template"), .object([JSONMember("messages", messages)]))
                let prompt = applied["prompt"]?.stringValue ?? ""
                let tokenized = try await Self.post(
                    http, root.appendingPathComponent("tokenize"),
                    .object([JSONMember("content", .string(prompt)), JSONMember("add_special", .bool(true)), JSONMember("parse_special", .bool(true))]))
                let serverTokens = tokenized["tokens"]?.elements?.count
                let ours = try counter.renderedPrompt(try Conversation(json: text))
                let same = totals[k] != nil && totals[k] == charged && totals[k] == serverTokens && ours == prompt
                if !same { mismatches += 1 }
                compared += totals[k] ?? 0
                rows.append(
                    "\(name): tokcount \(totals[k].map(String.init) ?? "none"), prompt_tokens \(charged.map(String.init) ?? "none"), /tokenize \(serverTokens.map(String.init) ?? "none"), prompt \(ours == prompt ? "same" : "differs: \(prompt.debugDescription) vs \(ours.debugDescription)")"
                )
            }
            return (rows, mismatches, compared)
        }
        print("tokcount --chat vs llama-server (SmolLM2), \(Self.conversations.count) conversations, \(compared) tokens:\n" + rows.joined(separator: "\n"))
        #expect(Self.conversations.count >= 20)
        #expect(mismatches == 0, "\(mismatches) conversations differ:\n\(rows.joined(separator: "\n"))")
    }
    /// llama.cpp decides `\p{L}` and the rest by its own tables, Unicode 15.1
    /// (`CharacterClassTable.llamaCpp`), not 15.0 as TokenKit's sources nor
    /// 16.0 as tiktoken: every character whose classes changed in either,
    /// through SmolLM2's pre-tokenizer, gives the server's `/tokenize` ids.
    @Test("SmolLM2's ids equal the server's on every character whose classes changed since Unicode 15.0")
    func charactersNewerThanUnicode15MatchTheServer() async throws {
        let model = try LlamaServer.modelPath()
        let tokenizer = try Tokenizer.load(contentsOf: model)
        let changed = (CharacterClassTable.UnicodeVersion.v16_0.changesSince15 + CharacterClassTable.UnicodeVersion.v15_1.changesSince15)
            .flatMap { $0.0...$0.1 }.compactMap(Unicode.Scalar.init)
        let text = Set(changed).sorted { $0.value < $1.value }.map { c in "a\(c)'S \(c)\(c)1 1\(c) '\(c)' A\(c)b \(c)ʕ\(c)x.\(c)!\n" }.joined()
        let ids = try await LlamaServer.withServer(window: 2048) { url in
            let tokenized = try await Self.post(
                HTTPClient(timeout: 300), Self.root(url).appendingPathComponent("tokenize"),
                .object([JSONMember("content", .string(text)), JSONMember("add_special", .bool(false))]))
            return tokenized["tokens"]?.elements?.compactMap { $0.intValue } ?? []
        }
        let ours = tokenizer.encodeOrdinary(text)
        let firstDifference = zip(ours, ids).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, ids.count)
        print(
            "SmolLM2 vs llama-server /tokenize, characters changed since Unicode 15.0: \(changed.count) characters, \(ids.count) tokens, first difference at \(ours == ids ? "none" : String(firstDifference))"
        )
        #expect(ids.count > 10_000)
        #expect(ours == ids, "first difference at token \(firstDifference)")
    }
}
