import ContextKit
import Foundation

/// Splits a reflowed paragraph into sentences with the rule the chunk planner
/// cuts by (`SentenceRules`, through `BoundaryFinder`), so chunking and
/// summarising agree on what a sentence is; a cut after a common abbreviation
/// (`e.g.`, `i.e.`, `vs.`, `Dr.`, `Inc.`) or a name's initial (`Isaac Z.
/// Schlueter`, `U.S.`) is undone, since the rule does not know them.
enum SentenceSplitter {
    /// Abbreviations after which a sentence does not end (compared in lower case).
    static let abbreviations: Set<String> = [
        "e.g.", "i.e.", "vs.", "cf.", "mr.", "mrs.", "ms.", "dr.", "st.", "no.", "fig.", "approx.", "incl.",
        "inc.", "ltd.", "jr.", "sr.", "prof.", "al.", "vol.", "sec."
    ]

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
            let word = pending.split(separator: " ").last.map { $0.trimmingCharacters(in: .init(charactersIn: "(\"'*_")) } ?? ""
            if end < bytes.count, abbreviations.contains(word.lowercased()) || isInitials(word) { continue }
            if !pending.isEmpty { sentences.append(pending) }
            pending = ""
        }
        if !pending.isEmpty { sentences.append(pending) }
        return sentences
    }

    /// `Z.`, `U.S.`: one or more capital letters each followed by a period.
    static func isInitials(_ word: String) -> Bool {
        word.wholeMatch(of: /(?:\p{Lu}\.)+/) != nil
    }
}
