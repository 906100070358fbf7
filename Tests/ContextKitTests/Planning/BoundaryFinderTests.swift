import Testing
@testable import ContextKit

struct BoundaryFinderTests {
    func level(at marker: String, in text: String) -> BoundaryLevel? {
        let offset = text.utf8.count - (text.range(of: marker).map { text[$0.lowerBound...].utf8.count } ?? 0)
        return BoundaryFinder.boundaries(in: text).first { $0.offset == offset }?.level
    }

    @Test func markdownHeadingsParagraphsAndLines() {
        let text = "# Title\n\nFirst para line one\nline two\n\n## Part\nBody\n\nSetext\n------\nText\n"
        #expect(level(at: "## Part", in: text) == .section(2))
        #expect(level(at: "First para", in: text) == .paragraph)
        #expect(level(at: "line two", in: text) == .line)
        #expect(level(at: "Setext", in: text) == .section(2))
        #expect(level(at: "Body", in: text) == .line)
    }

    @Test func headingsInsideCodeFencesAreLines() {
        let text = "Intro\n\n```sh\n# install\nmake\n```\n# Real\n"
        #expect(level(at: "# install", in: text) == .line)
        #expect(level(at: "# Real", in: text) == .section(1))
    }

    @Test func sentencesEndBeforeTheSpace() {
        let text = "It left. But the tide turned! \"Late?\" she asked. Then e.g. this one."
        #expect(level(at: " But", in: text) == .sentence)
        #expect(level(at: " she", in: text) == .word)  // dialogue continues in lowercase
        #expect(level(at: " Then", in: text) == .sentence)
        #expect(level(at: " this", in: text) == .word)
        #expect(level(at: "But", in: text) == .grapheme)  // after the space: only a character boundary
    }

    @Test func fullWidthTerminatorsNeedNoSpace() {
        let text = "灯台が光る。船が来た！「本当？」彼は言った。"
        #expect(level(at: "船", in: text) == .sentence)
        #expect(level(at: "彼", in: text) == .sentence)
        #expect(level(at: "が光", in: text) == .grapheme)
    }

    @Test func neverInsideAGraphemeCluster() {
        let text = "a👨‍👩‍👧‍👦b🇫🇷🇯🇵e\u{0301}\u{0302}x"
        let offsets = Set(BoundaryFinder.boundaries(in: text).map(\.offset))
        var expected: Set<Int> = []
        var offset = 0
        for character in text.dropLast() {
            offset += character.utf8.count
            expected.insert(offset)
        }
        #expect(offsets == expected)
    }

    @Test func aSpaceAfterAPrependCharacterIsNoBoundary() {
        // U+0600 ARABIC NUMBER SIGN is Prepend: it joins the space after it.
        let text = "x \u{0600} y"
        let offsets = BoundaryFinder.boundaries(in: text).map(\.offset)
        #expect(!offsets.contains(3))
        #expect(offsets.contains(1))
    }
}
