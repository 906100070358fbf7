import ContextKit
import ContextKitJSON
import Foundation

/// A text in one language, as density measures it: a parallel-corpus file or
/// its UDHR counterpart.
package struct LanguageSample: Sendable, Equatable {
    /// BCP 47 tag (`zh-Hans`).
    package var tag: String
    /// English name of the language (`Chinese (Simplified)`).
    package var language: String
    /// ISO 15924 script code (`Hans`).
    package var script: String
    /// Where the text came from, for reports (`corpora/prose/ja.txt`).
    package var source: String
    package var text: String

    package init(tag: String, language: String, script: String, source: String, text: String) {
        self.tag = tag
        self.language = language
        self.script = script
        self.source = source
        self.text = text
    }

    /// The prose corpus: every `<tag>.txt` in `directory` with its `<tag>.json`
    /// sidecar, English first, then by tag. `sourcePrefix` names the directory in reports.
    package static func loadCorpus(directory: URL, sourcePrefix: String) throws -> [LanguageSample] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MeasurementError.unreadable(path: directory.path, reason: "the prose corpus directory cannot be listed: \((error as NSError).localizedDescription)")
        }
        var samples: [LanguageSample] = []
        for name in names where name.hasSuffix(".txt") {
            let tag = String(name.dropLast(4))
            let text = try read(directory.appendingPathComponent(name))
            let sidecarURL = directory.appendingPathComponent(tag + ".json")
            let sidecar: Sidecar
            do {
                sidecar = try JSONParser.decode(Sidecar.self, from: [UInt8](Data(contentsOf: sidecarURL)))
            } catch {
                throw MeasurementError.unreadable(
                    path: sidecarURL.path, reason: "every corpus text needs a JSON sidecar with \"language\", \"tag\" and \"script\" (see corpora/README.md): \(error)")
            }
            samples.append(
                LanguageSample(
                    tag: tag, language: sidecar.language, script: sidecar.script,
                    source: sourcePrefix + "/" + name, text: text))
        }
        if samples.isEmpty {
            throw MeasurementError.unreadable(path: directory.path, reason: "no <tag>.txt files in the prose corpus directory")
        }
        return samples.sorted { ($0.tag == "en" ? 0 : 1, $0.tag) < ($1.tag == "en" ? 0 : 1, $1.tag) }
    }

    static func read(_ url: URL) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MeasurementError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MeasurementError.unreadable(path: url.path, reason: "not valid UTF-8")
        }
        return text
    }

    private struct Sidecar: Decodable {
        var language: String
        var script: String
    }
}
