import Foundation
import Render

/// How an option's text becomes its value, and what to say when it cannot.
package struct ValueParser<Value> {
    /// What the option wants, as the usage error says it: `a whole number of at least 1`.
    package let expected: String
    /// The value, or `nil` when the text is not one.
    package let parse: (String) -> Value?

    package init(expected: String, parse: @escaping (String) -> Value?) {
        self.expected = expected
        self.parse = parse
    }
}

extension ValueParser where Value == String {
    /// The text as it is.
    package static var text: Self { Self(expected: "a value") { $0 } }
}

extension ValueParser where Value == Int {
    /// A whole number from `minimum` to `maximum`. Commas and `_` may
    /// separate digits, so `128,000` can be pasted from a spec sheet, and
    /// `128k`/`2M` mean thousands and millions.
    package static func integer(minimum: Int = 0, maximum: Int = .max) -> Self {
        let expected =
            maximum == .max
            ? "a whole number of at least \(minimum)"
            : "a whole number from \(NumberFormat.grouped(minimum)) to \(NumberFormat.grouped(maximum))"
        return Self(expected: expected) { text in
            let cleaned = text.filter { $0 != "," && $0 != "_" }
            var number = Int(cleaned)
            if number == nil, let last = cleaned.last, "kKmM".contains(last), let base = Int(cleaned.dropLast()) {
                let (scaled, overflow) = base.multipliedReportingOverflow(by: "kK".contains(last) ? 1_000 : 1_000_000)
                number = overflow ? nil : scaled
            }
            return number.flatMap { (minimum...maximum).contains($0) ? $0 : nil }
        }
    }

    /// A number of tokens (a window, a reserve, a limit): at most 2^40,
    /// a thousand times the largest window any model has, so sums of a few
    /// such numbers and a text's count can never pass `Int.max`.
    package static func tokens(minimum: Int = 0) -> Self {
        integer(minimum: minimum, maximum: largestTokenCount)
    }

    /// The largest number of tokens an option takes: 2^40 (1,099,511,627,776).
    package static var largestTokenCount: Int { 1 << 40 }
}

extension ValueParser where Value == URL {
    /// A server's base URL: `http://` or `https://` and a host, the one
    /// check every command's `--url` makes.
    package static var serverURL: Self {
        Self(expected: "an http:// or https:// URL") { text in
            URL(string: text).flatMap { url in
                ["http", "https"].contains(url.scheme?.lowercased() ?? "") && url.host?.isEmpty == false ? url : nil
            }
        }
    }
}

extension ValueParser where Value == UInt64 {
    /// A whole number of the full 64-bit range (a seed); commas and `_` may separate digits.
    package static var unsigned: Self {
        Self(expected: "a whole number of at least 0") { UInt64($0.filter { $0 != "," && $0 != "_" }) }
    }
}

extension ValueParser where Value == Double {
    /// A finite number of at least 0: seconds, rates.
    package static var nonNegative: Self {
        Self(expected: "a number of at least 0") { text in
            Double(text).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
        }
    }

    /// A number in `range`.
    package static func number(in range: ClosedRange<Double>) -> Self {
        Self(expected: "a number from \(NumberFormat.decimal(range.lowerBound)) to \(NumberFormat.decimal(range.upperBound))") { text in
            Double(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}
