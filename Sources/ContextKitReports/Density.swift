import ContextKit
import Foundation

/// How densely tokenizers pack each language: characters and bytes per token,
/// tokens relative to English on the same (parallel) text, and how much text
/// fits in a window — measured on the corpus and, beside it, on the UDHR.
///
/// Characters are Unicode scalars of NFC text (what `TextStats` counts):
/// the unit Apple's "characters per token" guidance is usually read in.
package struct Density: Sendable {
    /// The size of one text and its token count.
    package struct Measure: Equatable, Sendable {
        package var characters: Int
        package var bytes: Int
        package var tokens: Int

        package init(characters: Int, bytes: Int, tokens: Int) {
            self.characters = characters
            self.bytes = bytes
            self.tokens = tokens
        }

        package var charactersPerToken: Double { tokens > 0 ? Double(characters) / Double(tokens) : 0 }
        package var bytesPerToken: Double { tokens > 0 ? Double(bytes) / Double(tokens) : 0 }

        /// Tokens of this text for each token of the reference's (the same content in English).
        package func tokenTax(relativeTo reference: Measure) -> Double {
            reference.tokens > 0 ? Double(tokens) / Double(reference.tokens) : 0
        }

        /// Characters of text like this that fit in `window` tokens.
        package func charactersFitting(window: Int) -> Int {
            tokens > 0 ? characters * window / tokens : 0
        }
    }

    /// One language under one tokenizer.
    package struct Row: Sendable {
        package var tokenizer: String
        package var tag: String
        package var language: String
        package var script: String
        package var corpus: Measure
        /// Tokens relative to the reference language's corpus text.
        package var corpusTax: Double
        /// The UDHR cross-check, when the language has a UDHR text.
        package var udhr: Measure?
        package var udhrTax: Double?
    }

    /// Tokenizer labels, in the order measured.
    package var tokenizers: [String]
    /// Language tags, in corpus order.
    package var tags: [String]
    /// Every (tokenizer, language), tokenizer-major.
    package var rows: [Row]
    package var referenceTag: String
    /// The window `charactersFitting` is quoted for.
    package var window: Int

    package func rows(tokenizer: String) -> [Row] { rows.filter { $0.tokenizer == tokenizer } }

    package func row(tokenizer: String, tag: String) -> Row? { rows.first { $0.tokenizer == tokenizer && $0.tag == tag } }

    /// Measures `corpus` (and `crossCheck`, keyed by tag) with each tokenizer.
    /// - Parameter progress: called with the bytes counted so far after each text, for a progress bar.
    package static func measure(
        corpus: [LanguageSample], crossCheck: [String: LanguageSample] = [:],
        tokenizers: [MeasuredTokenizer], referenceTag: String = "en", window: Int = 4096,
        progress: (Int) -> Void = { _ in }
    ) throws -> Density {
        guard let reference = corpus.first(where: { $0.tag == referenceTag }) else {
            throw MeasurementError.missingReference(tag: referenceTag, in: corpus.first.map { ($0.source as NSString).deletingLastPathComponent } ?? "the corpus")
        }
        var done = 0
        func measure(_ sample: LanguageSample, _ tokenizer: MeasuredTokenizer) -> Measure {
            var text = sample.text
            let measure = text.withUTF8 { utf8 in
                let stats = TextStats(scanning: utf8)
                return Measure(characters: stats.characters, bytes: stats.bytes, tokens: tokenizer.count(utf8: utf8))
            }
            done += measure.bytes
            progress(done)
            return measure
        }
        var rows: [Row] = []
        for tokenizer in tokenizers {
            let referenceCorpus = measure(reference, tokenizer)
            let referenceUDHR = crossCheck[referenceTag].map { measure($0, tokenizer) }
            for sample in corpus {
                let corpusMeasure = sample.tag == referenceTag ? referenceCorpus : measure(sample, tokenizer)
                var udhr: Measure?
                var udhrTax: Double?
                if let text = crossCheck[sample.tag] {
                    let m = sample.tag == referenceTag ? referenceUDHR! : measure(text, tokenizer)
                    udhr = m
                    udhrTax = referenceUDHR.map { m.tokenTax(relativeTo: $0) }
                }
                rows.append(
                    Row(
                        tokenizer: tokenizer.label, tag: sample.tag, language: sample.language, script: sample.script,
                        corpus: corpusMeasure, corpusTax: corpusMeasure.tokenTax(relativeTo: referenceCorpus),
                        udhr: udhr, udhrTax: udhrTax))
            }
        }
        return Density(
            tokenizers: tokenizers.map(\.label), tags: corpus.map(\.tag), rows: rows,
            referenceTag: referenceTag, window: window)
    }

    /// Bytes `measure` will count, for sizing a progress bar.
    package static func workload(corpus: [LanguageSample], crossCheck: [String: LanguageSample], tokenizers: Int) -> Int {
        (corpus.map(\.text.utf8.count).reduce(0, +) + crossCheck.values.map(\.text.utf8.count).reduce(0, +)) * tokenizers
    }
}
