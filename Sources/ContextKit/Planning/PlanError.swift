/// Why a text could not be planned, with what to do about it.
public enum PlanError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Overhead, instructions, schema and reserve take the whole window.
    case noRoom(TokenBudget)
    /// The overlap leaves no room for new text in a chunk.
    case overlapTooLarge(TokenBudget)
    /// One grapheme cluster (at `byteOffset`, `bytes` long) costs more tokens than a chunk holds.
    case graphemeTooLarge(byteOffset: Int, bytes: Int, tokens: Int, room: Int)
    /// A summary is too big for two of them to share a reduce call, so reducing never ends.
    case summariesDoNotShrink(summaryTokens: Int, room: Int)

    /// A message for the user: what went wrong, the budget's arithmetic where
    /// it helps, and which option to change.
    public var description: String {
        switch self {
        case let .noRoom(budget):
            return "no room for text: the request overhead, instructions, schema and response reserve take the whole window\n"
                + budget.arithmeticText
                + "\nshorten the instructions or the schema, lower --reserve, or pick a model with a larger window"
        case let .overlapTooLarge(budget):
            return "the overlap leaves no room for new text in a chunk\n" + budget.arithmeticText
                + "\nlower --overlap below the room for text"
        case let .graphemeTooLarge(offset, bytes, tokens, room):
            return
                "the character at byte \(offset) (one grapheme cluster of \(bytes) bytes) is \(tokens) tokens, more than the \(room) a chunk has room for; a grapheme cluster is never split, so make room (lower --reserve or --overlap, shorten the instructions) or remove the character"
        case let .summariesDoNotShrink(summary, room):
            return
                "a summary of \(summary) tokens leaves no room for two in one reduce call (room for text: \(room)), so the summaries can never be combined; lower --summary-tokens or --reserve, or shorten the instructions and schema"
        }
    }
}
