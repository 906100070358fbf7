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
