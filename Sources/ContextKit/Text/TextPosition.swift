/// A place in a text, the way an editor shows it.
public struct TextPosition: Equatable, Sendable {
    /// Bytes before it (0-based).
    public var byteOffset: Int
    /// Characters before it (0-based; see `TextStats` for what a character is).
    public var characterOffset: Int
    /// 1-based line (lines end with a line feed).
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int

    /// A position from its four coordinates (offsets 0-based, line and column 1-based).
    public init(byteOffset: Int, characterOffset: Int, line: Int, column: Int) {
        self.byteOffset = byteOffset
        self.characterOffset = characterOffset
        self.line = line
        self.column = column
    }

    /// The start of a text.
    public static let start = TextPosition(byteOffset: 0, characterOffset: 0, line: 1, column: 1)

    /// The position just after a stretch of text with these statistics.
    public func advanced(over stats: TextStats) -> TextPosition {
        TextPosition(
            byteOffset: byteOffset + stats.bytes,
            characterOffset: characterOffset + stats.characters,
            line: line + stats.newlines,
            column: stats.newlines > 0 ? stats.charactersAfterLastNewline + 1 : column + stats.characters)
    }
}
