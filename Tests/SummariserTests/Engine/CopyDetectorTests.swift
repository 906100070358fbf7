import Testing
@testable import Summariser

@Suite struct CopyDetectorTests {
    let source = Fakes.text(paragraphs: 4)

    @Test func aVerbatimCopyIsFound() throws {
        let detector = CopyDetector()
        #expect(detector.copiedPhrase(source: source, output: source) != nil)
        let phrases = detector.phrases(in: source)
        #expect(phrases.count == 3)
        // The middle alone, with different case and punctuation, is still a copy.
        let middle = phrases[0].uppercased().replacingOccurrences(of: " ", with: ",  ")
        #expect(detector.copiedPhrase(source: source, output: "Intro. " + middle + " Outro.") == phrases[0])
    }

    @Test func aSummaryIsNotACopy() {
        let summary = "Harbour crews and engineers maintained the station's equipment over many days, logging readings."
        #expect(CopyDetector().copiedPhrase(source: source, output: summary) == nil)
    }

    @Test func theOpeningSentenceAloneIsNotACopy() {
        let first = String(source.split(separator: ".")[0])
        #expect(CopyDetector().copiedPhrase(source: source, output: first) == nil)
    }

    @Test func shortSourcesAreNeverCopies() {
        let short = "The lamp was lit at dusk and the sea stayed calm."
        #expect(CopyDetector().phrases(in: short).isEmpty)
        #expect(CopyDetector().copiedPhrase(source: short, output: short) == nil)
    }

    @Test func phrasesComeFromTheMiddleThird() {
        let words = CopyDetector.words(in: source)
        for phrase in CopyDetector().phrases(in: source) {
            let first = phrase.split(separator: " ").map(String.init)
            let start = (0...(words.count - first.count)).first { Array(words[$0..<($0 + first.count)]) == first }!
            #expect(start >= words.count / 3 && start + first.count <= 2 * words.count / 3)
        }
    }

    @Test func cjkCharactersAreWords() {
        #expect(CopyDetector.words(in: "灯台の光, Tide 42") == ["灯", "台", "の", "光", "tide", "42"])
    }
}
