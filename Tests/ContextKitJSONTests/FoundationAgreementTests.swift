import ContextKitJSON
import Foundation
import Testing

/// `JSONParser` accepts what Foundation's `JSONSerialization` accepts, text
/// for text, on a generated corpus, but for the differences it documents
/// (trailing commas, UTF-16 and UTF-32 guesses, numbers beyond a `Double`
/// that Foundation drops unread); the comparison is
/// `ContextKitJSONFuzzProperties.disagreement`, the fuzz target's.
@Suite struct FoundationAgreementTests {
    /// Pieces that JSON's grammar turns on, and a few it does not have.
    static let pieces: [String] = [
        "[", "]", "{", "}", ",", ":", " ", "\n", "\"", "\"a\"", "\\", "\\u", "d800", "0", "1", "-", ".", "e", "+", "true", "nul", "'", "\u{0B}"
    ]

    @Test("every text of up to three pieces: the same verdict as Foundation")
    func everyShortText() {
        var texts: [[UInt8]] = [[]]
        for _ in 0..<3 { texts += texts.flatMap { text in Self.pieces.map { text + Array($0.utf8) } } }
        var accepted = 0
        for text in Set(texts) {
            let ours = (try? JSONParser.parse(text)) != nil
            if ours { accepted += 1 }
            if let problem = ContextKitJSONFuzzProperties.disagreement(text, accepted: ours) {
                Issue.record("\(String(decoding: text, as: UTF8.self).debugDescription): \(problem)")
            }
        }
        #expect(accepted > 100)
    }

    /// Bytes a mutation writes: JSON's punctuation, the starts of its values, and controls.
    static let mutations = Array("[]{},:\"\\ 0-.eE+u\u{0}\u{1F}\u{7F}".utf8) + [0xC3, 0xFF]

    @Test("seeded random documents and their one-byte mutations: the same verdict as Foundation")
    func randomDocumentsAndMutations() {
        var random = SeededRandom(seed: 8259)
        var accepted = 0, refused = 0
        for _ in 0..<3_000 {
            let document = Array(JSONWriter(style: random.below(2) == 0 ? .spaced : .pretty).write(random.value(depth: 0)).utf8)
            var mutated = document
            let position = random.below(mutated.count + 1)
            let byte = Self.mutations[random.below(Self.mutations.count)]
            switch random.below(3) {
            case 0: mutated.insert(byte, at: position)
            case 1 where position < mutated.count: mutated[position] = byte
            default: if position < mutated.count { mutated.remove(at: position) }
            }
            for text in [document, mutated] {
                let ours = (try? JSONParser.parse(text)) != nil
                if ours { accepted += 1 } else { refused += 1 }
                if let problem = ContextKitJSONFuzzProperties.disagreement(text, accepted: ours) {
                    Issue.record("\(String(decoding: text, as: UTF8.self).debugDescription): \(problem)")
                }
            }
        }
        #expect(accepted > 3_000 && refused > 500, "\(accepted) accepted, \(refused) refused")
    }
}

/// xorshift64*, so a failure names a corpus that can be made again.
private struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed | 1 }

    mutating func below(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 2_685_821_657_736_338_717) % UInt64(bound))
    }

    /// A JSON value with strings of every kind of character and numbers of every form.
    mutating func value(depth: Int) -> OrderedJSON {
        switch below(depth > 3 ? 4 : 6) {
        case 0: return [.null, .bool(true), .bool(false)][below(3)]
        case 1: return .number(["0", "-0", "12", "-7.25", "1e3", "2.5E-8", "123456789012345678901234567890", "1.7976931348623157e308", "5e-324"][below(9)])
        case 2: return .double(Double(bitPattern: UInt64(below(Int.max)) << 1))
        case 3: return .string((0..<below(6)).map { _ in ["a", "é", "😀", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{FEFF}"][below(12)] }.joined())
        case 4: return .array((0..<below(4)).map { _ in value(depth: depth + 1) })
        default: return .object((0..<below(4)).map { _ in JSONMember(["a", "b", "a", "ключ", ""][below(5)], value(depth: depth + 1)) })
        }
    }
}
