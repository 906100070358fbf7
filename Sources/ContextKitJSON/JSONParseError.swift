/// Why a text is not JSON, and where: a 1-based line and column (columns in
/// Unicode scalars, as an editor counts them) and the byte offset from the
/// start of the input, for a file too large to open in an editor.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The line, from 1.
    public let line: Int
    /// The column in the line, from 1, in Unicode scalars.
    public let column: Int
    /// Bytes before the position, counted from the very start of the input
    /// (a byte order mark included); the input's length at its end.
    public let byteOffset: Int
    /// What was found and what was expected there.
    public let reason: String

    /// An error at a position; `JSONParser` makes these.
    public init(line: Int, column: Int, byteOffset: Int, reason: String) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.reason = reason
    }

    /// `line L, column C: reason`, as schema-cost prints it.
    public var description: String {
        "line \(line), column \(column): \(reason)"
    }
}
