/// One token with where it comes from in the text: its byte range and its
/// character range, so an editor or a chunker can map tokens back to text.
///
/// Characters are Unicode scalars, counted as `TextStats` counts them (a byte
/// that is not UTF-8 is one character). A byte-level token may start or end
/// inside a character: its character range then covers that whole character,
/// so neighbouring tokens can share one.
public struct TokenSpan: Equatable, Sendable {
    /// The token id.
    public var id: Int
    /// UTF-8 byte offsets of the text the token stands for.
    public var bytes: Range<Int>
    /// Character (Unicode scalar) offsets of the characters the token touches.
    public var characters: Range<Int>

    /// A span from its parts.
    public init(id: Int, bytes: Range<Int>, characters: Range<Int>) {
        self.id = id
        self.bytes = bytes
        self.characters = characters
    }
}

extension Tokenizer {
    /// Each token of `text` with its byte and character spans, in order.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does.
    public func spans(_ text: String, allowedSpecial: SpecialTokenPolicy = .plainText) throws -> [TokenSpan] {
        var text = text
        return try text.withUTF8 { try spans(utf8: $0, allowedSpecial: allowedSpecial) }
    }

    /// Each token of the UTF-8 bytes with its byte and character spans; one
    /// pass over the bytes beside the tokens.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does.
    public func spans(utf8 bytes: UnsafeBufferPointer<UInt8>, allowedSpecial: SpecialTokenPolicy = .plainText) throws -> [TokenSpan] {
        var spans: [TokenSpan] = []
        guard let base = bytes.baseAddress else { return spans }
        var at = 0, characters = 0
        // Moves to the first character start at or after `p`; `characters` counts those passed.
        func advance(to p: Int) {
            while at < p {
                at += max(1, UTF8Decoder.scalar(base, at: at, end: bytes.count).length)
                characters += 1
            }
        }
        try forEachToken(utf8: bytes, allowedSpecial: allowedSpecial) { token in
            advance(to: token.bytes.lowerBound)
            let first = at == token.bytes.lowerBound ? characters : characters - 1
            advance(to: token.bytes.upperBound)
            spans.append(TokenSpan(id: token.id, bytes: token.bytes, characters: first..<max(first, characters)))
        }
        return spans
    }
}
