/// One piece of a planned text: what is sent in one map call.
public struct Chunk: Equatable, Sendable {
    /// 0-based position in the plan.
    public var index: Int
    /// The bytes sent, overlap included, as offsets into the planned text's UTF-8.
    public var bytes: Range<Int>
    /// The same range in characters (Unicode scalars, as `TextStats` counts them).
    public var characters: Range<Int>
    /// Where the text not already in the previous chunk starts (`bytes.lowerBound` without overlap).
    public var newTextStart: Int
    /// The profile's tokens for the chunk sent on its own: exact, or for an
    /// estimated profile the estimate made from the exact proxy count.
    public var tokens: Int
    /// The tokenizer's exact count of the chunk.
    public var proxyTokens: Int
    /// The profile's tokens for the overlap part.
    public var overlapTokens: Int
    /// The level of the boundary the chunk ends at; nil for the end of the text.
    public var endLevel: BoundaryLevel?

    /// A chunk from its parts (the planner makes them; tests and callers that
    /// adjust a plan may too).
    public init(
        index: Int, bytes: Range<Int>, characters: Range<Int>, newTextStart: Int, tokens: Int, proxyTokens: Int,
        overlapTokens: Int = 0, endLevel: BoundaryLevel?
    ) {
        self.index = index
        self.bytes = bytes
        self.characters = characters
        self.newTextStart = newTextStart
        self.tokens = tokens
        self.proxyTokens = proxyTokens
        self.overlapTokens = overlapTokens
        self.endLevel = endLevel
    }

    /// The bytes this chunk adds to the text before it.
    public var newBytes: Range<Int> { newTextStart..<bytes.upperBound }
}
