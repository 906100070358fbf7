import Foundation
import TestSupport

/// One case of a fixture file a peer wrote: `Tests/Fixtures/tiktoken/<encoding>.jsonl`
/// (by `Tests/Fixtures/tiktoken/generate.py`, from tiktoken) or
/// `Tests/Fixtures/openmodels/<name>.jsonl` (from Hugging Face `tokenizers`),
/// or the same lines written at test time (`Tests/Fixtures/tekken/reference.py`).
struct TokenFixture {
    let name: String
    let text: String
    let count: Int
    let fnv1a64: UInt64
    /// All ids when the case has at most 4,096 tokens, else the first 256.
    let ids: [Int]
    let allowsAllSpecial: Bool

    /// The line as written. (Decoded with `JSONDecoder`: `JSONSerialization`
    /// silently drops U+FEFF inside strings, which would change the input.)
    private struct Line: Decodable {
        struct Input: Decodable {
            let text: String?
            let repo: String?
            let `repeat`: String?
            let times: Int?
        }
        let `case`: String
        let input: Input
        let count: Int
        let fnv1a64: String
        let ids: [Int]
        let allowed_special: String?
    }

    /// The cases tiktoken wrote for `encoding`.
    static func load(encoding: String) throws -> [TokenFixture] {
        try load(path: "tiktoken/\(encoding).jsonl")
    }

    /// The cases of one file under `Tests/Fixtures`.
    static func load(path: String) throws -> [TokenFixture] {
        let url = TestRepository.fixtures.appendingPathComponent(path)
        return try parse(String(contentsOf: url, encoding: .utf8))
    }

    /// The cases of a fixture's lines, however they were obtained (a file, or
    /// a reference script's output at test time).
    static func parse(_ contents: String) throws -> [TokenFixture] {
        let decoder = JSONDecoder()
        return try contents.split(separator: "\n").map { text in
            let line = try decoder.decode(Line.self, from: Data(text.utf8))
            return TokenFixture(
                name: line.case,
                text: try input(line.input),
                count: line.count,
                fnv1a64: UInt64(line.fnv1a64, radix: 16)!,
                ids: line.ids,
                allowsAllSpecial: line.allowed_special == "all")
        }
    }

    private static func input(_ input: Line.Input) throws -> String {
        if let text = input.text { return text }
        if let path = input.repo {
            return try String(contentsOf: TestRepository.root.appendingPathComponent(path), encoding: .utf8)
        }
        if let unit = input.repeat, let times = input.times {
            return String(repeating: unit, count: times)
        }
        throw CocoaError(.coderInvalidValue)
    }

    /// 64-bit FNV-1a over the ids, each as four little-endian bytes.
    static func fnv1a64(_ ids: [Int]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in ids {
            var v = UInt32(id)
            for _ in 0..<4 {
                h = (h ^ UInt64(v & 0xFF)) &* 0x100_0000_01b3
                v >>= 8
            }
        }
        return h
    }
}
