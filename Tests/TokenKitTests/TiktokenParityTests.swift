import Foundation
import Testing
import TokenKit

/// TokenKit gives tiktoken 0.14's ids, token for token, on every fixture case:
/// all UDHR languages, the project's corpora, adversarial inputs and a seeded fuzz.
@Suite("tiktoken parity")
struct TiktokenParityTests {
    /// The encodings with ranks of their own; o200k_harmony and p50k_edit add
    /// special tokens to them and are compared live (`OpenAIDerivedEncodingTests`).
    @Test("identical ids to tiktoken on every fixture case", arguments: OpenAIEncoding.allCases.filter { $0.ranks == $0 })
    func identicalIDs(encoding: OpenAIEncoding) throws {
        let tokenizer = try Tokenizer.named(encoding.rawValue)
        let cases = try TokenFixture.load(encoding: encoding.rawValue)
        #expect(cases.count > 3000)
        var mismatches: [String] = []
        var tokensCompared = 0
        for fixture in cases {
            let ids =
                fixture.allowsAllSpecial
                ? try tokenizer.encode(fixture.text, allowedSpecial: .all)
                : tokenizer.encodeOrdinary(fixture.text)
            tokensCompared += ids.count
            let head = Array(ids.prefix(fixture.ids.count))
            if ids.count != fixture.count || TokenFixture.fnv1a64(ids) != fixture.fnv1a64 || head != fixture.ids {
                let firstDifference = zip(head, fixture.ids).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                mismatches.append(
                    "\(fixture.name): \(ids.count) tokens, tiktoken \(fixture.count); first difference at token \(firstDifference.map(String.init) ?? "past the stored head")")
            }
            if !fixture.allowsAllSpecial {
                #expect(tokenizer.count(fixture.text) == ids.count, "count disagrees with encode on \(fixture.name)")
            }
        }
        print("tiktoken parity \(encoding.rawValue): \(cases.count) cases, \(tokensCompared) tokens compared, \(mismatches.count) mismatches")
        #expect(mismatches.isEmpty, "\(mismatches.count) cases differ from tiktoken:\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }
}
