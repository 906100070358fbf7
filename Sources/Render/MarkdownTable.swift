import Foundation

/// A GitHub-flavoured Markdown table with aligned columns, so the file also
/// reads well as plain text.
package struct MarkdownTable: Sendable {
    package enum Alignment: Sendable { case left, right }

    package var header: [String]
    package var alignments: [Alignment]
    package var rows: [[String]] = []

    /// Columns are right-aligned (numbers) unless `alignments` says otherwise.
    package init(header: [String], alignments: [Alignment]? = nil) {
        self.header = header
        self.alignments = alignments ?? header.map { _ in .right }
    }

    package mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "a table row needs \(header.count) cells, got \(row.count)")
        rows.append(row)
    }

    package func render() -> String {
        let cells = ([header] + rows).map { $0.map(Self.escape) }
        // Width in characters (grapheme clusters): close enough for the
        // alignment of plain text; Markdown renderers ignore the padding.
        let widths = header.indices.map { column in max(3, cells.map { $0[column].count }.max() ?? 0) }
        func line(_ row: [String]) -> String {
            let padded = row.enumerated().map { column, text in
                let padding = String(repeating: " ", count: widths[column] - text.count)
                return alignments[column] == .right ? padding + text : text + padding
            }
            return "| " + padded.joined(separator: " | ") + " |\n"
        }
        let rule =
            "|"
            + widths.enumerated().map { column, width in
                alignments[column] == .right ? String(repeating: "-", count: width + 1) + ":" : ":" + String(repeating: "-", count: width + 1)
            }.joined(separator: "|") + "|\n"
        return line(cells[0]) + rule + cells.dropFirst().map(line).joined()
    }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
