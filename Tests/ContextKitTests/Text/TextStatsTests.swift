import CByteScan
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

    @Test func readsNothingPastTheEndOfItsText() {
        // ASCII to the end of the text, then bytes of a character that is not
        // part of it: a scan that read past the end would count it.
        let buffer = Array(repeating: UInt8(ascii: "a"), count: 128) + Array("日本".utf8)
        for end in [64, 100, 127, 128] {
            let s = buffer.withUnsafeBufferPointer { TextStats(scanning: UnsafeBufferPointer(rebasing: $0[..<end])) }
            #expect(s == stats(Array(repeating: UInt8(ascii: "a"), count: end)))
            #expect(s.characters == end && s.cjkCharacters == 0)
        }
    }

    /// What `ck_ascii_blocks` must return, one byte at a time.
    func referenceRun(_ text: [UInt8]) -> ck_ascii_run {
        var run = ck_ascii_run(scanned: 0, newlines: 0, last_newline: -1)
        while run.scanned < text.count / 64 * 64, text[run.scanned] != 0, text[run.scanned] < 0x80 {
            if text[run.scanned] == 0x0A {
                run.newlines += 1
                run.last_newline = run.scanned
            }
            run.scanned += 1
        }
        return run
    }

    @Test func vectorAndPortableASCIIScansStopAtTheSameByte() {
        var fuzz = TextFuzz(seed: 29)
        for round in 0..<3_000 {
            // Mostly ASCII with line feeds, dense or sparse, and now and then a
            // NUL or a byte that is not ASCII, at any place in a block and any
            // alignment; runs longer than 63 blocks test the lanes' overflow.
            let count = Int(fuzz.next() % (round % 10 == 0 ? 20_000 : 700))
            let feedsPerMille = fuzz.next() % 4 == 0 ? 3 : 60
            let oddPerMille = [0, 1, 1, 20][Int(fuzz.next() % 4)]
            let offset = Int(fuzz.next() % 16)
            var text = [UInt8](repeating: 0, count: offset + count)
            for k in offset..<text.count {
                let r = fuzz.next() % 1_000
                if r < feedsPerMille {
                    text[k] = 0x0A
                } else if r < feedsPerMille + oddPerMille {
                    text[k] = r % 2 == 0 ? 0 : 0x80 | UInt8(r % 128)
                } else {
                    text[k] = UInt8(32 + r % 95)
                }
            }
            let expected = referenceRun(Array(text[offset...]))
            text.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }  // no bytes at all
                let start = base + offset
                for run in [ck_ascii_blocks(start, count), ck_ascii_blocks_portable(start, count)] {
                    #expect(
                        run.scanned == expected.scanned && run.newlines == expected.newlines && run.last_newline == expected.last_newline,
                        "round \(round): \(run) against \(expected)")
                }
            }
        }
    }

    @Test func emptyTextIsAllZero() {
        #expect(stats([]) == TextStats())
    }
}
