import Foundation

/// A pre-tokenizer that runs a pattern through ICU's regex engine
/// (Foundation's `NSRegularExpression`).
///
/// It is the reference the hand-written scanners are fuzzed against, and the
/// general path for any pattern that has no scanner. Patterns are written as
/// tiktoken and Hugging Face write them (Rust / Oniguruma dialect); the few
/// places where ICU reads them differently are translated first.
public struct RegexPreTokenizer: @unchecked Sendable {
    // @unchecked Sendable: NSRegularExpression is immutable once compiled and documented as safe to use from several threads.
    /// The pattern as given.
    public let pattern: String
    private let regex: NSRegularExpression

    /// Compiles `pattern`; throws `TokenKitError.invalidPattern` when ICU rejects it.
    public init(pattern: String) throws {
        self.pattern = pattern
        do {
            regex = try NSRegularExpression(pattern: Self.icuPattern(for: pattern))
        } catch {
            throw TokenKitError.invalidPattern(pattern: pattern, reason: "\(error)")
        }
    }

    /// Byte ranges (in `text.utf8`) of the matches, in order. Text between
    /// matches is not returned: callers that need it (a `Split` with
    /// `isolated` behaviour, say) take the gaps themselves.
    public func matches(in text: String) -> [Range<Int>] {
        let utf16ToUTF8 = Self.utf8Offsets(byUTF16Offset: text)
        let whole = NSRange(location: 0, length: (text as NSString).length)
        return regex.matches(in: text, range: whole).compactMap { match in
            let r = match.range
            guard r.length > 0 else { return nil }
            return utf16ToUTF8[r.location]..<utf16ToUTF8[r.location + r.length]
        }
    }

    /// ICU differs from the Rust `regex` crate in two ways that matter here:
    /// its `\s` leaves out U+000B and U+0085 (Rust's is `White_Space`), and its
    /// `$` also matches before a final line break (Rust's only at the end).
    static func icuPattern(for pattern: String) -> String {
        var out = ""
        let chars = Array(pattern)
        var i = 0
        var inClass = 0
        while i < chars.count {
            let ch = chars[i]
            if ch == "\\", i + 1 < chars.count {
                switch chars[i + 1] {
                case "s": out += "\\p{White_Space}"
                case "S": out += "\\P{White_Space}"
                default: out.append(ch); out.append(chars[i + 1])
                }
                i += 2
                continue
            }
            if ch == "[" { inClass += 1 }
            if ch == "]" && inClass > 0 { inClass -= 1 }
            if ch == "$" && inClass == 0 { out += "\\z" } else { out.append(ch) }
            i += 1
        }
        return out
    }

    private static func utf8Offsets(byUTF16Offset text: String) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(text.utf16.count + 1)
        var utf8Offset = 0
        for scalar in text.unicodeScalars {
            let units = scalar.utf16.count
            let bytes = scalar.utf8.count
            offsets.append(utf8Offset)
            if units == 2 { offsets.append(utf8Offset) }
            utf8Offset += bytes
        }
        offsets.append(utf8Offset)
        return offsets
    }
}
