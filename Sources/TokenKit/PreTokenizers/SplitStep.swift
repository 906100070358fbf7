import Foundation

/// One pre-tokenizer step: it cuts each piece the previous step made into
/// smaller pieces. A tokenizer's steps run in sequence, each on the pieces of
/// the one before, as Hugging Face's `Sequence` of `Split`s and llama.cpp's
/// list of regexes do; a pattern sees only the piece it is given (its `$` is
/// the piece's end, its look-ahead stops there).
enum SplitStep: Sendable {
    /// A hand-written scanner for a well-known pattern; its pieces tile the text.
    case scanner(PieceScannerKind)
    /// Each character with a property is a match (Hugging Face `Digits`, `Punctuation`).
    case characters(CharacterRule, SplitBehavior)
    /// Non-overlapping runs of three ASCII digits (Falcon's `[0-9][0-9][0-9]`).
    case digitTriples
    /// `\s?[set]+` and its kin, matched natively.
    case classRun(ClassRunPattern, SplitBehavior, invert: Bool)
    /// Any pattern, through ICU.
    case regex(RegexSplitter, SplitBehavior, invert: Bool)

    /// The step for a `Split` pattern: a scanner or a native rule when the
    /// pattern is a known one, ICU otherwise.
    static func split(pattern: String, behavior: SplitBehavior = .isolated, invert: Bool = false) throws -> SplitStep {
        if !invert {
            if behavior == .isolated, let kind = PieceScannerKind(pattern: pattern) { return .scanner(kind) }
            if behavior == .isolated || behavior == .contiguous, let (rule, contiguous) = CharacterRule.rule(for: pattern) {
                return .characters(rule, contiguous ? .contiguous : behavior)
            }
            if behavior == .isolated && pattern == "[0-9][0-9][0-9]" { return .digitTriples }
        }
        if let run = ClassRunPattern(pattern: pattern) { return .classRun(run, behavior, invert: invert) }
        return .regex(try RegexSplitter(pattern: pattern), behavior, invert: invert)
    }
}

/// What a `Split` does with the pieces its pattern matches (Hugging Face's
/// `SplitDelimiterBehavior`); the text between matches always stays.
enum SplitBehavior: String, Sendable, CaseIterable {
    case removed = "Removed"
    case isolated = "Isolated"
    case mergedWithPrevious = "MergedWithPrevious"
    case mergedWithNext = "MergedWithNext"
    case contiguous = "Contiguous"

    /// The pieces from a tiling of `(start, end, isMatch)` spans, as Hugging
    /// Face's `NormalizedString::split` forms them (empty pieces dropped).
    func pieces(_ spans: [(Int, Int, Bool)]) -> [(Int, Int)] {
        var folder = SpanFolder(self)
        var out: [(Int, Int)] = []
        for (a, b, isMatch) in spans {
            if let piece = folder.add(a, b, isMatch: isMatch) { out.append(piece) }
        }
        if let piece = folder.finish() { out.append(piece) }
        return out
    }
}

/// Turns spans into pieces one at a time, so that a step can hand each piece
/// on as soon as it is known, without building arrays. Each span finishes at
/// most one piece.
struct SpanFolder {
    let behavior: SplitBehavior
    private var pending: (Int, Int)? = nil
    private var previousMatch = false

    init(_ behavior: SplitBehavior) { self.behavior = behavior }

    /// The next span in text order; returns a piece that is now complete.
    /// Empty spans (empty regex matches) take part in the folding, as in
    /// Hugging Face, and only empty pieces are dropped.
    @inline(__always)
    mutating func add(_ a: Int, _ b: Int, isMatch: Bool) -> (Int, Int)? {
        defer { previousMatch = isMatch }
        let piece: (Int, Int)?
        switch behavior {
        case .isolated:
            piece = (a, b)
        case .removed:
            piece = isMatch ? nil : (a, b)
        case .contiguous:
            if isMatch == previousMatch, let p = pending { pending = (p.0, b); return nil }
            piece = replacePending(with: (a, b))
        case .mergedWithPrevious:
            if isMatch && !previousMatch, let p = pending { pending = (p.0, b); return nil }
            piece = replacePending(with: (a, b))
        case .mergedWithNext:
            // A match joins the text after it; a match before another match stands alone.
            if !isMatch && previousMatch, let p = pending {
                pending = nil
                piece = (p.0, b)
            } else {
                piece = replacePending(with: (a, b))
            }
        }
        guard let piece, piece.0 < piece.1 else { return nil }
        return piece
    }

    /// The last piece, if one is still open.
    mutating func finish() -> (Int, Int)? {
        defer { pending = nil }
        guard let p = pending, p.0 < p.1 else { return nil }
        return p
    }

    @inline(__always)
    private mutating func replacePending(with piece: (Int, Int)) -> (Int, Int)? {
        defer { pending = piece }
        return pending
    }
}

/// The patterns TokenKit scans by hand instead of through ICU.
enum PieceScannerKind: Sendable, CaseIterable {
    /// GPT-2's: Hugging Face `ByteLevel`'s regex and llama.cpp's `gpt-2` (tiktoken's r50k).
    case gpt2
    /// Llama 3's (llama.cpp `llama-bpe`).
    case llama3
    /// Qwen2's (llama.cpp `qwen2`, Qwen3's tokenizer.json).
    case qwen2
    /// cl100k_base's, as tiktoken writes it.
    case cl100k
    /// o200k_base's (llama.cpp `gpt-4o`).
    case o200k

    /// Every spelling of the pattern that this scanner implements exactly.
    var patterns: [String] {
        switch self {
        case .gpt2:
            return [
                #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"#,
                #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"#,
                PreTokenizer.r50k.pattern
            ]
        case .llama3:
            return [#"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#]
        case .qwen2:
            return [#"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#]
        case .cl100k:
            return [PreTokenizer.cl100k.pattern]
        case .o200k:
            return [PreTokenizer.o200k.pattern]
        }
    }

    /// The reference pattern the scanner is fuzzed against.
    var pattern: String { patterns[0] }

    init?(pattern: String) {
        guard let kind = Self.allCases.first(where: { $0.patterns.contains(pattern) }) else { return nil }
        self = kind
    }
}

/// A character property that makes each character having it a match.
enum CharacterRule: Sendable {
    /// `\p{N}` (Rust's `char::is_numeric`, which `Digits` uses).
    case number
    /// Unicode punctuation or ASCII punctuation (`Punctuation`; Falcon's
    /// `[\p{P}\$\+<=>\^~\|`]`).
    case punctuation
    /// `[\r\n]`.
    case lineBreak
    /// Unicode `White_Space` (Rust's `char::is_whitespace`).
    case whitespace
    /// What `BertPreTokenizer` isolates (`BertCharacters.isPunctuation`).
    case bertPunctuation

    /// Patterns that are one of these rules, matched per character or as runs.
    static func rule(for pattern: String) -> (CharacterRule, contiguous: Bool)? {
        switch pattern {
        case #"\p{N}"#: return (.number, false)
        case #"\p{N}+"#: return (.number, true)
        case #"[\p{P}\$\+<=>\^~\|`]+"#: return (.punctuation, true)
        case #"[\p{P}\$\+<=>\^~\|`]"#: return (.punctuation, false)
        case "[\r\n]", #"[\r\n]"#: return (.lineBreak, false)
        default: return nil
        }
    }

    @inline(__always)
    func matches(_ c: (value: UInt32, classes: CharacterClass, length: Int)) -> Bool {
        switch self {
        case .number: return c.classes.contains(.number)
        case .punctuation:
            if c.classes.contains(.punctuation) { return true }
            // ASCII symbols Rust's `is_ascii_punctuation` counts but Unicode does not.
            switch c.value {
            case 0x24, 0x2B, 0x3C, 0x3D, 0x3E, 0x5E, 0x60, 0x7C, 0x7E: return true
            default: return false
            }
        case .lineBreak: return c.value == 0x0A || c.value == 0x0D
        case .whitespace: return c.classes.contains(.whitespace)
        case .bertPunctuation: return c.value != 0xFFFF_FFFF && BertCharacters.isPunctuation(c.value)
        }
    }
}

/// A `Split` pattern run through ICU, keeping Hugging Face's semantics: the
/// pattern sees only the piece, and an empty match still cuts the piece there.
struct RegexSplitter: @unchecked Sendable {
    // @unchecked Sendable: NSRegularExpression is immutable once compiled and documented as safe to use from several threads.
    let pattern: String
    private let regex: NSRegularExpression

    init(pattern: String) throws {
        self.pattern = pattern
        regex = try RegexPreTokenizer.compile(pattern)
    }

    /// `(start, end, isMatch)` spans tiling `base[from..<to]`. The piece is
    /// copied into a string of its own, so the pattern cannot see past it and
    /// the work stays proportional to the piece.
    func spans(_ base: UnsafePointer<UInt8>, from: Int, to: Int, invert: Bool) -> [(Int, Int, Bool)] {
        let piece = PieceText(base, from: from, to: to)
        var spans: [(Int, Int, Bool)] = []
        var previous = from
        regex.enumerateMatches(in: piece.string, options: [], range: NSRange(location: 0, length: piece.utf16Count)) { result, _, _ in
            guard let r = result?.range else { return }
            let s = piece.utf8Offset(r.location), e = piece.utf8Offset(r.location + r.length)
            if s > previous { spans.append((previous, s, invert)) }
            spans.append((s, e, !invert))
            previous = e
        }
        if previous < to { spans.append((previous, to, invert)) }
        return spans
    }
}

/// A piece as ICU needs it (UTF-16), with the byte offset of each UTF-16
/// unit. Bytes that are not valid UTF-8 are each one U+FFFD.
struct PieceText {
    let string: String
    private let toUTF8: [Int32]  // per UTF-16 unit, plus the end

    init(_ base: UnsafePointer<UInt8>, from: Int, to: Int) {
        var units: [UInt16] = []
        units.reserveCapacity(to - from)
        var toUTF8: [Int32] = []
        toUTF8.reserveCapacity(to - from + 1)
        let cursor = UTF8Cursor(base: base, end: to, table: .shared)
        var i = from
        while i < to {
            let c = cursor.character(at: i)
            let scalar = c.value == 0xFFFF_FFFF ? Unicode.Scalar(0xFFFD)! : Unicode.Scalar(c.value)!
            for unit in scalar.utf16 {
                units.append(unit)
                toUTF8.append(Int32(i))
            }
            i += c.length
        }
        toUTF8.append(Int32(to))
        self.toUTF8 = toUTF8
        string = String(decoding: units, as: UTF16.self)
    }

    var utf16Count: Int { toUTF8.count - 1 }

    @inline(__always) func utf8Offset(_ unit: Int) -> Int { Int(toUTF8[unit]) }
}
