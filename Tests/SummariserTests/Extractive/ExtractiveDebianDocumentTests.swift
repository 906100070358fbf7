import Foundation
import ContextKit
import TestSupport
import Testing
@testable import Summariser

/// The offline summaries of real documents Debian ships
/// (`Tests/Fixtures/debian-docs`, see its PROVENANCE.md) read as a person
/// would want them: every point a clean sentence, every headline a clean
/// title, by a check written here apart from the summariser's own filter
/// (the same check `bench/extractive.py --debian` applies to the peers).
@Suite struct ExtractiveDebianDocumentTests {
    static let documents = [
        "nodejs-README.md", "nodejs-api-path.md", "nodejs-api-events.md", "nodejs-api-tty.md",
        "nodejs-api-string_decoder.md", "nodejs-api-querystring.md", "nodejs-api-punycode.md", "GPL-3",
        "base-files-README", "gettext-README", "cscope-README", "e2fsprogs-README",
        "fonts-dejavu-core-README.md", "debian-archive-keyring-README"
    ]

    static func document(_ name: String) throws -> String {
        try String(contentsOf: TestRepository.fixtures.appendingPathComponent("debian-docs/\(name)"), encoding: .utf8)
    }

    /// Markdown a reader should not see: a link or image, a reference link,
    /// a code-span backtick, emphasis or strikethrough marks against a word,
    /// an HTML tag or autolink, a heading, list or quote mark at the start, a
    /// table pipe.
    static var markup: Regex<Substring> {
        /\]\(|\]\[|`|\*\*|__|~~|(?:^|\s)[*_][^\s*_]|[^\s*_][*_](?:\s|$|[.,;:!?)])|<\/?[A-Za-z][^<>]*>|<[^<>\s]+@[^<>\s]+>|^#|^(?:[-*+>]|\d+[.)])\s|\|/
    }

    /// Why `point` is not a clean sentence, or nil when it is one: it starts
    /// with a capital or a digit, ends with terminal punctuation (before any
    /// closing quotes or brackets), has no Markdown markup and is no dangling
    /// fragment (under four words, a name's initial or an enumerator at its
    /// end, an enumerator at its start, brackets or quotes left open, a
    /// `term - description` entry, a `{type}` signature).
    static func sentenceFault(_ point: String) -> String? {
        let words = point.split(whereSeparator: \.isWhitespace)
        guard words.count >= 4 else { return "under four words" }
        guard let first = point.first, first.isUppercase || first.isNumber else { return "does not start with a capital or a digit" }
        guard let last = point.last(where: { !"\"')]\u{201D}\u{2019}".contains($0) }), ".!?".contains(last) else { return "no terminal punctuation" }
        if let mark = point.firstMatch(of: markup) { return "markup \(mark.output)" }
        if point.contains(/(?:^|\s)(?:[A-Z]\.)+$|\s[a-z]\.$/) { return "ends on an initial or an enumerator" }
        if point.prefixMatch(of: /(?:[A-Za-z]\.|\([A-Za-z]\))\s/) != nil { return "starts with a list's enumerator" }
        if point.filter({ $0 == "(" }).count != point.filter({ $0 == ")" }).count
            || point.filter({ $0 == "[" }).count != point.filter({ $0 == "]" }).count
            || point.filter({ $0 == "\"" }).count % 2 == 1
        {
            return "brackets or quotes left open"
        }
        if words.prefix(6).dropFirst().contains(where: { $0 == "-" || $0 == "\u{2013}" }) { return "a list's term - description" }
        if point.contains(/\{[^}]*\}/) { return "a parameter signature" }
        return nil
    }

    /// Openers that leave a headline hanging when they are all of it.
    static let connectives: Set<String> = [
        "by contrast", "in contrast", "however", "for example", "for instance", "in addition",
        "also", "moreover", "therefore", "thus", "finally", "first", "of course", "as a result",
        "similarly", "furthermore", "instead", "otherwise", "in particular", "in practice"
    ]

    /// Why `headline` is not a clean headline, or nil: a noun phrase or a
    /// sentence (then a clean one), starting with a capital or a digit, no
    /// markup, at most 80 characters, not a bare connective and not ending
    /// on a word or mark that leaves it hanging.
    static func headlineFault(_ headline: String) -> String? {
        guard !headline.isEmpty, headline.count <= 80 else { return "empty or over 80 characters" }
        guard let first = headline.first, first.isUppercase || first.isNumber else { return "does not start with a capital or a digit" }
        if let mark = headline.firstMatch(of: markup) { return "markup \(mark.output)" }
        let bare = headline.trimmingCharacters(in: CharacterSet(charactersIn: "\u{2026}. "))
        if connectives.contains(bare.lowercased().trimmingCharacters(in: .punctuationCharacters)) { return "a sentence opener" }
        let lastWord = bare.split(separator: " ").last.map { $0.lowercased() } ?? ""
        if ",;:-(".contains(bare.last ?? " ") || ["a", "an", "the", "and", "or", "of", "to", "in", "for", "with", "by", "is", "that"].contains(lastWord) {
            return "ends hanging on \(lastWord)"
        }
        if !headline.hasSuffix("\u{2026}"), ".!?".contains(headline.last!), headline.split(separator: " ").count >= 4 { return sentenceFault(headline) }
        return nil
    }

    /// As `ctxkit summarise FILE` runs it without a server: the engine with
    /// the extractive backend, planning for a 4,096-token window (a long
    /// document is mapped and reduced).
    static func summary(of text: String) async throws -> Summary {
        let profile = ModelProfile(name: "test", contextWindow: 4096, tokenizer: .encoding("cl100k_base"))
        let engine = try SummaryEngine(backend: ExtractiveBackend(), configuration: .init(profile: profile))
        return try await engine.summarise(text).summary
    }

    @Test(arguments: documents) func everyHeadlineAndPointOfADebianDocumentIsClean(name: String) async throws {
        let summary = try await Self.summary(of: try Self.document(name))
        #expect(Self.headlineFault(summary.headline) == nil, "\(name): headline \(summary.headline.debugDescription): \(Self.headlineFault(summary.headline) ?? "")")
        for point in summary.points {
            #expect(Self.sentenceFault(point) == nil, "\(name): \(point.debugDescription): \(Self.sentenceFault(point) ?? "")")
        }
    }

    @Test func theDebianDocumentsGiveThreePointsAlmostEverywhere() async throws {
        var counts: [String: Int] = [:]
        for name in Self.documents { counts[name] = try await Self.summary(of: try Self.document(name)).points.count }
        // The shortest READMEs have fewer than three clean sentences to give.
        #expect(counts.values.filter { $0 == 3 }.count >= Self.documents.count - 3, "\(counts)")
        #expect(counts.values.reduce(0, +) >= 3 * Self.documents.count - 6, "\(counts)")
    }

    @Test func theIssuesTwoDocumentsReadAsSentences() async throws {
        let readme = try await Self.summary(of: try Self.document("nodejs-README.md"))
        #expect(readme.headline == "Node.js")
        #expect(!readme.points.contains { $0.contains("isaacs") || $0.contains("Isaac") || $0.contains("](") })
        let gpl = try await Self.summary(of: try Self.document("GPL-3"))
        #expect(gpl.headline == "GNU GENERAL PUBLIC LICENSE")
    }

    /// The check itself: it must fail the fragments the issue quoted.
    @Test func theCleanCheckRejectsTheIssuesFragments() {
        #expect(Self.sentenceFault("[isaacs](https://github.com/isaacs) - **Isaac Z.") != nil)
        #expect(Self.sentenceFault("For more information, see the [Release README](https://github.com/nodejs/Release#readme).") != nil)
        #expect(Self.sentenceFault("`path` {string} The path to normalize.") != nil)
        #expect(Self.sentenceFault("Affirmer disclaims responsibility for any use of the Work. d.") != nil)
        #expect(Self.sentenceFault("G. Preserve in that license notice the full lists.") != nil)
        #expect(Self.sentenceFault("Releases appearing each April convert to LTS (see below) each October.") == nil)
        #expect(Self.headlineFault("By contrast") != nil)
        #expect(Self.headlineFault("The licenses for most software and other…") == nil)
        #expect(Self.headlineFault("README for the") != nil)
    }
}

/// The rules that make points and headlines plain.
@Suite struct ExtractivePlainTextTests {
    @Test func linksImagesAndAutolinksReadAsTheirText() {
        #expect(InlineMarkdown.plain("See the [Release README](https://github.com/nodejs/Release#readme).") == "See the Release README.")
        #expect(InlineMarkdown.plain("A [link (with parens)](https://en.wikipedia.org/wiki/A_(b)) here.") == "A link (with parens) here.")
        #expect(InlineMarkdown.plain("The [Node.js website][] and [TSC][tsc] help.") == "The Node.js website and TSC help.")
        #expect(InlineMarkdown.plain("![Build Status](https://ci/x.svg) Mail <i@izs.me> or <https://fsf.org/>.") == "Build Status Mail i@izs.me or https://fsf.org/.")
    }

    @Test func emphasisAndCodeMarksGoButTheirContentStays() {
        #expect(InlineMarkdown.plain("**This project has a Code of Conduct.**") == "This project has a Code of Conduct.")
        #expect(InlineMarkdown.plain("LTS releases receive _Active LTS_ support and *more* ~~less~~.") == "LTS releases receive Active LTS support and more less.")
        #expect(InlineMarkdown.plain("Call `fs.readFile()` with a `{ encoding }` object.") == "Call fs.readFile() with a { encoding } object.")
        // In a code span the marks are the content.
        #expect(InlineMarkdown.plain("Write `**` for bold and `snake_case_name` as is.") == "Write ** for bold and snake_case_name as is.")
        #expect(InlineMarkdown.plain("An escaped \\*star\\* stays, and 2 * 3 is six.") == "An escaped *star* stays, and 2 * 3 is six.")
        // A bold run the sentence splitter cut in two loses its stray mark.
        #expect(InlineMarkdown.plain("Schlueter** wrote npm.") == "Schlueter wrote npm.")
    }

    @Test func aNamesInitialDoesNotEndASentence() {
        #expect(SentenceSplitter.sentences(in: "It was written by Isaac Z. Schlueter in 2009. It grew.") == ["It was written by Isaac Z. Schlueter in 2009.", "It grew."])
        #expect(
            SentenceSplitter.sentences(in: "Free Software Foundation, Inc. publishes it. Anyone may copy it.") == [
                "Free Software Foundation, Inc. publishes it.", "Anyone may copy it."
            ])
    }

    @Test func listEntriesAndParameterLinesAreNeverPoints() {
        let text = """
            # Team

            The team reviews every change before it lands in a release branch.

            * [isaacs](https://github.com/isaacs) - **Isaac Z. Schlueter** <<i@izs.me>>
            * [indutny](https://github.com/indutny) - **Fedor Indutny** wrote the TLS layer in full.
            * `path` {string} The path to read from the disk now.
            * `options` - The options object passed to the reader.
            * [Support](#support)
            """
        let summary = ExtractiveSummariser().summarise(text)
        #expect(summary.points == ["The team reviews every change before it lands in a release branch."])
    }

    @Test func pointsArePlainSentences() {
        let text = """
            For more information, see the [Release README](https://github.com/nodejs/Release#readme). \
            The **Current** line is under _active_ development for six months. \
            Each `LTS` release gets twelve months of active support and more.
            """
        let summary = ExtractiveSummariser().summarise(text)
        #expect(
            summary.points == [
                "For more information, see the Release README.",
                "The Current line is under active development for six months.",
                "Each LTS release gets twelve months of active support and more."
            ])
    }

    @Test func aListsEnumeratorIsNotPartOfAPoint() {
        #expect(ExtractiveSummariser.withoutEnumerator("G. Preserve in that license notice the full lists.") == "Preserve in that license notice the full lists.")
        #expect(ExtractiveSummariser.withoutEnumerator("(a) The work must carry notices.") == "The work must carry notices.")
        #expect(ExtractiveSummariser.withoutEnumerator("A. and B. are both fine here.") == "A. and B. are both fine here.")
        let words = CopyDetector.words(in: "Further, Affirmer disclaims responsibility for any use of the Work. d.")
        #expect(
            !ExtractiveSummariser.isReadable(
                "Further, Affirmer disclaims responsibility for any use of the Work. d.",
                plain: "Further, Affirmer disclaims responsibility for any use of the Work. d.", words: words))
    }

    @Test func aShortTextIsItsOwnSummaryInPlainText() async throws {
        let profile = ModelProfile(name: "test", contextWindow: 4096, tokenizer: .encoding("cl100k_base"))
        let engine = try SummaryEngine(backend: ExtractiveBackend(), configuration: .init(profile: profile))
        let run = try await engine.summarise("# The **tide** table\n\nSee the [harbour notes](notes.md) before you sail.")
        #expect(run.isInputItsOwnSummary)
        #expect(run.summary == Summary(headline: "The tide table", points: ["See the harbour notes before you sail."]))
    }

    @Test func aCentredOrCapitalisedFirstLineIsAPlainTextsTitle() {
        let license =
            "                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n\n"
            + " Everyone is permitted to copy and distribute verbatim copies of this license document.\n"
        #expect(ExtractiveSummariser().summarise(license).headline == "GNU GENERAL PUBLIC LICENSE")
        #expect(ExtractiveSummariser.titleLine(of: "FREQUENTLY ASKED QUESTIONS\n\nText.") == "FREQUENTLY ASKED QUESTIONS")
        // A first line of prose, flush left and in mixed case, is not a title.
        #expect(ExtractiveSummariser.titleLine(of: "This is the GNU gettext package\nand more.") == nil)
        #expect(ExtractiveSummariser.titleLine(of: "    let x = 1") == nil)
        // The first line wins over a one-line paragraph after it.
        let apache =
            "                   Apache License\n             Version 2.0, January 2004\n\n"
            + "   TERMS AND CONDITIONS FOR USE\n\n   1. Definitions. The license is defined here in words that matter.\n"
        #expect(ExtractiveSummariser().summarise(apache).headline == "Apache License")
        // A first line ending in a colon is a title without it.
        #expect(ExtractiveSummariser().summarise("GNU bc version 1.07:\n\nThe program reads numbers and prints the results of sums.").headline == "GNU bc version 1.07")
    }

    @Test func withoutATitleTheHeadlineIsTheFirstSentenceShortenedNeverItsOpener() {
        let text = """
            By contrast, the GNU General Public License is intended to guarantee your freedom to share and change all versions of a program. \
            The licenses for most software are designed to take away your freedom to share and change it.
            """
        let headline = ExtractiveSummariser().summarise(text).headline
        #expect(headline == "The GNU General Public License is intended…")
        // A short first sentence is the headline whole.
        #expect(
            ExtractiveSummariser().summarise("Cscope is a source browsing tool. It searches C code for symbols and their callers quickly.").headline
                == "Cscope is a source browsing tool.")
        // Cut at a word, never on a dangling stop word.
        #expect(ExtractiveSummariser.shortened("Keepers clean the lens panels every morning with soft cloths.") == "Keepers clean the lens panels every morning…")
        // A capitalised opening clause is the sentence's subject, not an opener.
        #expect(ExtractiveSummariser.headline(fromSentence: "In Node.js, streams are everywhere.") == "In Node.js, streams are everywhere.")
        // A one-word opener is left out too (it once crashed: an empty range written `1...0`).
        #expect(ExtractiveSummariser.headline(fromSentence: "However, the lamp still turns.") == "The lamp still turns.")
    }
}
