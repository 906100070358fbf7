/// Why a text is not JSON, and where (1-based line and column, columns in characters).
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    /// 1-based line of the first character that cannot be read.
    public let line: Int
    /// 1-based column of that character, in characters.
    public let column: Int
    /// What was expected there, in words.
    public let reason: String

    /// An error at `line` and `column` (both 1-based).
    public init(line: Int, column: Int, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line L, column C: reason`.
    public var description: String {
        "line \(line), column \(column): \(reason)"
    }
}
