import Testing
@testable import Summariser

@Suite struct SummaryDecodingTests {
    @Test func jsonIsReadAlsoInsideAFenceOrAfterAPreamble() throws {
        let json = #"{"headline":"Tides rise","points":["One.","Two.","Three."]}"#
        let expected = Summary(headline: "Tides rise", points: ["One.", "Two.", "Three."])
        #expect(try Summary.decode(json) == expected)
        #expect(try Summary.decode("Here is the summary:\n```json\n\(json)\n```") == expected)
    }

    @Test func proseFromABackendThatIgnoredTheSchemaIsRead() throws {
        let summary = try Summary.decode("Headline: Tides rise\n\n- One.\n* Two.\n3. Three.")
        #expect(summary == Summary(headline: "Tides rise", points: ["One.", "Two.", "Three."]))
    }

    @Test func brokenOrEmptyAnswersAreDecodingFailures() {
        #expect(throws: GenerationError.self) { try Summary.decode(#"{"headline":"cut"#) }
        #expect(throws: GenerationError.self) { try Summary.decode("  \n ") }
        #expect(throws: GenerationError.self) { try Summary.decode(#"{"title":"x"}"#) }
    }

    /// Foundation reads the answer, not ContextKitJSON's strict reader, for this.
    @Test func anAnswerWithTrailingCommasIsRead() throws {
        #expect(
            try Summary.decode(#"{"headline": "Tides rise", "points": ["One.", "Two.",],}"#)
                == Summary(headline: "Tides rise", points: ["One.", "Two."]))
    }

    @Test func jsonRoundTrips() throws {
        let summary = Summary(headline: "Quote \" and \\ slash / é 😀", points: ["a\nb", "c"])
        #expect(try Summary.decode(summary.json) == summary)
    }

    @Test func everyPrefixOfTheJSONGivesAGrowingPartialSummary() {
        let summary = Summary(headline: "Tides \"rise\" é 😀 \u{1F600}", points: ["First\tpoint.", "Second \\ point.", "Third ☃ point."])
        let json = summary.json.replacingOccurrences(of: "😀", with: "\\ud83d\\ude00").replacingOccurrences(of: "é", with: "\\u00e9")
        var previous = ""
        for end in json.indices {
            let text = PartialSummary(jsonPrefix: String(json[..<end])).text
            #expect(text.hasPrefix(previous), "\(text) after \(previous)")
            previous = text
        }
        #expect(PartialSummary(jsonPrefix: json).text == summary.text)
    }

    @Test func theSchemaIsTheFieldNotesSummary() {
        let json = Summary.schema.compactJSON
        #expect(json.contains(#""description":"A headline of at most eight words""#))
        #expect(json.contains(#""minItems":3,"maxItems":3"#))
    }
}
