import Foundation
import Testing
import ContextKit
import ContextKitServing
import TestSupport

/// ContextKit's prediction of prompt tokens (the model's GGUF tokenizer + its
/// chat template) equals what a real llama-server charges, token for token.
/// Starts the server itself; skipped only outside CI when it is not installed.
@Suite(
    "SmolLM2 on llama-server: predicted prompt tokens", .serialized,
    .enabled(if: LlamaServer.shouldRun, "llama-server is not installed (scripts/llama-server install)"),
    .timeLimit(.minutes(30)))
struct SmolLM2PredictionTests {
    static let window = 2048

    typealias M = ChatTemplate.Message

    /// Twenty-plus conversations: languages, code, emoji, system prompt on and
    /// off, several turns, whitespace, special-token text inside content.
    static let conversations: [(String, [M])] = [
        ("empty", [M(role: "user", content: "")]),
        ("hello", [M(role: "user", content: "Hello")]),
        ("english prose", [M(role: "user", content: "The lighthouse keeper wound the clockwork every four hours, as his father had done.")]),
        ("chinese", [M(role: "user", content: "灯塔看守人每四个小时给发条上一次弦。")]),
        ("japanese", [M(role: "user", content: "灯台守は四時間ごとにぜんまいを巻いた。")]),
        ("arabic", [M(role: "user", content: "كان حارس المنارة يلف الساعة كل أربع ساعات.")]),
        ("hindi", [M(role: "user", content: "प्रकाशस्तंभ का रखवाला हर चार घंटे में घड़ी में चाबी भरता था।")]),
        ("russian", [M(role: "user", content: "Смотритель маяка заводил часовой механизм каждые четыре часа.")]),
        ("emoji", [M(role: "user", content: "Ship it 🚢👩‍💻🏽 — done ✅!!")]),
        ("swift code", [M(role: "user", content: "func count(_ s: String) -> Int {\n    s.utf8.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }\n}")]),
        ("python code", [M(role: "user", content: "def f(x: int) -> int:\n\treturn x ** 2  # square\n")]),
        ("json", [M(role: "user", content: #"{"headline": "Tides", "points": ["a", "b", "c"]}"#)]),
        ("whitespace", [M(role: "user", content: "  leading and trailing  \n\n\n  ")]),
        ("system + user", [M(role: "system", content: "You are terse."), M(role: "user", content: "Summarise: cats sleep a lot.")]),
        ("empty system", [M(role: "system", content: ""), M(role: "user", content: "Hi")]),
        ("system multiline", [M(role: "system", content: "Rules:\n- be brief\n- no lists"), M(role: "user", content: "Why is the sky blue?")]),
        ("three turns", [M(role: "user", content: "Hi there"), M(role: "assistant", content: "Hello! How can I help?"), M(role: "user", content: "Tell me a joke.")]),
        (
            "five turns with system",
            [
                M(role: "system", content: "Answer in French."), M(role: "user", content: "One?"),
                M(role: "assistant", content: "Un."), M(role: "user", content: "Two?"), M(role: "assistant", content: "Deux."),
                M(role: "user", content: "Three?")
            ]
        ),
        ("special-token text in content", [M(role: "user", content: "Write <|im_start|> and <|im_end|> literally.")]),
        ("numbers", [M(role: "user", content: "3.14159 2718281828 1,000,000 0x1F 1e-9")]),
        ("mixed scripts", [M(role: "user", content: "Grüße, мир, 世界, عالم, 🌍 — café naïve résumé")]),
        ("long paragraph", [M(role: "user", content: String(repeating: "Token counting must be exact. ", count: 40))])
    ]

    @Test("predicted prompt_tokens equal the server's on every conversation")
    func predictionsMatch() async throws {
        let predictor = try PromptPredictor(gguf: try LlamaServer.modelPath())
        let (rows, mismatches) = try await LlamaServer.withServer(window: Self.window) { url in
            let client = OpenAICompatibleClient(baseURL: url)
            var rows: [String] = []
            var mismatches = 0
            for (name, messages) in Self.conversations {
                let predicted = try predictor.promptTokens(messages)
                let measured = try await client.complete(messages: messages, maxTokens: 1).promptTokens
                if measured != predicted { mismatches += 1 }
                rows.append("\(name): measured \(measured.map(String.init) ?? "none"), predicted \(predicted)")
            }
            return (rows, mismatches)
        }
        print("SmolLM2 prompt tokens, measured vs predicted:\n" + rows.joined(separator: "\n"))
        #expect(Self.conversations.count >= 20)
        #expect(mismatches == 0, "\(mismatches) conversations differ:\n\(rows.joined(separator: "\n"))")
    }

    @Test("the overflow error's count equals the prediction")
    func overflowCountMatches() async throws {
        let predictor = try PromptPredictor(gguf: try LlamaServer.modelPath())
        let report = try await LlamaServer.withServer(window: Self.window) { url in
            await OverflowProbe(client: OpenAICompatibleClient(baseURL: url), predictor: predictor).run(window: Self.window)
        }
        let overflow = try #require(report.overflow, "the server should refuse a prompt of 1.5 windows: \(report.notes)")
        #expect(overflow.dialect == .llamaCpp)
        #expect(overflow.contextWindow == Self.window)
        #expect(overflow.promptTokens == report.overflowPredicted)
        for m in report.measurements where m.predicted != nil {
            #expect(m.measured == m.predicted, "\(m.name)")
        }
        #expect(report.overheads.emptyUserMessage != nil)
    }
}
