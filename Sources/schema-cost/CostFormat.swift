import Render

/// How the reports write a cost: `≈` before an estimate, and the share of the
/// window with the estimate's error bar.
struct CostFormat {
    /// Whether the counts are estimates (Apple's tokenizer off-device).
    let isEstimate: Bool

    /// `≈ 109` for an estimate, `109` for an exact count.
    func tokens(_ n: Int) -> String {
        (isEstimate && n != 0 ? "≈ " : "") + NumberFormat.grouped(n)
    }

    /// `4.1% of the window<suffix> (±8%: 150–176 tokens)`: the error bar
    /// applies to the `counted` tokens only; `framing` is a fixed measured constant.
    func windowShare(_ share: Double, suffix: String = "", counted: Int, framing: Int, relativeError: Double?) -> String {
        let percent = share * 100
        var text = (percent > 0 && percent < 0.1 ? "<0.1" : NumberFormat.decimal(percent, places: 1)) + "% of the window" + suffix
        if let bar = relativeError, counted > 0 {
            let low = Int((Double(counted) * (1 - bar)).rounded()) + framing
            let high = Int((Double(counted) * (1 + bar)).rounded()) + framing
            text += " (±\(Int((bar * 100).rounded()))%: \(NumberFormat.grouped(low))–\(NumberFormat.grouped(high)) tokens)"
        }
        return text
    }
}
