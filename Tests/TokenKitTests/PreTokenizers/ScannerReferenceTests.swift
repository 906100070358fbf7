import Foundation
import Testing
import TokenKit

/// Each hand-written scanner splits text exactly as ICU's regex engine does
/// with the pattern the scanner claims to implement.
///
/// The scanners' classes are Unicode 16.0's (`CharacterClassTable.shared`),
/// as tiktoken's and this platform's ICU are; a text may differ only if it
/// holds a character newer than 16.0, should the platform's ICU know it.
@Suite("scanners against the regex reference")
struct ScannerReferenceTests {
    static let scanners: [(String, PreTokenizer)] = [("cl100k", .cl100k), ("o200k", .o200k), ("r50k", .r50k), ("tekken", .tekken)]

    static let texts: [(String, String)] = {
        var texts: [(String, String)] = []
        if let fixtures = try? TokenFixture.load(encoding: "cl100k_base") {
            for f in fixtures where f.text.utf8.count < 200_000 { texts.append((f.name, f.text)) }
        }
        texts += handWritten.enumerated().map { ("hand/\($0.offset)", $0.element) }
        return texts
    }()

    /// Cases chosen to reach every alternative of the three patterns.
    static let handWritten = [
        "", " ", "  ", "a", "'s", "'S", "'ſ", "don't", "DON'T", "we'LL", "x'Re", "''s", "'",
        "hello world", "  leading", "trailing  ", "tabs\t\tand spaces \t x", "a\n\nb", "a \n \n b",
        "a\r\n\r\nb", " \n ", "end with newline\n", "end with spaces and newline \n  ",
        "12345678", "१२३४", "x²³", "½ ⅓", "(hello)", "((nested))", "! ?", "a!!!\n\nb", "a/\n/b",
        "camelCaseWord", "HTTPServer", "ǅungla", "ÀÉÎ", "e\u{301}te\u{301}", "\u{301}start", " \u{301}x",
        "ABCdefGHI", "ǈǉǊ", "ᴬᴮᴰ", "中文字符", "日本語のテキスト", "한국어", "ภาษาไทย", "العربية", "हिन्दी",
        "👩‍👩‍👧‍👦", "👍🏽", "🇫🇷", "\u{00A0}nbsp", "\u{2028}\u{2029}", "\u{0B}\u{0C}", "\u{85}next",
        "<|endoftext|>", "a<|endoftext|>b", "x  \u{3000}y", "$$$ 100 USD", "C++/C#", "path/to/file.txt",
        // Around the 8-byte steps of the ASCII letter-run path: a non-ASCII letter or mark at each offset.
        "abcdefghé", "ABCDEFGHÉx", "(ABCé", " wordé", "Hello\u{301}", "it'S", "abcdefgh中", "ABCDEFGHIJKLMNOPé",
        "abcdefghijklmnop\u{301}", " abcdefgh'sé"
    ]

    @Test("same pieces as ICU running the same pattern", arguments: scanners.map(\.0))
    func samePieces(scanner name: String) throws {
        let scanner = Self.scanners.first { $0.0 == name }!.1
        let reference = try scanner.reference()
        var differences: [String] = []
        for (caseName, text) in Self.texts {
            let mine = scanner.pieces(of: text)
            let theirs = reference.pieces(of: text)
            if mine != theirs && !TokenKitFuzzProperties.hasCharacterNewerThanUnicode16(text) {
                let at = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(mine.count, theirs.count)
                let bytes = Array(text.utf8)
                func show(_ r: Range<Int>?) -> String {
                    guard let r else { return "nothing" }
                    return String(reflecting: String(decoding: bytes[r], as: UTF8.self))
                }
                differences.append("\(caseName): piece \(at): scanner \(show(at < mine.count ? mine[at] : nil)), ICU \(show(at < theirs.count ? theirs[at] : nil))")
            }
        }
        let newer = Self.texts.filter { TokenKitFuzzProperties.hasCharacterNewerThanUnicode16($0.1) }.count
        print("scanner \(name) vs ICU: \(Self.texts.count) texts (\(newer) with characters newer than Unicode 16.0), \(differences.count) unexplained differences")
        #expect(differences.isEmpty, "\(differences.count) texts split differently:\n\(differences.prefix(15).joined(separator: "\n"))")
    }

    @Test("pieces tile the text", arguments: scanners.map(\.0))
    func piecesTile(scanner name: String) {
        let scanner = Self.scanners.first { $0.0 == name }!.1
        for (_, text) in Self.texts.prefix(500) {
            let pieces = scanner.pieces(of: text)
            var expected = 0
            for p in pieces {
                #expect(p.lowerBound == expected && p.upperBound > p.lowerBound)
                expected = p.upperBound
            }
            #expect(expected == text.utf8.count)
        }
    }
}
