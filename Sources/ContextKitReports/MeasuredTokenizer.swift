import ContextKit

/// A tokenizer as a measurement counts with it: a label for tables, the
/// tokenizer, and — for a model whose tokenizer is not public — the estimate
/// that turns the proxy's count into the model's.
package struct MeasuredTokenizer: Sendable {
    /// Short name for a table column: `o200k`, `Llama 3`, `apple-on-device (est.)`.
    package var label: String
    package var tokenizer: Tokenizer
    package var estimate: TokenEstimate?

    package init(label: String, tokenizer: Tokenizer, estimate: TokenEstimate? = nil) {
        self.label = label
        self.tokenizer = tokenizer
        self.estimate = estimate
    }

    /// Counts the way `profile` does: its tokenizer, scaled by its estimate if it has one.
    package init(profile: ModelProfile, label: String? = nil) throws {
        self.init(
            label: label ?? (profile.isEstimate ? "\(profile.name) (est.)" : profile.name),
            tokenizer: try profile.tokenizer.load(), estimate: profile.estimate)
    }

    /// Tokens of `text` as plain text (special-token strings are not special).
    package func count(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { count(utf8: $0) }
    }

    package func count(utf8 text: UnsafeBufferPointer<UInt8>) -> Int {
        let tokens = tokenizer.count(utf8: text)
        guard let estimate else { return tokens }
        return estimate.tokens(proxyTokens: tokens, cjkCharacters: TextStats(scanning: text).cjkCharacters)
    }
}
