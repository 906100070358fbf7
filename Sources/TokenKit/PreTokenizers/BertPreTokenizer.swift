/// Hugging Face's `BertPreTokenizer`: the text is split at whitespace (which
/// goes), then each punctuation character becomes a piece of its own, with
/// punctuation as `tokenizers` defines it (`BertCharacters.isPunctuation`:
/// ASCII punctuation and symbols, and Unicode's punctuation categories).
enum BertPreTokenizer {
    /// The two split steps, in order.
    static let steps: [SplitStep] = [
        .characters(.whitespace, .removed),
        .characters(.bertPunctuation, .isolated)
    ]
}
