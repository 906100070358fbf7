import Foundation
import Testing
import ContextKit
@testable import ContextKitReports

@Suite("Density")
struct DensityTests {
    static func sample(_ tag: String, _ text: String) -> LanguageSample {
        LanguageSample(tag: tag, language: tag, script: "Zyyy", source: tag, text: text)
    }

    @Test("figures are ratios of characters, bytes and tokens; the tax is relative to the reference")
    func figures() throws {
        let o200k = MeasuredTokenizer(label: "o200k", tokenizer: try Tokenizer.named("o200k_base"))
        let english = "The lighthouse keeper lit the lamp at dusk.\n"
        let japanese = "灯台守は夕暮れにランプを灯した。\n"
        let density = try Density.measure(corpus: [Self.sample("en", english), Self.sample("ja", japanese)], tokenizers: [o200k], window: 4096)
        let en = try #require(density.row(tokenizer: "o200k", tag: "en"))
        let ja = try #require(density.row(tokenizer: "o200k", tag: "ja"))
        #expect(en.corpus == Density.Measure(characters: english.unicodeScalars.count, bytes: english.utf8.count, tokens: o200k.count(english)))
        #expect(ja.corpus.characters == japanese.unicodeScalars.count && ja.corpus.bytes == japanese.utf8.count)
        #expect(en.corpusTax == 1)
        #expect(ja.corpusTax == Double(ja.corpus.tokens) / Double(en.corpus.tokens))
        #expect(en.corpus.charactersPerToken == Double(en.corpus.characters) / Double(en.corpus.tokens))
        #expect(ja.corpus.bytesPerToken == Double(ja.corpus.bytes) / Double(ja.corpus.tokens))
        #expect(en.corpus.charactersFitting(window: 4096) == en.corpus.characters * 4096 / en.corpus.tokens)
        #expect(en.udhr == nil && en.udhrTax == nil)
    }

    @Test("the cross-check is measured and taxed against its own reference text")
    func crossCheck() throws {
        let cl100k = MeasuredTokenizer(label: "cl100k", tokenizer: try Tokenizer.named("cl100k_base"))
        let corpus = [Self.sample("en", "one two three"), Self.sample("de", "eins zwei drei")]
        let udhr = ["en": Self.sample("en", "All human beings are born free."), "de": Self.sample("de", "Alle Menschen sind frei geboren.")]
        var seen = 0
        let density = try Density.measure(corpus: corpus, crossCheck: udhr, tokenizers: [cl100k]) { seen = $0 }
        let de = try #require(density.row(tokenizer: "cl100k", tag: "de"))
        let deUDHR = try #require(de.udhr)
        let enUDHR = try #require(density.row(tokenizer: "cl100k", tag: "en")?.udhr)
        #expect(de.udhrTax == Double(deUDHR.tokens) / Double(enUDHR.tokens))
        #expect(seen == Density.workload(corpus: corpus, crossCheck: udhr, tokenizers: 1))
    }

    @Test("a corpus without the reference language is an error that names it")
    func missingReference() throws {
        let tokenizer = MeasuredTokenizer(label: "o200k", tokenizer: try Tokenizer.named("o200k_base"))
        #expect(throws: MeasurementError.self) {
            try Density.measure(corpus: [Self.sample("fr", "bonjour")], tokenizers: [tokenizer])
        }
    }

    @Test("an estimating counter prices CJK characters per character")
    func estimate() throws {
        let catalog = try ProfileCatalog.builtIn()
        let apple = try MeasuredTokenizer(profile: catalog.profile(named: "apple-on-device"))
        let estimate = try #require(apple.estimate)
        let text = "日本語の文章です。"
        let proxy = try Tokenizer.named("cl100k_base").count(text)
        let cjk = text.unicodeScalars.filter { TextStats.isCJK($0.value) }.count
        #expect(apple.count(text) == estimate.tokens(proxyTokens: proxy, cjkCharacters: cjk))
        #expect(apple.label == "apple-on-device (est.)")
    }

    @Test("UDHR text is NFC-normalised, trimmed line by line and stripped of blank lines")
    func udhrCleaning() {
        let decomposed = "  Vie\u{0302}\u{0323}t  \n\n\t Nam \r\n   \n"
        #expect(UDHRTexts.clean(decomposed) == "Vi\u{1EC7}t\nNam\n")
    }

    @Test("the corpus is read with its sidecars, English first")
    func loadCorpus() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("density-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (tag, language, script, text) in [("de", "German", "Latn", "Hallo\n"), ("en", "English", "Latn", "Hello\n"), ("ar", "Arabic", "Arab", "مرحبا\n")] {
            try Data(text.utf8).write(to: directory.appendingPathComponent("\(tag).txt"))
            try Data(#"{"language": "\#(language)", "tag": "\#(tag)", "script": "\#(script)"}"#.utf8).write(to: directory.appendingPathComponent("\(tag).json"))
        }
        let samples = try LanguageSample.loadCorpus(directory: directory, sourcePrefix: "prose")
        #expect(samples.map(\.tag) == ["en", "ar", "de"])
        #expect(samples[1].language == "Arabic" && samples[1].script == "Arab" && samples[1].source == "prose/ar.txt")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("de.json"))
        #expect(throws: MeasurementError.self) { try LanguageSample.loadCorpus(directory: directory, sourcePrefix: "prose") }
    }
}
