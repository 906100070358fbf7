import ContextKit
import Foundation

/// Splits a reflowed paragraph into sentences with the rule the chunk planner
/// cuts by (`SentenceRules`, through `BoundaryFinder`), so chunking and
/// summarising agree on what a sentence is; a cut after a common abbreviation
/// (`e.g.`, `i.e.`, `vs.`, `Dr.`) is undone, since the rule does not know them.
enum SentenceSplitter {
    /// Abbreviations after which a sentence does not end (compared in lower case).
    static let abbreviations: Set<String> = ["e.g.", "i.e.", "vs.", "cf.", "mr.", "mrs.", "ms.", "dr.", "st.", "no.", "fig.", "approx.", "incl."]

    /// The sentences of `paragraph` (one line), each trimmed.
    static func sentences(in paragraph: String) -> [String] {
        let bytes = Array(paragraph.utf8)
        let cuts = BoundaryFinder.boundaries(in: paragraph, markdown: false).filter { $0.level == .sentence }.map(\.offset)
        var sentences: [String] = []
        var start = 0
        var pending = ""
        for end in cuts + [bytes.count] where end > start {
            let piece = String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            start = end
            pending = pending.isEmpty ? piece : pending + " " + piece
            let last = pending.split(separator: " ").last.map { $0.lowercased() } ?? ""
            if end < bytes.count, abbreviations.contains(last.trimmingCharacters(in: .init(charactersIn: "(\"'"))) { continue }
            if !pending.isEmpty { sentences.append(pending) }
            pending = ""
        }
        if !pending.isEmpty { sentences.append(pending) }
        return sentences
    }
}
