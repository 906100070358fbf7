/// Numbers as the reports print them.
///
/// Hand-written (no `NumberFormatter`, no `String(format:)`) so a report is
/// the same bytes on every machine and locale: the reproducibility test
/// compares them byte for byte.
enum ReportNumber {
    /// `value` rounded half away from zero to `places` decimals: `3.75`, `-0.5`, `12`.
    /// With `grouped`, the whole part is grouped by thousands: `4,096.5`.
    static func decimal(_ value: Double, places: Int, grouped: Bool = false) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded(.toNearestOrAwayFromZero)
        let whole = (scaled / scale).rounded(.towardZero)
        var out = (value < 0 && scaled > 0 ? "-" : "") + (grouped ? Self.grouped(Int(whole)) : String(Int(whole)))
        if places > 0 {
            let fraction = String(Int(scaled - whole * scale))
            out += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return out
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
