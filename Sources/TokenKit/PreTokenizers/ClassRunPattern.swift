/// A split pattern of the one shape most llama.cpp pre types are built from,
/// matched without a regex engine: an optional `\s?`, then a run of one
/// character set (`[...]`, `\p{L}`, `\p{N}`, `\p{P}`, `\s`) with `+` or `{1,n}`,
/// optionally anchored with `$`. DeepSeek's six patterns are all of it.
/// Matches are found left to right as a backtracking engine finds them.
struct ClassRunPattern: Sendable {
    let pattern: String
    let optionalWhitespace: Bool
    let set: CodePointSet
    let maxCount: Int
    let anchoredAtEnd: Bool

    /// Parses `pattern`; nil when it is not of this shape (ICU runs it then).
    init?(pattern: String) {
        self.pattern = pattern
        var scalars = Array(pattern.unicodeScalars)[...]
        optionalWhitespace = scalars.starts(with: #"\s?"#.unicodeScalars)
        if optionalWhitespace { scalars = scalars.dropFirst(3) }
        guard let (set, rest) = CodePointSet.parseAtom(scalars) else { return nil }
        self.set = set
        scalars = rest
        if scalars.first == "+" {
            maxCount = .max
            scalars = scalars.dropFirst()
        } else if scalars.first == "{" {
            let text = String(String.UnicodeScalarView(scalars))
            guard text.hasPrefix("{1,"), let close = text.firstIndex(of: "}"),
                let n = Int(text[text.index(text.startIndex, offsetBy: 3)..<close]), n >= 1
            else { return nil }
            maxCount = n
            scalars = scalars.dropFirst(text.distance(from: text.startIndex, to: close) + 1)
        } else {
            maxCount = 1
        }
        anchoredAtEnd = scalars.first == "$"
        if anchoredAtEnd { scalars = scalars.dropFirst() }
        guard scalars.isEmpty, !(anchoredAtEnd && (optionalWhitespace || maxCount != .max)) else { return nil }
    }

    /// The first match at or after `i` in `cursor`'s text (which ends the piece).
    @inline(__always)
    func firstMatch(_ cursor: UTF8Cursor, from i: Int) -> (Int, Int)? {
        var i = i
        let to = cursor.end
        while i < to {
            let c = cursor.character(at: i)
            if anchoredAtEnd {
                let e = run(cursor, from: i, to: to)
                if e == to && e > i { return (i, to) }
                i = max(e, i + c.length)  // no start inside a run that stops short can reach the end
                continue
            }
            if optionalWhitespace && c.classes.contains(.whitespace) {
                let e = run(cursor, from: i + c.length, to: to)
                if e > i + c.length { return (i, e) }
            }
            let e = run(cursor, from: i, to: to)
            if e > i { return (i, e) }
            i += c.length
        }
        return nil
    }

    /// The end of the run of at most `maxCount` set members starting at `i`.
    @inline(__always)
    private func run(_ cursor: UTF8Cursor, from i: Int, to: Int) -> Int {
        var j = i
        var n = 0
        while j < to && n < maxCount {
            let c = cursor.character(at: j)
            guard set.contains(c) else { break }
            j += c.length
            n += 1
        }
        return j
    }
}

/// A set of code points: ranges, Unicode classes, possibly negated.
struct CodePointSet: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var classes: CharacterClass = []
    var negated = false
    /// Membership of each ASCII character, precomputed.
    private var ascii: (UInt64, UInt64) = (0, 0)

    @inline(__always)
    func contains(_ c: (value: UInt32, classes: CharacterClass, length: Int)) -> Bool {
        if c.value < 128 {
            let word = c.value < 64 ? ascii.0 : ascii.1
            return word & (1 << UInt64(c.value & 63)) != 0
        }
        return computedContains(c.value, c.classes)
    }

    private func computedContains(_ value: UInt32, _ cls: CharacterClass) -> Bool {
        let member = !cls.isDisjoint(with: classes) || ranges.contains { $0.contains(value) }
        return member != negated
    }

    private mutating func finish() {
        var low: UInt64 = 0, high: UInt64 = 0
        let table = CharacterClassTable.shared
        for v in 0..<UInt32(128) where computedContains(v, table.classes(of: v)) {
            if v < 64 { low |= 1 << UInt64(v) } else { high |= 1 << UInt64(v - 64) }
        }
        ascii = (low, high)
    }

    /// The classes `\p{...}` may name here.
    private static let properties: [String: CharacterClass] = ["L": .letter, "N": .number, "P": .punctuation, "S": .symbol, "M": .mark]

    /// One atom at the start of `s`: `[...]`, `\p{X}` or `\s`; with what follows it.
    static func parseAtom(_ s: ArraySlice<Unicode.Scalar>) -> (CodePointSet, ArraySlice<Unicode.Scalar>)? {
        var set = CodePointSet()
        if s.first == "[" {
            var rest = s.dropFirst()
            if rest.first == "^" { set.negated = true; rest = rest.dropFirst() }
            var previous: UInt32? = nil
            while let c = rest.first, c != "]" {
                if c == "-", let low = previous, rest.count > 1, rest[rest.startIndex + 1] != "]" {
                    rest = rest.dropFirst()
                    guard let (high, after) = literal(rest), high >= low else { return nil }
                    set.ranges[set.ranges.count - 1] = low...high
                    rest = after
                    previous = nil
                    continue
                }
                if let (cls, after) = classEscape(rest) {
                    set.classes.formUnion(cls)
                    rest = after
                    previous = nil
                    continue
                }
                guard let (value, after) = literal(rest) else { return nil }
                set.ranges.append(value...value)
                previous = value
                rest = after
            }
            guard rest.first == "]", !(set.ranges.isEmpty && set.classes.isEmpty) else { return nil }
            set.finish()
            return (set, rest.dropFirst())
        }
        guard let (cls, after) = classEscape(s) else { return nil }
        set.classes = cls
        set.finish()
        return (set, after)
    }

    /// `\p{X}` or `\s`.
    private static func classEscape(_ s: ArraySlice<Unicode.Scalar>) -> (CharacterClass, ArraySlice<Unicode.Scalar>)? {
        guard s.first == "\\", s.count >= 2 else { return nil }
        let e = s[s.startIndex + 1]
        if e == "s" { return (.whitespace, s.dropFirst(2)) }
        guard e == "p", s.count >= 5, s[s.startIndex + 2] == "{", s[s.startIndex + 4] == "}",
            let cls = properties[String(s[s.startIndex + 3])]
        else { return nil }
        return (cls, s.dropFirst(5))
    }

    /// One literal character: itself, or `\x{HEX}`, `\r`, `\n`, `\t`, or an escaped symbol.
    private static func literal(_ s: ArraySlice<Unicode.Scalar>) -> (UInt32, ArraySlice<Unicode.Scalar>)? {
        guard let c = s.first else { return nil }
        guard c == "\\" else {
            return "[]".unicodeScalars.contains(c) ? nil : (c.value, s.dropFirst())
        }
        guard s.count >= 2 else { return nil }
        let e = s[s.startIndex + 1]
        switch e {
        case "r": return (0x0D, s.dropFirst(2))
        case "n": return (0x0A, s.dropFirst(2))
        case "t": return (0x09, s.dropFirst(2))
        case "x":
            let rest = s.dropFirst(2)
            guard rest.first == "{", let close = rest.firstIndex(of: "}"),
                let v = UInt32(String(String.UnicodeScalarView(rest[(rest.startIndex + 1)..<close])), radix: 16)
            else { return nil }
            return (v, rest[(close + 1)...])
        default:
            // An escaped ASCII symbol stands for itself; letters and digits are classes or back-references.
            guard e.value < 128, !e.properties.isAlphabetic, !("0"..."9").contains(e) else { return nil }
            return (e.value, s.dropFirst(2))
        }
    }
}
