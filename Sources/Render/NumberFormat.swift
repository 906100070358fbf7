/// Numbers as people read them in a terminal and in the reports: `3,204`, `78%`, `3.75`.
///
/// Hand-written (no `NumberFormatter`, no `String(format:)`) so output never
/// depends on the user's locale: scripts, tests and the reports' reproducibility
/// check see the same bytes everywhere.
package enum NumberFormat {
    /// `1234567` → `1,234,567`.
    package static func grouped<T: BinaryInteger>(_ value: T) -> String {
        let digits = String(value.magnitude)
        var out = ""
        out.reserveCapacity(digits.count + digits.count / 3 + 1)
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return value < 0 ? "-" + out : out
    }

    /// `value` rounded half away from zero to `places` decimals: `3.75`, `-0.5`, `12`.
    /// With `grouped`, the whole part is grouped by thousands: `4,096.5`.
    package static func decimal(_ value: Double, places: Int = 2, grouped: Bool = false) -> String {
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

    /// A duration as people read it, the one format of every tool's times:
    /// three significant digits below a minute (`0.05 s`, `1.5 s`, `2 s`,
    /// `6.48 s`, `12.3 s`), then whole minutes and seconds (`3 min 20 s`,
    /// `3 min`) and hours and minutes (`1 h 5 min`, `1 h`).
    package static func duration(seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "-" }
        if seconds < 59.95 {
            // Three significant digits, without trailing zeros.
            let places = seconds < 1 ? 3 : seconds < 10 ? 2 : 1
            var text = decimal(seconds, places: places)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text + " s"
        }
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        if hours == 0 { return "\(minutes) min" + (rest > 0 ? " \(rest) s" : "") }
        return "\(hours) h" + (minutes > 0 ? " \(minutes) min" : "")
    }

    /// `part / whole` as a whole percentage, `78%`; below 1 but above 0 shows `<1%`,
    /// so a non-empty input is never reported as taking no room at all.
    package static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return part > 0 ? "∞%" : "0%" }
        let value = Double(part) * 100 / Double(whole)
        if value > 0 && value < 1 { return "<1%" }
        return String(Int(value.rounded())) + "%"
    }

    /// Bytes with a binary unit: `512 B`, `1.5 MiB`.
    package static func bytes(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(count) B" : decimal(value, places: 1) + " " + units[unit]
    }
}
