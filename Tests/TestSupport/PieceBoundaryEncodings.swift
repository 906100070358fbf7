/// The built-in encodings whose pre-tokenizer has proven safe cut points: the
/// piece-boundary tests prove the cuts, the counters' tests use them.
public enum PieceBoundaryEncodings {
    /// Encoding names, one per distinct pattern.
    public static let all = ["cl100k_base", "o200k_base", "r50k_base"]
}
