import Foundation
import TestSupport
import Testing
@testable import ContextKit

struct SummarySizeEstimateTests {
    let cl100k = try! Tokenizer.named("cl100k_base")

    @Test func readsWordLimitsFromGuides() {
        #expect(SummarySizeEstimate.words(in: "A headline of at most eight words") == 8)
        #expect(SummarySizeEstimate.words(in: "Up to 25 words") == 25)
        #expect(SummarySizeEstimate.words(in: "The main points, one short sentence each") == SummarySizeEstimate.defaultWords)
        #expect(SummarySizeEstimate.words(in: nil) == SummarySizeEstimate.defaultWords)
    }

    @Test func theFieldNotesSummary() throws {
        let text = try String(contentsOf: TestRepository.path("examples/Summary.json"), encoding: .utf8)
        let schema = try #require(try SchemaDocument.load(text).entries.first?.schema)
        let tokenizer = cl100k
        let estimate = SummarySizeEstimate { tokenizer.count($0) }
        // {"headline":"","points":["","",""]}, 8 words and 3 × 15 words at 1.3 tokens.
        let skeleton = cl100k.count("{\"headline\":\"\",\"points\":[\"\",\"\",\"\"]}")
        #expect(estimate.tokens(for: schema) == skeleton + Int((53 * 1.3).rounded(.up)))
    }

    @Test func followsReferencesAndEnums() throws {
        let text = ##"{"type":"object","properties":{"mood":{"$ref":"#/$defs/Mood"},"n":{"type":"integer"}},"$defs":{"Mood":{"enum":["calm","stormy weather"]}}}"##
        let schema = try #require(try SchemaDocument.load(text).entries.first?.schema)
        let tokenizer = cl100k
        let tokens = SummarySizeEstimate { tokenizer.count($0) }.tokens(for: schema)
        #expect(tokens == cl100k.count(#"{"mood":"stormy weather","n":0}"#))
    }
}
