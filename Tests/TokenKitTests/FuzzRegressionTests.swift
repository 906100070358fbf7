import Foundation
import TestSupport
import Testing
@testable import TokenKit

/// Every input the fuzzer once broke (`Tests/Fixtures/fuzz-regressions/<target>/`),
/// replayed through the property of its target (`TokenKitFuzzProperties`,
/// `OpenModelFuzzProperties`), with a few hostile inputs written by hand so
/// each property runs even while its folder is empty.
@Suite("fuzz regressions: TokenKit")
struct FuzzRegressionTests {
    static let targets = ["tiktoken-file", "scanners", "round-trip", "gguf", "tokenizer-json", "wordpiece", "tekken", "sentencepiece-model", "precompiled-charsmap", "piece-kernel"]

    static func property(_ target: String, _ bytes: [UInt8]) -> String? {
        switch target {
        case "tiktoken-file": return TokenKitFuzzProperties.tiktokenFile(bytes)
        case "scanners": return TokenKitFuzzProperties.scannersMatchReference(bytes)
        case "round-trip": return TokenKitFuzzProperties.roundTrip(bytes)
        case "gguf": return OpenModelFuzzProperties.gguf(bytes)
        case "tokenizer-json": return OpenModelFuzzProperties.tokenizerJSON(bytes)
        case "wordpiece": return OpenModelFuzzProperties.wordPiece(bytes)
        case "tekken": return TekkenFuzzProperties.tekken(bytes)
        case "sentencepiece-model": return SentencePieceFuzzProperties.model(bytes)
        case "precompiled-charsmap": return SentencePieceFuzzProperties.charsmap(bytes)
        case "piece-kernel": return TokenKitFuzzProperties.pieceKernelCuts(bytes)
        default: return "no property for \(target)"
        }
    }

    static let handWritten: [String: [[UInt8]]] = [
        "tiktoken-file": [[], Array("YQ== 0\nYQ== 0\n".utf8), Array("YQ==\n".utf8), Array("!!!! 1\n".utf8), [0x59, 0x51, 0x3D, 0x3D, 0x20, 0x31, 0x0D, 0x0A]],
        "scanners": [[], [0xFF, 0xFE, 0x20, 0x20, 0x0A], Array("don't  \u{301}x 12345\r\n\r\n".utf8), [0xE2, 0x82], Array(repeating: 0x20, count: 5000)],
        "piece-kernel": [
            [], [0x27], [0x27, 0xC5, 0xBF], Array("don't DON'T we'LL  \t x\r\n\r\n 12345 ½ \u{A0}x  \u{3000}".utf8), [0x20, 0x20, 0xFF, 0x61],
            Array("a\u{301}b 1١2 .—. '\u{2019}s".utf8), Array(repeating: 0x20, count: 40) + [0xE3, 0x80, 0x80], Array(repeating: UInt8(ascii: "x"), count: 70) + [0xC3, 0xA9]
        ],
        "round-trip": [[], [0x00], [0xF0, 0x9F, 0x98], Array("<|endoftext|><|endofprompt|>".utf8), Array(repeating: UInt8(ascii: "a"), count: 5000)],
        "gguf": [[], Array("GGU".utf8), Array("GGUF".utf8) + [3, 0, 0, 0] + Array(repeating: 0xFF, count: 16)],
        "tekken": [
            [], Array(#"{"config":{},"vocab":[]}"#.utf8),
            Array(#"{"config":{"version":"v3","pattern":"(","default_vocab_size":300,"default_num_special_tokens":44},"vocab":[]}"#.utf8),
            Array(#"{"config":{"version":"v7","pattern":"x","default_vocab_size":16777300,"default_num_special_tokens":0},"vocab":[]}"#.utf8)
        ],
        "sentencepiece-model": [
            [], [0x0A], [0x0A, 0x80], [0x0A, 0x05, 0x0A, 0x03, 0x61], [0x0A, 0x02, 0x0A, 0x00], [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        ],
        "precompiled-charsmap": [[], [0, 4, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF, 0], [0, 4, 0, 0] + Array(repeating: 0xFF, count: 1024) + [0x41, 0]],
        "tokenizer-json": [[], Array("{".utf8), Array(#"{"model":{"type":"BPE","vocab":{},"merges":[]}}"#.utf8), Array(repeating: UInt8(ascii: "["), count: 100_000)]
    ]

    @Test("kept and hand-written inputs keep their property", arguments: targets)
    func replay(target: String) throws {
        let inputs = try FuzzRegressionInputs.load(target) + (Self.handWritten[target] ?? []).enumerated().map { ("hand-written \($0.offset)", $0.element) }
        for (name, bytes) in inputs {
            let failure = Self.property(target, bytes)
            #expect(failure == nil, "\(target)/\(name): \(failure ?? "")")
        }
    }
}

/// The inputs kept in `Tests/Fixtures/fuzz-regressions/<target>/`.
enum FuzzRegressionInputs {
    static func load(_ target: String) throws -> [(String, [UInt8])] {
        let folder = TestRepository.fixtures.appendingPathComponent("fuzz-regressions").appendingPathComponent(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return try names.sorted().map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }
}
