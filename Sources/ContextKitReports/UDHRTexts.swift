import ContextKit
import Foundation

/// The Universal Declaration of Human Rights as a second parallel text for
/// density: a check that the corpus figures are not an accident of one text.
///
/// The files (`udhr/<ISO 639-3>.txt`) indent every line and some are not
/// NFC (Vietnamese, Hindi), so each is NFC-normalised, its lines trimmed and
/// blank lines dropped before counting; otherwise indentation and
/// decomposed accents would be measured instead of the language.
package enum UDHRTexts {
    /// The UDHR file for each corpus tag. Choices where there are several:
    /// `deu` (1996 spelling), `por_BR` (the corpus is Brazilian),
    /// `ell_monotonic` (modern Greek), `pes_1` (Iranian Persian).
    package static let fileNames: [String: String] = [
        "en": "eng", "zh-Hans": "cmn_hans", "zh-Hant": "cmn_hant", "ja": "jpn", "ko": "kor", "ar": "arb",
        "hi": "hin", "bn": "ben", "ru": "rus", "uk": "ukr", "de": "deu", "fr": "fra", "es": "spa", "pt": "por_BR",
        "it": "ita", "tr": "tur", "vi": "vie", "th": "tha", "he": "heb", "el": "ell_monotonic", "fa": "pes_1",
        "id": "ind", "sw": "swh", "pl": "pol"
    ]

    /// The UDHR counterparts of `samples`, by tag, for those that have one
    /// (a missing file is an error: the directory is incomplete).
    package static func load(directory: URL, for samples: [LanguageSample], sourcePrefix: String) throws -> [String: LanguageSample] {
        var out: [String: LanguageSample] = [:]
        for sample in samples {
            guard let name = fileNames[sample.tag] else { continue }
            let url = directory.appendingPathComponent(name + ".txt")
            let text = clean(try LanguageSample.read(url))
            out[sample.tag] = LanguageSample(
                tag: sample.tag, language: sample.language, script: sample.script,
                source: sourcePrefix + "/" + name + ".txt", text: text)
        }
        return out
    }

    /// NFC, each line trimmed of surrounding whitespace, blank lines dropped, one final newline.
    package static func clean(_ text: String) -> String {
        let normalized = text.precomposedStringWithCanonicalMapping
        let lines = normalized.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.joined(separator: "\n") + "\n"
    }
}
