import Foundation
import TestSupport
import Testing
@testable import TokenKit

/// The two Unicode sources give the same answers wherever an answer can
/// reach a token id, over every code point and the UDHR texts; where they may
/// differ (grapheme clusters, which only place the planner's cuts) each
/// difference is accounted for.
@Suite("Unicode sources")
struct UnicodeSourceTests {
    static let allCodePoints = UInt32(0)..<0x110000

    /// Each cached class table says what the build's source says, changed
    /// where its Unicode version changed a character's classes, and nowhere else.
    @Test(arguments: [(CharacterClassTable.shared, CharacterClassTable.UnicodeVersion.v16_0), (.llamaCpp, .v15_1)])
    func classTableIsItsSourcePlusItsVersionsChanges(table: CharacterClassTable, version: CharacterClassTable.UnicodeVersion) {
        var expected = [UInt8](repeating: 0, count: Int(Self.allCodePoints.upperBound))
        for c in Self.allCodePoints { expected[Int(c)] = UnicodeData.characterClasses(of: c).rawValue }
        var changed = 0
        for (first, last, classes) in version.changesSince15 {
            for c in first...last { expected[Int(c)] = classes; changed += 1 }
        }
        let wrong = Self.allCodePoints.filter { table.classes(of: $0).rawValue != expected[Int($0)] }
        print("class table (\(UnicodeData.cacheKey) as \(version.name)): \(changed) code points changed from 15.0, \(wrong.count) differ from that")
        #expect(changed > 0)
        #expect(wrong.isEmpty, "\(wrong.prefix(10).map { String($0, radix: 16) })")
    }

    /// The normalizer's table of inert scalars answers as the build's source
    /// does, below its limit (where it reads its bits) and above (where it asks).
    @Test(arguments: NormalizationForm.allCases)
    func inertScalarsAnswerAsTheSource(_ form: NormalizationForm) {
        let table = InertScalars.of(form)
        let wrong = Self.allCodePoints.filter { table.contains($0) != UnicodeData.isNormalizationInert($0, for: form) }
        let inert = (UInt32(0)..<InertScalars.limit).filter { table.contains($0) }.count
        print("inert scalars under \(form): \(inert) below \(InertScalars.limit), \(wrong.count) differ from the source")
        #expect(inert > 0 && inert < Int(InertScalars.limit))
        #expect(wrong.isEmpty, "\(wrong.prefix(10).map { String($0, radix: 16) })")
    }

    /// Both sources answer as the Unicode 15.0 the changes were computed from
    /// (`scripts/generate-unicode-class-changes.py` recorded its checksum).
    @Test func bothSourcesAreTheBaseTheChangesApplyTo() {
        func fnv1a(_ classes: (UInt32) -> CharacterClass) -> UInt64 {
            Self.allCodePoints.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64(classes($1).rawValue)) &* 0x100_0000_01B3 }
        }
        #expect(fnv1a(StdlibUnicode.characterClasses(of:)) == CharacterClassTable.UnicodeVersion.base15Checksum)
        #expect(fnv1a(UnicodeData.characterClasses(of:)) == CharacterClassTable.UnicodeVersion.base15Checksum)
    }

    /// The characters that tell the versions apart, as each peer classifies
    /// them (measured with tiktoken 0.14 and llama.cpp's llama-tokenize).
    @Test func tablesFollowTheirPeersUnicodeVersion() {
        let cjkExtensionI: UInt32 = 0x2EBF0  // a letter since 15.1
        let egyptianExtensionA: UInt32 = 0x14385  // a letter since 16.0
        #expect(CharacterClassTable.shared.classes(of: cjkExtensionI).contains(.letter))
        #expect(CharacterClassTable.llamaCpp.classes(of: cjkExtensionI).contains(.letter))
        #expect(CharacterClassTable.shared.classes(of: egyptianExtensionA).contains(.letter))
        #expect(CharacterClassTable.llamaCpp.classes(of: egyptianExtensionA).isEmpty)
    }

    /// Every three-byte sequence, valid or not, classified without decoding
    /// (`UTF8Cursor.uniformThreeByteClasses`) where the cursor takes that
    /// path, is classified as decoding it would: same classes, three bytes.
    @Test func undecodedThreeByteCharactersMatchDecodedOnes() {
        let table = CharacterClassTable.shared
        var wrong: [String] = [], undecoded = 0
        var bytes: [UInt8] = []
        for b0 in UInt8(0xE0)...0xEF {
            for b1 in UInt8(0x00)...0xFF {
                for b2 in UInt8(0x00)...0xFF {
                    bytes = [b0, b1, b2, 0x20]
                    bytes.withUnsafeBufferPointer { p in
                        let cursor = UTF8Cursor(base: p.baseAddress!, end: 4, table: table)
                        let fast = cursor.uniformThreeByteClasses(at: 0)
                        guard !fast.isEmpty else { return }
                        undecoded += 1
                        let decoded = cursor.character(at: 0)
                        if decoded.length != 3 || decoded.classes != fast { wrong.append(bytes.map { String($0, radix: 16) }.joined(separator: " ")) }
                    }
                }
            }
        }
        print("three-byte characters classified undecoded: \(undecoded) of \(16 * 256 * 256) sequences tried, \(wrong.count) wrong")
        // U+4E00 (the first CJK ideograph) and U+AC00 (the first Hangul syllable) take the fast path.
        for sample: [UInt8] in [[0xE4, 0xB8, 0x80], [0xEA, 0xB0, 0x80]] {
            let classes = (sample + [0x20]).withUnsafeBufferPointer { UTF8Cursor(base: $0.baseAddress!, end: 4, table: table).uniformThreeByteClasses(at: 0) }
            #expect(
                !classes.isEmpty && classes == table.classes(of: UTF8Decoder.scalar(sample, at: 0, end: 3).value), "\(sample) is decoded: CJK text would decode every character")
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    static func hex(_ c: UInt32) -> String { "U+" + String(c, radix: 16, uppercase: true) }

    static func isNewerThanUnicode15(_ c: UInt32) -> Bool {
        guard let age = Unicode.Scalar(c)?.properties.age else { return false }
        return age.major > 15 || (age.major == 15 && age.minor > 0)
    }

    static func utf8(_ c: UInt32) -> [UInt8] { Unicode.Scalar(c).map { Array(String($0).utf8) } ?? [] }

    #if canImport(CUTF8Proc)
        @Test func generalCategoriesAndClassesMatch() {
            var categories: [UInt32] = [], classes: [UInt32] = [], whiteSpace: [UInt32] = []
            for c in Self.allCodePoints {
                if StdlibUnicode.generalCategory(of: c) != UTF8ProcUnicode.generalCategory(of: c) { categories.append(c) }
                if StdlibUnicode.characterClasses(of: c) != UTF8ProcUnicode.characterClasses(of: c) { classes.append(c) }
                if StdlibUnicode.isWhiteSpace(c) != UTF8ProcUnicode.isWhiteSpace(c) { whiteSpace.append(c) }
            }
            let reclassified = StdlibUnicode.categoriesChangedSince15.keys.filter { Unicode.Scalar($0)?.properties.generalCategory != StdlibUnicode.categoriesChangedSince15[$0] }
            print(
                "general category: \(reclassified.count) code points reclassified by the runtime since Unicode 15.0 \(reclassified.sorted().map(Self.hex)) and pinned; "
                    + "\(categories.count) differ \(categories.prefix(40).map(Self.hex)), classes \(classes.count), White_Space \(whiteSpace.count)")
            #expect(categories.isEmpty && classes.isEmpty && whiteSpace.isEmpty)
        }

        @Test func simpleLowercaseMatches() {
            let different = Self.allCodePoints.filter { StdlibUnicode.simpleLowercase($0) != UTF8ProcUnicode.simpleLowercase($0) }
            print("simple lowercase: \(different.count) code points differ \(different.prefix(20).map(Self.hex))")
            #expect(different.isEmpty)
        }

        /// The inert characters are the same, so the normalizer cuts a text into
        /// the same stretches with either source.
        @Test(arguments: NormalizationForm.allCases)
        func inertCharactersMatch(_ form: NormalizationForm) {
            let different = Self.allCodePoints.filter { c in
                !(0xD800...0xDFFF).contains(c) && StdlibUnicode.isNormalizationInert(c, for: form) != UTF8ProcUnicode.isNormalizationInert(c, for: form)
            }
            print("inert under \(form): \(different.count) code points differ \(different.prefix(20).map(Self.hex))")
            #expect(different.isEmpty)
        }

        @Test(arguments: NormalizationForm.allCases)
        func everyCodePointNormalizesAlike(_ form: NormalizationForm) {
            var mine: [UInt32] = [], theirs: [UInt32] = []
            var different: [UInt32] = []
            var changed = 0
            for c in Self.allCodePoints where !(0xD800...0xDFFF).contains(c) {
                let bytes = Self.utf8(c)
                let (a, b) = bytes.withUnsafeBufferPointer { p in
                    (
                        StdlibUnicode.normalize(p.baseAddress!, count: p.count, to: form, scratch: &mine),
                        UTF8ProcUnicode.normalize(p.baseAddress!, count: p.count, to: form, scratch: &theirs)
                    )
                }
                if a != b { different.append(c) }
                if b != bytes { changed += 1 }
            }
            print("\(form) of every code point: \(changed) change, \(different.count) differ \(different.prefix(20).map(Self.hex))")
            #expect(changed > 1000 && different.isEmpty)
        }

        @Test(arguments: NormalizationForm.allCases)
        func textsNormalizeAlike(_ form: NormalizationForm) {
            var random = RandomText(seed: 29)
            let texts = OpenModelFixtures.udhrTexts + (0..<4000).map { ("random \($0)", random.text()) }
            var mine: [UInt32] = [], theirs: [UInt32] = []
            var different: [String] = []
            var changed = 0
            for (name, text) in texts {
                let bytes = Array(text.utf8)
                let (a, b) = bytes.withUnsafeBufferPointer { p in
                    (
                        StdlibUnicode.normalize(p.baseAddress!, count: p.count, to: form, scratch: &mine),
                        UTF8ProcUnicode.normalize(p.baseAddress!, count: p.count, to: form, scratch: &theirs)
                    )
                }
                if a != b { different.append(name) }
                if b != bytes { changed += 1 }
            }
            print("\(form) of \(OpenModelFixtures.udhrTexts.count) UDHR and 4000 random texts: \(changed) change, \(different.count) differ \(different.prefix(10))")
            #expect(OpenModelFixtures.udhrTexts.count >= 388 || !TestRepository.isCI)
            #expect(different.isEmpty)
        }

        /// Grapheme clusters follow the runtime's Unicode (16.0 in Swift 6.3), not
        /// utf8proc's 15.0, and may differ for three reasons, each counted apart:
        /// characters newer than 15.0; U+11A3A ZANABAZAR SQUARE CLUSTER-INITIAL
        /// LETTER RA, `Prepend` in 15.0 and not since 16.0; and rule GB9c (15.1),
        /// which keeps an Indic conjunct — consonant, virama, consonant in
        /// Devanagari, Bengali, Gujarati, Oriya, Telugu and Malayalam — in one
        /// cluster where utf8proc breaks before the second consonant.
        static let prependChangedSince15: Set<UInt32> = [0x11A3A]

        static func isExplainedGraphemeDifference(_ c: UInt32) -> Bool {
            isNewerThanUnicode15(c) || prependChangedSince15.contains(c)
        }

        @Test func prependMatchesUpToNewerCharacters() {
            let different = Self.allCodePoints.filter { StdlibUnicode.isPrepend($0) != UTF8ProcUnicode.isPrepend($0) }
            let unexplained = different.filter { !Self.isExplainedGraphemeDifference($0) }
            print("Prepend: \(different.count) code points differ \(different.map(Self.hex)), \(unexplained.count) unexplained")
            #expect(unexplained.isEmpty)
        }

        static let graphemeSamples: [String] = [
            "👨‍👩‍👧‍👦 family", "🇫🇷🇯🇵🇺", "x🇫🇷🇯🇵🇺🇸", "👍🏽👍🏿", "❤️‍🔥", "🏳️‍🌈", "1️⃣#️⃣", "🧑🏽‍🚀", "🫠🫨", "👩\u{200D}x", "a\u{200D}👩",
            "한국어", "\u{1100}\u{1161}\u{11A8}", "\u{AC00}\u{11A8}", "\u{1100}\u{1100}\u{1161}", "\u{AC01}\u{11A8}\u{11A8}", "\u{1161}\u{11A8}\u{AC00}", "\u{D7B0}\u{D7CB}",
            "क्षत्रिय", "स्त्री", "क्‍ष", "क़्क", "প্রশ্ন", "ক্ষ", "ક્ષ", "କ୍ଷ", "క్ష", "ക്ഷ", "ன்னு", "ශ්‍රී", "ဂ်ေ", "ไทย ำ น้ำ", "ພາສາລາວ",
            "\u{0600}123", "\u{06DD}\u{0661}", "\u{110BD}\u{11083}", "\u{0D4E}ക", "\u{11A3A}\u{11A0B}",
            "a\r\nb", "\r\r\n\n", "\u{200B}x", "a\u{0301}\u{0302}", "\u{0301}a", "e\u{0301}\u{20DD}", "\u{1F1E6}", "\u{FE0F}"
        ]

        /// The grapheme boundaries of `bytes` by `source`, scanning from the start.
        static func graphemeBoundaries<S: UnicodeSource>(_ bytes: [UInt8], _ source: S.Type) -> Set<Int> {
            var result: Set<Int> = []
            bytes.withUnsafeBufferPointer { b in
                guard let t = b.baseAddress else { return }
                S.forEachGraphemeBoundary(in: t, count: b.count, after: 0, through: b.count) {
                    result.insert($0); return true
                }
            }
            return result
        }

        /// The valid scalars of `bytes` with their byte offsets.
        static func scalars(_ bytes: [UInt8]) -> [(offset: Int, value: Unicode.Scalar)] {
            bytes.withUnsafeBufferPointer { b in
                let cursor = UTF8Cursor(base: b.baseAddress!, end: b.count, table: .shared)
                var result: [(offset: Int, value: Unicode.Scalar)] = []
                var i = 0
                while i < b.count {
                    let c = cursor.character(at: i)
                    if let scalar = Unicode.Scalar(c.value) { result.append((i, scalar)) }
                    i += c.length
                }
                return result
            }
        }

        /// Whether GB9c explains a boundary utf8proc has and Swift has not at `p`:
        /// a consonant there, and before it a run of marks and ZWJs holding a
        /// virama, after a consonant.
        static func isIndicConjunct(at p: Int, _ scalars: [(offset: Int, value: Unicode.Scalar)]) -> Bool {
            func isConsonant(_ s: Unicode.Scalar) -> Bool {
                [0x0900...0x097F, 0x0980...0x09FF, 0x0A80...0x0AFF, 0x0B00...0x0B7F, 0x0C00...0x0C7F, 0x0D00...0x0D7F].contains { $0.contains(s.value) }
                    && s.properties.generalCategory == .otherLetter
            }
            let linkers: Set<UInt32> = [0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D]
            guard let k = scalars.firstIndex(where: { $0.offset == p }), isConsonant(scalars[k].value) else { return false }
            var j = k - 1
            var sawLinker = false
            while j >= 0, scalars[j].value.value == 0x200D || scalars[j].value.properties.generalCategory == .nonspacingMark {
                sawLinker = sawLinker || linkers.contains(scalars[j].value.value)
                j -= 1
            }
            return sawLinker && j >= 0 && isConsonant(scalars[j].value)
        }

        @Test func graphemeBoundariesMatchUpToExplainedDifferences() {
            var random = RandomText(seed: 41)
            var texts = OpenModelFixtures.udhrTexts.map { (name: $0.name, bytes: Array($0.text.utf8)) }
            texts += Self.graphemeSamples.enumerated().map { ("sample \($0.offset)", Array($0.element.utf8)) }
            texts += (0..<4000).map { ("random \($0)", Array(random.text().utf8)) }
            // Invalid bytes spliced into the samples: units of their own to both.
            texts += Self.graphemeSamples.enumerated().map { ("broken sample \($0.offset)", [0xFF] + Array($0.element.utf8.dropLast()) + [0xE0, 0x80, 0x41]) }
            var boundaries = 0, conjuncts = 0, newer = 0
            var unexplained: [String] = []
            for (name, bytes) in texts {
                let theirs = Self.graphemeBoundaries(bytes, UTF8ProcUnicode.self)
                let mine = Self.graphemeBoundaries(bytes, StdlibUnicode.self)
                boundaries += theirs.count
                guard theirs != mine else { continue }
                let scalars = Self.scalars(bytes)
                for p in theirs.symmetricDifference(mine).sorted() {
                    let around = scalars.filter { $0.offset < p }.suffix(1) + scalars.filter { $0.offset >= p }.prefix(1)
                    if around.contains(where: { Self.isExplainedGraphemeDifference($0.value.value) }) {
                        newer += 1
                    } else if theirs.contains(p) && Self.isIndicConjunct(at: p, scalars) {
                        conjuncts += 1
                    } else {
                        unexplained.append("\(name) at byte \(p): utf8proc \(theirs.contains(p) ? "breaks" : "joins")")
                    }
                }
            }
            print(
                "grapheme boundaries: \(texts.count) texts, \(boundaries) utf8proc boundaries; differ: \(conjuncts) Indic conjuncts (GB9c), "
                    + "\(newer) around characters changed since Unicode 15.0, \(unexplained.count) unexplained")
            #expect(conjuncts > 0, "GB9c no longer changes anything: the runtime's rules changed")
            #expect(unexplained.isEmpty, "\(unexplained.prefix(20))")
        }

        /// The two-scalar break test, on every distinct pair of neighbours in the texts.
        @Test func pairwiseGraphemeBreaksMatch() {
            var pairs = Set<UInt64>()
            for text in OpenModelFixtures.udhrTexts.map(\.text) + Self.graphemeSamples {
                let values = text.unicodeScalars.map(\.value)
                for (a, b) in zip(values, values.dropFirst()) { pairs.insert(UInt64(a) << 32 | UInt64(b)) }
            }
            let different = pairs.filter { pair in
                let a = UInt32(pair >> 32), b = UInt32(truncatingIfNeeded: pair)
                return StdlibUnicode.isGraphemeBreak(between: a, and: b) != UTF8ProcUnicode.isGraphemeBreak(between: a, and: b)
                    && !Self.isExplainedGraphemeDifference(a) && !Self.isExplainedGraphemeDifference(b)
            }
            print("pairwise grapheme breaks: \(pairs.count) distinct pairs, \(different.count) unexplained differences")
            #expect(different.isEmpty, "\(different.prefix(10).map { (Self.hex(UInt32($0 >> 32)), Self.hex(UInt32(truncatingIfNeeded: $0))) })")
        }
    #endif
}
