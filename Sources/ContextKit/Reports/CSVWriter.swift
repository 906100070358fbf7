/// A CSV file (RFC 4180): a header line, then one line per row, LF line
/// endings, fields quoted only when they hold a comma, quote or line break.
public struct CSVWriter: Sendable {
    public var header: [String]
    public var rows: [[String]] = []

    public init(header: [String]) {
        self.header = header
    }

    public mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "a CSV row needs \(header.count) fields, got \(row.count)")
        rows.append(row)
    }

    public func render() -> String {
        ([header] + rows).map { $0.map(Self.field).joined(separator: ",") + "\n" }.joined()
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
