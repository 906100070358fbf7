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
        regex = try Self.compile(pattern)
    }

    /// `pattern` compiled for ICU, after `refuseNestedRepetition`.
    ///
    /// - Throws: `TokenKitError.invalidPattern` when the pattern repeats a
    ///   repetition or ICU rejects it.
    static func compile(_ pattern: String) throws -> NSRegularExpression {
        try refuseNestedRepetition(pattern)
        do {
            return try NSRegularExpression(pattern: icuPattern(for: pattern))
        } catch {
            throw TokenKitError.invalidPattern(pattern: pattern, reason: "\(error)")
        }
    }

    /// Refuses a group repeated without bound whose body can match the same
    /// text in more than one way per repetition: its body can match nothing
    /// (`(a*)*b`, `(a|b?)+`) or is one unbounded repetition with only optional
    /// parts around it (`(a+)+`, `(?:x+y?)+`). ICU backtracks through every way
    /// of sharing a run among the two loops, so 82 bytes of `(a*)*b` took 38 s
    /// and 1 KB more than a minute, and Foundation exposes no time limit for
    /// ICU. Patterns come from downloaded files (a `Split` in tokenizer.json,
    /// tekken's `config.pattern`). A repeated group whose repetitions are told
    /// apart by a required part stays allowed: llama.cpp's
    /// `(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+` starts each with one letter. What
    /// this does not catch (an alternation under a repetition whose branches
    /// match the same text, `(a|a)*`) no known tokenizer writes either.
    static func refuseNestedRepetition(_ pattern: String) throws {
        let chars = Array(pattern.unicodeScalars)
        /// What a quantifier needs to know of the item before it.
        struct Item {
            var start: Int
            var nullable: Bool
            var unbounded = false
            /// A group whose body matches one text in several ways when repeated.
            var ambiguousIfRepeated = false
        }
        /// One branch of a group (or of the whole pattern) so far.
        struct Branch {
            var items: [Item] = []
            var ambiguousIfRepeated: Bool {
                let required = items.filter { !$0.nullable }
                return required.isEmpty || (required.count == 1 && required[0].unbounded)
            }
        }
        struct Group {
            var start: Int
            var zeroWidth: Bool
            var branch = Branch()
            var anyBranchAmbiguous = false
            var anyBranchNullable = false
        }
        var groups = [Group(start: 0, zeroWidth: false)]
        func add(_ item: Item) { groups[groups.count - 1].branch.items.append(item) }
        func closeBranch() {
            let branch = groups[groups.count - 1].branch
            groups[groups.count - 1].anyBranchAmbiguous = groups[groups.count - 1].anyBranchAmbiguous || branch.ambiguousIfRepeated
            groups[groups.count - 1].anyBranchNullable = groups[groups.count - 1].anyBranchNullable || branch.items.allSatisfy(\.nullable)
            groups[groups.count - 1].branch = Branch()
        }
        func isDigit(_ j: Int) -> Bool { j < chars.count && ("0"..."9").contains(chars[j]) }
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\\":
                let next: Unicode.Scalar = i + 1 < chars.count ? chars[i + 1] : "\\"
                add(Item(start: i, nullable: "bBAzZG".unicodeScalars.contains(next)))  // anchors match nothing
                i += 2
                // \p{...}, \x{...}, \N{...}: the braces belong to the escape.
                if i < chars.count, chars[i] == "{", "pPxNu".unicodeScalars.contains(next) {
                    while i < chars.count, chars[i] != "}" { i += 1 }
                    i += 1
                }
            case "[":
                add(Item(start: i, nullable: false))
                i += 1
                if i < chars.count, chars[i] == "^" { i += 1 }
                if i < chars.count, chars[i] == "]" { i += 1 }  // a leading ] is a literal
                var depth = 1
                while i < chars.count, depth > 0 {
                    switch chars[i] {
                    case "\\": i += 1
                    case "[": depth += 1
                    case "]": depth -= 1
                    default: break
                    }
                    i += 1
                }
            case "(":
                var zeroWidth = false
                let start = i
                i += 1
                if i < chars.count, chars[i] == "?" {  // (?: (?i: (?= (?<! ...: the ? repeats nothing
                    i += 1
                    if i < chars.count, chars[i] == "#" {  // a comment
                        while i < chars.count, chars[i] != ")" { i += 1 }
                        i += 1
                        continue
                    }
                    // Step over what says the kind of group: flags (`i`, `-x`) up to `:`,
                    // `=` `!` `>`, `<=` `<!`, or a name in `<...>`; a flags-only `(?i)` ends here.
                    if i < chars.count, chars[i] == "<" || chars[i] == "P" {
                        if i + 1 < chars.count, chars[i + 1] == "=" || chars[i + 1] == "!" {
                            zeroWidth = true
                            i += 2
                        } else {
                            while i < chars.count, chars[i] != ">" { i += 1 }
                            i += 1
                        }
                    } else if i < chars.count, chars[i] == "=" || chars[i] == "!" || chars[i] == ">" {
                        zeroWidth = chars[i] != ">"
                        i += 1
                    } else {
                        while i < chars.count, chars[i].properties.isAlphabetic || chars[i] == "-" { i += 1 }
                        if i < chars.count, chars[i] == ":" { i += 1 }
                    }
                }
                groups.append(Group(start: start, zeroWidth: zeroWidth))
            case ")":
                i += 1
                guard groups.count > 1 else { continue }
                closeBranch()
                let group = groups.removeLast()
                add(
                    Item(
                        start: group.start, nullable: group.zeroWidth || group.anyBranchNullable,
                        ambiguousIfRepeated: group.anyBranchAmbiguous || group.anyBranchNullable))
            case "*", "+", "?", "{":
                var end = i + 1
                var unbounded = c != "?"
                var optional = c != "+"
                if c == "{" {
                    // {n}, {n,}, {n,m}; anything else is a literal brace.
                    var j = i + 1
                    while isDigit(j) { j += 1 }
                    guard j > i + 1 else { add(Item(start: i, nullable: false)); i += 1; continue }
                    optional = Int(String(String.UnicodeScalarView(chars[(i + 1)..<j]))) == 0
                    unbounded = false
                    if j < chars.count, chars[j] == "," {
                        j += 1
                        unbounded = !isDigit(j)
                        while isDigit(j) { j += 1 }
                    }
                    guard j < chars.count, chars[j] == "}" else { add(Item(start: i, nullable: false)); i += 1; continue }
                    end = j + 1
                }
                if var item = groups[groups.count - 1].branch.items.popLast() {
                    if unbounded, item.ambiguousIfRepeated {
                        let text = String(String.UnicodeScalarView(chars[item.start..<end]))
                        throw TokenKitError.invalidPattern(
                            pattern: pattern,
                            reason: "\(text) repeats a group that matches the same text in more than one way, which takes time exponential in the text; "
                                + "tokenizer patterns never need this, so the file is damaged or hostile: use the model's published tokenizer file")
                    }
                    item.nullable = item.nullable || optional
                    item.unbounded = item.unbounded || unbounded
                    item.ambiguousIfRepeated = false
                    add(item)
                }
                if end < chars.count, chars[end] == "?" || chars[end] == "+" { end += 1 }  // lazy or possessive
                i = end
            case "|":
                closeBranch()
                i += 1
            case "^", "$":
                add(Item(start: i, nullable: true))
                i += 1
            default:
                add(Item(start: i, nullable: false))
                i += 1
            }
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
