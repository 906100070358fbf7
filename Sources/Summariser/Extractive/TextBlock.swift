/// One block of prose from a Markdown (or plain) text, as `MarkdownSegmenter`
/// finds it: a heading or a paragraph whose lines are reflowed into one
/// (whitespace runs and line breaks as one space; none between CJK
/// characters), with its inline markup kept as in the source.
struct TextBlock: Equatable {
    /// Where the block comes from.
    enum Kind: Equatable {
        /// An ATX (`#`) or setext heading of depth 1…6, without its marks.
        case heading(Int)
        /// A paragraph of body text.
        case paragraph
        /// The text of a list item (or a paragraph inside one), without its marker.
        case listItem
        /// A paragraph inside a block quote, without the `>` marks.
        case quote

        /// 1 for `#`, …; nil when the block is not a heading.
        var headingDepth: Int? {
            if case .heading(let depth) = self { return depth }
            return nil
        }
    }

    var kind: Kind
    /// The reflowed text.
    var text: String
    /// 1-based line of the text where the block starts.
    var line: Int
    /// The block's source was one line (a candidate title line).
    var isOneLine: Bool

    /// 1 for `#`, …; nil when the block is not a heading.
    var headingDepth: Int? { kind.headingDepth }
}
