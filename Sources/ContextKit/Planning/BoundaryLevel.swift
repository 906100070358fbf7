/// How meaningful a place to cut a text is, from a grapheme cluster boundary
/// (anywhere a user would see a character end) up to a top-level Markdown
/// heading. Higher levels compare greater: the planner cuts at the highest
/// level that still gives it a well-filled chunk.
public struct BoundaryLevel: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// 0 grapheme … 4 paragraph, 5 for a level-6 heading … 10 for a level-1 heading.
    public let rank: UInt8

    /// Between two grapheme clusters: the lowest level, where a cut can always fall.
    public static let grapheme = BoundaryLevel(rank: 0)
    /// Before the spaces in front of a word (the space goes with the next
    /// word, as the tokenizers read it).
    public static let word = BoundaryLevel(rank: 1)
    /// Between two sentences.
    public static let sentence = BoundaryLevel(rank: 2)
    /// The start of a line.
    public static let line = BoundaryLevel(rank: 3)
    /// The start of a non-blank line after a blank one.
    public static let paragraph = BoundaryLevel(rank: 4)

    /// The start of a Markdown heading of `depth` 1 (`#`) to 6 (`######`).
    public static func section(_ depth: Int) -> BoundaryLevel {
        BoundaryLevel(rank: UInt8(11 - min(max(depth, 1), 6)))
    }

    /// 1…6 for a section boundary, nil for the other levels.
    public var headingDepth: Int? { rank >= 5 ? 11 - Int(rank) : nil }

    /// `grapheme`, `word`, `sentence`, `line`, `paragraph` or `section`.
    public var name: String {
        switch rank {
        case 0: return "grapheme"
        case 1: return "word"
        case 2: return "sentence"
        case 3: return "line"
        case 4: return "paragraph"
        default: return "section"
        }
    }

    /// `section h2` for sections, the name otherwise.
    public var description: String { headingDepth.map { "section h\($0)" } ?? name }

    /// Whether `a` is a less meaningful place to cut than `b` (a lower rank).
    public static func < (a: BoundaryLevel, b: BoundaryLevel) -> Bool { a.rank < b.rank }
}

/// A place to cut: the byte offset where the next chunk starts, and how
/// meaningful the place is.
package struct Boundary: Equatable, Sendable {
    package var offset: Int
    package var level: BoundaryLevel

    package init(offset: Int, level: BoundaryLevel) {
        self.offset = offset
        self.level = level
    }
}
