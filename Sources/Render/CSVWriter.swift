import Foundation

/// A CSV file (RFC 4180): a header line, then one line per row, LF line
/// endings, fields quoted only when they hold a comma, quote or line break.
package struct CSVWriter: Sendable {
    package var header: [String]
    package var rows: [[String]] = []

    package init(header: [String]) {
        self.header = header
    }

    package mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "a CSV row needs \(header.count) fields, got \(row.count)")
        rows.append(row)
    }

    package func render() -> String {
        ([header] + rows).map { $0.map(Self.field).joined(separator: ",") + "\n" }.joined()
    }

    package static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
