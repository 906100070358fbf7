import Testing
import ContextKit

@Suite("Reading context-overflow errors")
struct ContextOverflowTests {
    @Test("llama.cpp's exceed_context_size_error JSON")
    func llamaCppJSON() {
        let body =
            #"{"error":{"code":400,"message":"request (2567 tokens) exceeds the available context size (2048 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":2567,"n_ctx":2048}}"#
        #expect(ContextOverflow.parse(body) == ContextOverflow(dialect: .llamaCpp, promptTokens: 2567, contextWindow: 2048))
    }

    @Test("llama.cpp's older text without numbers is an overflow with unknown counts")
    func llamaCppOldText() {
        let body =
            #"{"error":{"code":500,"message":"the request exceeds the available context size, try increasing the context size or enable context shift","type":"server_error"}}"#
        #expect(ContextOverflow.parse(body) == ContextOverflow(dialect: .llamaCpp, promptTokens: nil, contextWindow: nil))
    }

    @Test("OpenAI: messages resulted in")
    func openAIMessages() {
        let body =
            #"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 8,305 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#
        #expect(ContextOverflow.parse(body) == ContextOverflow(dialect: .openAI, promptTokens: 8305, contextWindow: 8192))
    }

    @Test("OpenAI: requested, split into messages and completion")
    func openAIRequested() {
        let body =
            #"{"error":{"message":"This model's maximum context length is 4097 tokens. However, you requested 4162 tokens (3662 in the messages, 500 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error"}}"#
        #expect(ContextOverflow.parse(body) == ContextOverflow(dialect: .openAI, promptTokens: 3662, completionTokens: 500, contextWindow: 4097))
    }

    @Test("vLLM: both forms")
    func vLLM() {
        let older =
            #"{"object":"error","message":"This model's maximum context length is 2048 tokens. However, you requested 2100 tokens (2000 in the messages, 100 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","code":400}"#
        // vLLM copies OpenAI's older wording exactly; both read the same numbers.
        #expect(ContextOverflow.parse(older)?.promptTokens == 2000)
        #expect(ContextOverflow.parse(older)?.completionTokens == 100)
        let newer =
            #"{"object":"error","message":"This model's maximum context length is 2048 tokens. However, your request has 2301 input tokens. Please reduce the length of the input messages.","type":"BadRequestError","code":400}"#
        #expect(ContextOverflow.parse(newer) == ContextOverflow(dialect: .vLLM, promptTokens: 2301, contextWindow: 2048))
    }

    @Test("Apple: comma-grouped numbers in plain text")
    func apple() {
        #expect(
            ContextOverflow.parse("Content contains 4,098 tokens, which exceeds the maximum allowed context size of 4,096.")
                == ContextOverflow(dialect: .apple, promptTokens: 4098, contextWindow: 4096))
        #expect(ContextOverflow.parse("Content contains 12663 tokens, which exceeds the maximum allowed context size of 4096.")?.promptTokens == 12663)
    }

    @Test("other errors are not overflows")
    func notOverflow() {
        #expect(ContextOverflow.parse(#"{"error":{"message":"model not found","type":"invalid_request_error"}}"#) == nil)
        #expect(ContextOverflow.parse("<html>502 Bad Gateway</html>") == nil)
        #expect(ContextOverflow.parse("") == nil)
    }
}
