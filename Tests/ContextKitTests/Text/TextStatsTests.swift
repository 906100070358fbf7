import ContextKit
import Testing
import TestSupport

@Suite struct TextStatsTests {
    func stats(_ bytes: [UInt8]) -> TextStats { bytes.withUnsafeBufferPointer { TextStats(scanning: $0) } }

    @Test func countsCharactersLinesAndCJK() {
        let s = stats(Array("héllo\n日本語 한국\nend".utf8))
        #expect(s.characters == 16)
        #expect(s.bytes == "héllo\n日本語 한국\nend".utf8.count)
        #expect(s.newlines == 2)
        #expect(s.charactersAfterLastNewline == 3)
        #expect(s.cjkCharacters == 5)
        #expect(s.firstInvalidUTF8 == nil && s.firstNUL == nil)
    }

    @Test func findsTheFirstInvalidByteAndNUL() {
        let s = stats(Array("abcdefghij".utf8) + [0xE3, 0x81] + Array("klmnopqrstuvwxyz".utf8) + [0] + [0xFF])
        #expect(s.firstInvalidUTF8 == 10)
        #expect(s.firstNUL == 28)
        #expect(s.characters == 10 + 2 + 16 + 1 + 1)  // each invalid byte is a character
    }

    @Test func wordFastPathAgreesWithTheByteLoop() {
        var fuzz = TextFuzz(seed: 3)
        for _ in 0..<200 {
            let text = fuzz.text(fragments: 50)
            let whole = stats(text)
            for cut in stride(from: 0, through: text.count, by: 7) {
                var joined = stats(Array(text[..<cut]))
                joined.append(stats(Array(text[cut...])))
                // Statistics add up whenever the cut is at a character boundary.
                if cut == text.count || text[cut] < 0x80 { #expect(joined == whole) }
            }
        }
    }

    @Test func emptyTextIsAllZero() {
        #expect(stats([]) == TextStats())
    }
}
