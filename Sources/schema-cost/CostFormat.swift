import ContextKit
import Render
import ToolSupport

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

    /// `  input budget: 4,096 window − 22 per request − … − 512 answer reserve = 3,331 tokens for input`,
    /// then which rule set the reserve. `parts` are the fixed costs between
    /// the overhead and the reserve, each with its label; `room` names what the rest is for.
    func budget(_ budget: TokenBudget, title: String, parts: [(tokens: Int, label: String)], room: String, style: Style) -> String {
        var line = "  \(title): \(NumberFormat.grouped(budget.window)) window"
        line += " − \(NumberFormat.grouped(budget.requestOverhead)) per request"
        for part in parts { line += " − \(tokens(part.tokens)) \(part.label)" }
        line += " − \(NumberFormat.grouped(budget.reserve)) answer reserve"
        let left = budget.room > 0 ? style.green(tokens(budget.room)) : style.red(tokens(budget.room))
        var out = line + " = " + left + " tokens for \(room)\n"
        out +=
            budget.reserve == 0
            ? "    (the answer shares the window: keep room for it with --reserve N)\n"
            : "    (the answer reserve is \(budget.reserveSource))\n"
        return out
    }
}
