import Foundation
import Testing
@testable import TokenKit

@Suite("Tokenizer behaviour")
struct TokenizerBehaviourTests {
    let cl100k = try! Tokenizer.named("cl100k_base")

    @Test("known strings encode to tiktoken's ids")
    func knownIDs() throws {
        #expect(cl100k.encodeOrdinary("hello world") == [15339, 1917])
        #expect(try Tokenizer.named("o200k_base").encodeOrdinary("hello world") == [24912, 2375])
        #expect(try Tokenizer.named("gpt2").encodeOrdinary("hello world") == [31373, 995])
    }

    @Test("gpt2 is an alias of r50k_base")
    func gpt2Alias() throws {
        #expect(try Tokenizer.named("gpt2") === Tokenizer.named("r50k_base"))
    }

    @Test("an unknown name lists the known ones")
    func unknownName() {
        #expect(throws: TokenKitError.unknownEncoding(name: "cl100k", known: OpenAIEncoding.knownNames)) {
            try Tokenizer.named("cl100k")
        }
        let message = TokenKitError.unknownEncoding(name: "x", known: OpenAIEncoding.knownNames).description
        for name in ["cl100k_base", "o200k_base", "r50k_base", "p50k_base", "gpt2"] {
            #expect(message.contains(name))
        }
    }

    @Test("special-token text is plain text in encodeOrdinary")
    func ordinaryTreatsSpecialAsText() {
        let ids = cl100k.encodeOrdinary("<|endoftext|>")
        #expect(ids.count > 1)
        #expect(!ids.contains(100257))
    }

    @Test("allowed special tokens encode as one id")
    func allowedSpecial() throws {
        #expect(try cl100k.encode("a<|endoftext|>b", allowedSpecial: .all) == [64, 100257, 65])
        #expect(try cl100k.encode("<|endofprompt|>", allowedSpecial: .only(["<|endofprompt|>"])) == [100276])
    }

    @Test("a disallowed special token is an error naming it and saying how to allow it")
    func disallowedSpecial() {
        #expect(throws: TokenKitError.disallowedSpecialToken(token: "<|endoftext|>")) {
            try cl100k.encode("x <|endoftext|>")
        }
        #expect(throws: TokenKitError.disallowedSpecialToken(token: "<|fim_prefix|>")) {
            try cl100k.encode("<|endoftext|><|fim_prefix|>", allowedSpecial: .only(["<|endoftext|>"]))
        }
        let message = TokenKitError.disallowedSpecialToken(token: "<|endoftext|>").description
        #expect(message.contains("<|endoftext|>") && message.contains("allowedSpecial") && message.contains("--special"))
    }

    @Test("the streaming calls give what tokens(utf8:) gives, special tokens and all")
    func streamingAgreesWithTokens() throws {
        var text = "a<|endoftext|>b <|fim_prefix|><|endoftext|>x <|endoftext"
        try text.withUTF8 { bytes in
            for policy: SpecialTokenPolicy in [.all, .plainText, .only(["<|endoftext|>", "<|fim_prefix|>"])] {
                var seen: [Token] = []
                try cl100k.forEachToken(utf8: bytes, allowedSpecial: policy) { seen.append($0) }
                let tokens = try cl100k.tokens(utf8: bytes, allowedSpecial: policy)
                #expect(seen == tokens)
                let counted = try cl100k.count(utf8: bytes, allowedSpecial: policy)
                #expect(counted.tokens == tokens.count)
                #expect(counted.specialTokenStrings == 3, "\(policy)")
            }
            #expect(try cl100k.tokens(utf8: bytes, allowedSpecial: .all).filter { $0.id >= 100257 }.map(\.bytes) == [1..<14, 16..<30, 30..<43])
            #expect(throws: TokenKitError.disallowedSpecialToken(token: "<|fim_prefix|>")) {
                try cl100k.forEachToken(utf8: bytes, allowedSpecial: .only(["<|endoftext|>"])) { _ in }
            }
            #expect(throws: TokenKitError.disallowedSpecialToken(token: "<|endoftext|>")) {
                try cl100k.count(utf8: bytes, allowedSpecial: .none)
            }
        }
    }

    @Test("text without special tokens encodes the same with any policy")
    func policiesAgreeWithoutSpecials() throws {
        let text = "Plain text, nothing special: <| not a token |>"
        let ordinary = cl100k.encodeOrdinary(text)
        #expect(try cl100k.encode(text) == ordinary)
        #expect(try cl100k.encode(text, allowedSpecial: .all) == ordinary)
        #expect(try cl100k.count(text, allowedSpecial: .none) == ordinary.count)
    }

    @Test("decode round-trips text and special tokens")
    func decodeRoundTrip() throws {
        let text = "Grüße, 世界! 👩‍👩‍👧 <|endoftext|>"
        #expect(try cl100k.decode(cl100k.encodeOrdinary(text)) == text)
        #expect(try cl100k.decode(cl100k.encode(text, allowedSpecial: .all)) == text)
    }

    @Test("decoding part of a character is lossy, and the bytes are exact")
    func lossyDecode() throws {
        let ids = cl100k.encodeOrdinary("👩")
        #expect(ids.count > 1)
        let bytes = try cl100k.decodeBytes([ids[0]])
        #expect(Array("👩".utf8).starts(with: bytes))
        #expect(try cl100k.decode([ids[0]]).contains("\u{FFFD}"))
    }

    @Test("an unknown id is an error")
    func unknownID() {
        #expect(throws: TokenKitError.unknownTokenID(100_256)) { try cl100k.decode([100_256]) }
        #expect(throws: TokenKitError.unknownTokenID(-1)) { try cl100k.decode([-1]) }
    }

    @Test("count equals the number of ids and builds none")
    func countMatchesEncode() {
        for text in ["", " ", "a", "The quick brown fox.\n\n", String(repeating: "ab ", count: 1000)] {
            #expect(cl100k.count(text) == cl100k.encodeOrdinary(text).count)
        }
    }

    @Test("tokens carry byte ranges that tile the text")
    func tokenRanges() throws {
        var text = "Hello, wörld!\n"
        let tokens = try text.withUTF8 { try cl100k.tokens(utf8: $0) }
        #expect(tokens.map(\.id) == cl100k.encodeOrdinary(text))
        #expect(tokens.first?.bytes.lowerBound == 0)
        #expect(tokens.last?.bytes.upperBound == text.utf8.count)
        for (a, b) in zip(tokens, tokens.dropFirst()) { #expect(a.bytes.upperBound == b.bytes.lowerBound) }
    }

    @Test("ids that outgrow the room reserved for them are all returned, in order")
    func idsOutgrowingTheirRoom() throws {
        // Digits and punctuation are pieces of their own: one token a byte,
        // twice the room `encodeOrdinary` reserves (one per two bytes).
        var text = String(repeating: "1!", count: 5_000)
        let tokens = try text.withUTF8 { try cl100k.tokens(utf8: $0) }
        #expect(tokens.count == 10_000)
        #expect(cl100k.encodeOrdinary(text) == tokens.map(\.id))
        #expect(try cl100k.encode(text) == tokens.map(\.id))
    }

    @Test("invalid UTF-8 is encoded byte by byte and decodes back to the same bytes")
    func invalidUTF8() throws {
        let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x28, 0xE2, 0x82, 0x20, 0x62, 0xED, 0xA0, 0x80]
        let ids = bytes.withUnsafeBufferPointer { cl100k.encodeOrdinary(utf8: $0) }
        #expect(try cl100k.decodeBytes(ids) == bytes)
        #expect(bytes.withUnsafeBufferPointer { cl100k.count(utf8: $0) } == ids.count)
    }

    @Test("the empty text is zero tokens")
    func empty() throws {
        #expect(cl100k.encodeOrdinary("") == [])
        #expect(cl100k.count("") == 0)
        #expect(try cl100k.decode([]) == "")
    }
}
