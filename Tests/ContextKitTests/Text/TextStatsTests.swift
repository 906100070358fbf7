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

    /// The statistics one character at a time, with the standard library's
    /// UTF-8 validation deciding what a character is: no word steps at all.
    func referenceStats(_ text: [UInt8]) -> TextStats {
        var s = TextStats()
        s.bytes = text.count
        var i = 0
        while i < text.count {
            let b = text[i]
            var length = 1
            if b >= 0x80 {
                length = 0
                for k in 2...4 where i + k <= text.count {
                    if let scalar = String(validating: text[i..<(i + k)], as: UTF8.self)?.unicodeScalars, scalar.count == 1 {
                        length = k
                        if TextStats.isCJK(scalar.first!.value) { s.cjkCharacters += 1 }
                        break
                    }
                }
                if length == 0 {
                    if s.firstInvalidUTF8 == nil { s.firstInvalidUTF8 = i }
                    length = 1
                }
            }
            if b == 0, s.firstNUL == nil { s.firstNUL = i }
            s.characters += 1
            s.charactersAfterLastNewline += 1
            if b == 0x0A {
                s.newlines += 1
                s.charactersAfterLastNewline = 0
            }
            i += length
        }
        return s
    }

    @Test func blockAndWordStepsAgreeWithACharacterAtATime() {
        var fuzz = TextFuzz(seed: 11)
        // Long ASCII runs with line feeds and NULs at every place in a 32-byte
        // block, between fragments that are not ASCII, at every alignment.
        let ascii: [[UInt8]] = [
            Array("the quick brown fox jumps over the lazy dog ".utf8), Array(repeating: 0x0A, count: 33), [0],
            Array("0123456789abcdef0123456789abcdef\n".utf8), Array(repeating: 0x20, count: 70)
        ]
        for round in 0..<400 {
            var text: [UInt8] = Array(repeating: 0x61, count: round % 37)
            for _ in 0..<(20 + round % 30) {
                let r = fuzz.next()
                text += r % 3 == 0 ? fuzz.text(fragments: 1) : ascii[Int((r >> 8) % UInt64(ascii.count))]
                if r % 11 == 0 { text.insert(0x0A, at: Int(r >> 16) % text.count) }
            }
            if round % 4 == 0 { text.removeAll { $0 == 0 } }
            #expect(stats(text) == referenceStats(text), "round \(round)")
        }
    }

    @Test func emptyTextIsAllZero() {
        #expect(stats([]) == TextStats())
    }
}
