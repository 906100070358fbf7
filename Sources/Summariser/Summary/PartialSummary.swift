/// What a summary's JSON holds so far, read from an unfinished answer, so a
/// stream can be shown as it forms (`{"headline":"Tides ri` → `Tides ri`).
///
/// The reader takes the longest prefix that it can decode: a string cut
/// inside an escape sequence stops before the escape, so the text only ever
/// grows as the JSON grows.
public struct PartialSummary: Equatable, Sendable {
    /// The headline so far (empty until the answer reaches it).
    public var headline: String
    /// The points so far; the last one may be unfinished.
    public var points: [String]

    /// A partial summary from its parts.
    public init(headline: String = "", points: [String] = []) {
        self.headline = headline
        self.points = points
    }

    /// The partial summary in `Summary.text`'s layout.
    public var text: String {
        guard !points.isEmpty else { return headline }
        return ([headline] + points.map { "- " + $0 }).joined(separator: "\n")
    }

    /// Reads `json`, the start of a summary object; never fails (text that
    /// is not a summary's JSON gives an empty partial summary).
    public init(jsonPrefix json: String) {
        self.init()
        var reader = Reader(Array(json.unicodeScalars))
        guard reader.skip(to: "{") else { return }
        while let key = reader.nextKey() {
            switch key {
            case "headline":
                if reader.peek() == "\"" { headline = reader.string().text } else { reader.skipValue() }
            case "points":
                guard reader.peek() == "[" else { reader.skipValue(); continue }
                reader.advance()
                while true {
                    reader.skipSpace()
                    guard let c = reader.peek() else { return }
                    if c == "]" { reader.advance(); break }
                    if c == "," { reader.advance(); continue }
                    if c == "\"" {
                        points.append(reader.string().text)
                    } else {
                        reader.skipValue()
                    }
                }
            default:
                reader.skipValue()
            }
        }
    }

    /// A forgiving cursor over the scalars of a JSON prefix.
    private struct Reader {
        let s: [Unicode.Scalar]
        var i = 0

        init(_ s: [Unicode.Scalar]) { self.s = s }

        func peek() -> Unicode.Scalar? { i < s.count ? s[i] : nil }
        mutating func advance() { i += 1 }

        mutating func skipSpace() {
            while let c = peek(), c == " " || c == "\n" || c == "\r" || c == "\t" { i += 1 }
        }

        mutating func skip(to c: Unicode.Scalar) -> Bool {
            while let x = peek() { i += 1; if x == c { return true } }
            return false
        }

        /// The next `"key":` of the current object, leaving the cursor at its value.
        mutating func nextKey() -> String? {
            skipSpace()
            if peek() == "," { advance(); skipSpace() }
            guard peek() == "\"" else { return nil }
            let key = string()
            guard key.closed else { return nil }
            skipSpace()
            guard peek() == ":" else { return nil }
            advance()
            skipSpace()
            return key.text
        }

        /// A string starting at the cursor's quote, as far as it goes.
        mutating func string() -> (text: String, closed: Bool) {
            advance()
            var out = String.UnicodeScalarView()
            while let c = peek() {
                if c == "\"" { advance(); return (String(out), true) }
                guard c == "\\" else { out.append(c); advance(); continue }
                guard i + 1 < s.count else { break }
                let e = s[i + 1]
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "u":
                    guard let (scalar, length) = unicodeEscape(at: i) else { return (String(out), false) }
                    out.append(scalar)
                    i += length
                    continue
                default: out.append(e)
                }
                i += 2
            }
            return (String(out), false)
        }

        /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at `p`: the scalar and
        /// the escape's length; nil when the prefix ends inside it.
        func unicodeEscape(at p: Int) -> (Unicode.Scalar, Int)? {
            func hex(_ at: Int) -> UInt32? {
                guard at + 6 <= s.count, s[at] == "\\", s[at + 1] == "u" else { return nil }
                return UInt32(String(String.UnicodeScalarView(s[(at + 2)..<(at + 6)])), radix: 16)
            }
            guard let high = hex(p) else { return nil }
            if (0xD800..<0xDC00).contains(high) {
                guard let low = hex(p + 6) else {
                    // A lone high surrogate followed by something other than an escape: invalid, shown as U+FFFD.
                    return p + 12 <= s.count || (p + 6 < s.count && s[p + 6] != "\\") ? ("\u{FFFD}", 6) : nil
                }
                guard (0xDC00..<0xE000).contains(low) else { return ("\u{FFFD}", 6) }
                return (Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}", 12)
            }
            return (Unicode.Scalar(high) ?? "\u{FFFD}", 6)
        }

        /// Steps over one value of any kind (or to the end of the prefix).
        mutating func skipValue() {
            skipSpace()
            var depth = 0
            while let c = peek() {
                if c == "\"" { _ = string(); if depth == 0 { return }; continue }
                if c == "{" || c == "[" { depth += 1 }
                if c == "}" || c == "]" {
                    if depth == 0 { return }
                    depth -= 1
                    advance()
                    if depth == 0 { return }
                    continue
                }
                if c == "," && depth == 0 { return }
                advance()
            }
        }
    }
}
