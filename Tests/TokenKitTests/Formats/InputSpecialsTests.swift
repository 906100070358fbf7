import ContextKitJSON
import Foundation
import TestSupport
import Testing
import TokenKit

/// `Tokenizer.inputSpecials` is what Hugging Face `tokenizers` puts around one
/// input for each kind of post-processor
/// (Tests/Fixtures/hf-input-specials/generate.py writes the expectations).
@Suite struct InputSpecialsTests {
    static let fixture = TestRepository.fixtures.appendingPathComponent("hf-input-specials/expected.json")
    static let base = TestRepository.fixtures.appendingPathComponent("hf-chat-model/tokenizer.json")

    @Test func everyPostProcessorAddsWhatTokenizersAdds() throws {
        let expected = try JSONParser.parse([UInt8](Data(contentsOf: Self.fixture)))
        let base = try JSONParser.parse([UInt8](Data(contentsOf: Self.base)))
        let dir = try TempDir()
        var checked = 0, withSpecials = 0
        for member in try #require(expected.members) {
            let variant = base.setting("post_processor", to: member.value["post_processor"]!)
            let file = try dir.write("\(member.key).json", JSONWriter(style: .compact(escapingSlashes: false)).write(variant))
            let specials = try Tokenizer.load(contentsOf: URL(fileURLWithPath: file)).inputSpecials
            let leading = member.value["leading"]?.elements?.compactMap(\.stringValue)
            let trailing = member.value["trailing"]?.elements?.compactMap(\.stringValue)
            #expect(specials.leading == leading, "\(member.key)")
            #expect(specials.trailing == trailing, "\(member.key)")
            checked += 1
            if specials.count > 0 { withSpecials += 1 }
        }
        #expect(checked == 9 && withSpecials == 7)
    }

    @Test func anEncodingHasNone() throws {
        #expect(try Tokenizer.named("cl100k_base").inputSpecials == InputSpecials())
    }
}
