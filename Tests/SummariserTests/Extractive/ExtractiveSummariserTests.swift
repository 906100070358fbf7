import Foundation
import TestSupport
import Testing
@testable import Summariser

@Suite struct ExtractiveSummariserTests {
    let article = """
        # Keeping the lighthouse lens clean

        The lighthouse lens gathers the lamp's light into a narrow beam that ships can see from far away. \
        Salt spray leaves a film on the lens panels, and the film scatters the beam. \
        Keepers clean the lens panels every morning with soft cloths and fresh water. \
        A dirty lens can cut the range of the beam by a third on a hazy night.

        The lamp itself needs less care than the lens. \
        Its wick is trimmed once a week, and the oil is topped up before sunset. \
        The keepers record each cleaning of the lens in the station log.

        ```swift
        let beam = lens.focus(lamp.light)
        ```

        Visitors often ask why the lens is covered during the day. \
        Sunlight focused by the lens could scorch the lamp room, so curtains shade it until dusk. \
        The curtains also keep the lens panels cool, which slows the salt film from hardening.
        """

    @Test func pointsAreSentencesOfTheTextAndTheHeadlineItsHeading() {
        let summary = ExtractiveSummariser().summarise(article)
        #expect(summary.points.count == 3)
        let flat = article.replacingOccurrences(of: "\n", with: " ")
        for point in summary.points { #expect(flat.contains(point), "\(point) is not in the text") }
        #expect(summary.headline == "Keeping the lighthouse lens clean")
        #expect(!summary.points.contains { $0.contains("lens.focus") }, "code is never a point")
    }

    @Test func pointsAreInTheTextsOrderAndTheSameEveryTime() {
        let a = ExtractiveSummariser().summarise(article)
        let b = ExtractiveSummariser().summarise(article)
        #expect(a == b)
        let offsets = a.points.map { article.replacingOccurrences(of: "\n", with: " ").range(of: $0)!.lowerBound }
        #expect(offsets == offsets.sorted())
    }

    @Test func nearDuplicatesAreNotBothChosen() {
        let text = """
            The tide gauge failed on Monday after the storm flooded its housing. \
            The tide gauge failed on Monday after the storm had flooded its housing. \
            The tide gauge failed on Monday once the storm flooded its housing. \
            Engineers replaced the float with a pressure sensor that tolerates sand. \
            The new sensor reports every six minutes to the harbour office over radio. \
            Fishermen now check the tide readings on their phones before leaving port.
            """
        let summary = ExtractiveSummariser().summarise(text)
        #expect(summary.points.count == 3)
        #expect(summary.points.filter { $0.hasPrefix("The tide gauge failed") }.count == 1)
    }

    @Test func textWithoutSentencesStillGivesASummaryFromIt() {
        let summary = ExtractiveSummariser().summarise("| a | b |\n|---|---|\n| 1 | 2 |\n")
        #expect(!summary.headline.isEmpty)
        #expect(!summary.points.isEmpty)
    }

    @Test func cjkTextIsSummarised() throws {
        let url = TestRepository.path("corpora/prose/ja.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        let summary = ExtractiveSummariser().summarise(text)
        #expect(summary.points.count == 3)
        for point in summary.points { #expect(text.contains(point)) }
    }

    @Test func theExtractiveBackendStreamsTheSummaryAsJSON() async throws {
        let session = ExtractiveBackend().makeSession(instructions: "ignored")
        var snapshots: [ResponseSnapshot] = []
        for try await s in session.streamResponse(to: GenerationRequest(prompt: article, schema: Summary.schema)) { snapshots.append(s) }
        // Cumulative snapshots are buffered newest-only, so a consumer may see fewer than were made.
        #expect(!snapshots.isEmpty)
        #expect(snapshots.last!.isComplete)
        for (a, b) in zip(snapshots, snapshots.dropFirst()) { #expect(b.content.hasPrefix(a.content)) }
        #expect(try Summary.decode(snapshots.last!.content) == ExtractiveSummariser().summarise(article))
    }
}
