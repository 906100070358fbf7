import Foundation
import ContextKit
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

    @Test func aTextWithoutProseHasNoPointsAndAHeadlineFromItsFirstLine() {
        let table = ExtractiveSummariser().summarise("| a | b |\n|---|---|\n| 1 | 2 |\n")
        #expect(table == Summary(headline: "a b", points: []))
        let code = ExtractiveSummariser().summarise("# Build\n\n```sh\nswift build --product ctxkit.\n```\n")
        #expect(code == Summary(headline: "Build", points: []))
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

    // MARK: Real-looking Markdown (Tests/Fixtures/summaries)

    static let fixtures = ["linereader-api.md", "streaming-summary-blog.md", "backup-notes.md"]

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: TestRepository.fixtures.appendingPathComponent("summaries/\(name)"), encoding: .utf8)
    }

    /// The text's paragraphs, each with its lines joined by single spaces and
    /// its quote marks dropped: where a whole sentence must be found.
    static func reflowedParagraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n").map { line in
                var s = line.drop { $0 == " " }
                while s.first == ">" { s = s.dropFirst().drop { $0 == " " } }
                return s.split(separator: " ").joined(separator: " ")
            }.joined(separator: " ")
        }
    }

    /// Whether `point` is a whole sentence of one of `paragraphs`: it starts
    /// the paragraph (after any list marker) or follows a sentence's end, and
    /// ends the paragraph or is followed by a space.
    static func isWholeSentence(_ point: String, of paragraphs: [String]) -> Bool {
        paragraphs.contains { paragraph in
            var searchStart = paragraph.startIndex
            while let range = paragraph.range(of: point, range: searchStart..<paragraph.endIndex) {
                let before = paragraph[..<range.lowerBound]
                let startsWell =
                    before.isEmpty || before.wholeMatch(of: /\s*([-*+]|\d+[.)])\s/) != nil
                    || before.hasSuffix(". ") || before.hasSuffix("! ") || before.hasSuffix("? ")
                let endsWell = range.upperBound == paragraph.endIndex || paragraph[range.upperBound] == " "
                if startsWell && endsWell { return true }
                searchStart = paragraph.index(after: range.lowerBound)
            }
            return false
        }
    }

    @Test(arguments: fixtures) func everyPointIsAWholeSentenceOfTheReflowedSource(name: String) throws {
        let text = try Self.fixture(name)
        let summary = ExtractiveSummariser().summarise(text)
        #expect(summary.points.count == 3)
        // Points are plain: found in the paragraphs as a reader sees them.
        let paragraphs = Self.reflowedParagraphs(text).map(InlineMarkdown.plain)
        for point in summary.points {
            #expect(Self.isWholeSentence(point, of: paragraphs), "\(point) is not a whole sentence of \(name)")
            #expect(ExtractiveSummariser.endsLikeASentence(point), "\(point) is a fragment")
            #expect(!text.contains(point + "\n") || text.contains(point + "\n\n") || text.hasSuffix(point + "\n"), "\(point) ends at a line break mid-paragraph")
        }
    }

    @Test(arguments: fixtures) func codeTablesHTMLAndMarkupNeverBecomePointsOrHeadlines(name: String) throws {
        let text = try Self.fixture(name)
        let summary = ExtractiveSummariser().summarise(text)
        // Every line of the fixture's code blocks, tables, HTML, front matter and link references.
        var excluded: [String] = []
        var inFence = false, inFrontMatter = text.hasPrefix("---\n"), inComment = false, inHTML = false
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if inFrontMatter {
                if n > 0 && line == "---" { inFrontMatter = false }
                // Its title is the document's title, which a headline may be (not the line).
                excluded.append(line.hasPrefix("title:") ? "title:" : line)
                continue
            }
            if line.hasPrefix("```") { inFence.toggle(); continue }
            if line.hasPrefix("<!--") { inComment = true }
            if line.hasPrefix("<table") { inHTML = true }
            if inFence || inComment || inHTML || raw.hasPrefix("    ") && !line.hasPrefix("*") && !line.hasPrefix("-")
                || line.hasPrefix("|") || line.hasPrefix("[") && line.contains("]:")
            {
                if !line.isEmpty { excluded.append(line) }
            }
            if line.hasSuffix("-->") { inComment = false }
            if line.hasPrefix("</table") { inHTML = false }
        }
        #expect(excluded.count > 5, "the fixture has code, tables or HTML to leave out")
        for piece in summary.points + [summary.headline] {
            for line in excluded where line.count > 3 {
                #expect(!piece.contains(line) && !line.contains(piece), "\(piece) comes from \(line)")
            }
            #expect(!piece.contains("<") && !piece.contains("|") && !piece.hasPrefix("* ") && !piece.hasPrefix("- "))
        }
    }

    @Test func theHeadlineIsTheDocumentsTitle() throws {
        #expect(ExtractiveSummariser().summarise(try Self.fixture("linereader-api.md")).headline == "Line Reader")
        // No heading before the prose: the front matter's title.
        #expect(
            ExtractiveSummariser().summarise(try Self.fixture("streaming-summary-blog.md")).headline
                == "Streaming a summary into SwiftUI without the flicker")
        // A title line.
        #expect(ExtractiveSummariser().summarise("Harbour notes\n\nThe ferry left at noon. The tide was high and the wind came from the west.").headline == "Harbour notes")
        #expect(ExtractiveSummariser().summarise(try String(contentsOf: TestRepository.path("corpora/prose/ja.txt"), encoding: .utf8)).headline == "最後のフェリー")
    }

    @Test func withoutATitleTheHeadlineIsAShortPhraseOfTheTopSentenceNeverCode() throws {
        let text = try Self.fixture("backup-notes.md")
        let headline = ExtractiveSummariser().summarise(text).headline
        let words = headline.split(separator: " ")
        #expect((1...ExtractiveSummariser.headlineWords).contains(words.count))
        #expect(!headline.contains("tidectl") && !headline.contains("$") && !headline.contains("="))
        let prose = Self.reflowedParagraphs(text).joined(separator: " ")
        #expect(prose.contains(headline.replacingOccurrences(of: "…", with: "")), "\(headline) is not a phrase of the text")
    }

    @Test func theEngineKeepsTheTitleAndWholeSentencesThroughMapAndReduce() async throws {
        let text = try Self.fixture("linereader-api.md")
        var profile = ModelProfile(name: "small", contextWindow: 1024, tokenizer: .encoding("cl100k_base"))
        profile.contextWindow = 1024
        let engine = try SummaryEngine(backend: ExtractiveBackend(contextSize: 1024), configuration: .init(profile: profile, responseReserve: 150))
        let run = try await engine.summarise(text)
        #expect(run.levels.count >= 2, "the document is several windows long")
        #expect(run.summary.headline == "Line Reader")
        #expect(run.summary.points.count == 3)
        let paragraphs = Self.reflowedParagraphs(text).map(InlineMarkdown.plain)
        for point in run.summary.points { #expect(Self.isWholeSentence(point, of: paragraphs), "\(point)") }
    }
}
