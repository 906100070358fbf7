/// Why a text is not JSON, and where (1-based line and column, columns in characters).
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public let line: Int
    public let column: Int
    public let reason: String

    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String {
        "line \(line), column \(column): \(reason)"
    }
}
