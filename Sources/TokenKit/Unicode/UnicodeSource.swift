/// The Unicode facts TokenKit and ContextKit use, from one source.
///
/// Two sources answer the same questions: `UTF8ProcUnicode` (the system's
/// libutf8proc, Linux only) and `StdlibUnicode` (Swift's standard library and
/// tables generated ahead of time, every platform). `UnicodeData` is the one
/// the build selects; the other exists only so the tests can compare the two
/// directly in the default Linux build.
///
/// Both answer as Unicode 15.0 does, the version of utf8proc 2.8, whatever
/// the platform's own Unicode is, so the two builds give the same ids. The
/// peers are newer (tiktoken, Hugging Face tokenizers and ICU 16.0, llama.cpp
/// 15.1): `CharacterClassTable` applies the class changes of each peer's
/// version on top of this base (`CharacterClassChanges.swift`).
package protocol UnicodeSource {
    /// What the data comes from, with its version; part of the name of any
    /// file cached from it, so that two sources never share one.
    static var cacheKey: String { get }

    /// The general category of a code point (`.unassigned` for one Unicode
    /// 15.0 had not assigned, `.surrogate` for a surrogate).
    static func generalCategory(of codePoint: UInt32) -> Unicode.GeneralCategory

    /// Unicode's `White_Space` property.
    static func isWhiteSpace(_ codePoint: UInt32) -> Bool

    /// The simple (one code point) lowercase mapping, or the code point itself.
    static func simpleLowercase(_ codePoint: UInt32) -> UInt32

    /// Whether `form` leaves the scalar as it is and no reordering or
    /// composition crosses it (see `NormalizationForm.isInert`); the normalizer
    /// passes such characters over without normalizing anything.
    static func isNormalizationInert(_ scalar: UInt32, for form: NormalizationForm) -> Bool

    /// `form` applied to `count` bytes of UTF-8 at `p`, or nil when they are not
    /// valid UTF-8. `scratch` is working memory the caller keeps between calls.
    static func normalize(_ p: UnsafePointer<UInt8>, count: Int, to form: NormalizationForm, scratch: inout [UInt32]) -> [UInt8]?

    /// Whether the scalar is a grapheme `Prepend` character (it joins the next
    /// character into its cluster).
    static func isPrepend(_ scalar: UInt32) -> Bool

    /// Whether a grapheme cluster boundary lies between two valid scalars,
    /// judged from those two alone.
    static func isGraphemeBreak(between first: UInt32, and second: UInt32) -> Bool

    /// Calls `body` with each grapheme cluster boundary `b` of `t[0..<n]` with
    /// `start < b <= min(limit, n)`, in order, until it returns false. `start`
    /// must be a boundary; `n` is one. A byte that starts no valid UTF-8
    /// sequence is a unit of its own, with a boundary on each side.
    static func forEachGraphemeBoundary(in t: UnsafePointer<UInt8>, count n: Int, after start: Int, through limit: Int, _ body: (Int) -> Bool)
}

#if CONTEXTKIT_UTF8PROC
    /// The Unicode source of this build: libutf8proc (Linux, unless built with
    /// `CONTEXTKIT_UNICODE=stdlib`).
    package typealias UnicodeData = UTF8ProcUnicode
#else
    /// The Unicode source of this build: Swift's standard library and TokenKit's
    /// own normalization tables (Apple platforms, and Linux built with
    /// `CONTEXTKIT_UNICODE=stdlib`).
    package typealias UnicodeData = StdlibUnicode
#endif

extension UnicodeSource {
    /// The `CharacterClass` bits of a code point, from its category and `White_Space`.
    package static func characterClasses(of codePoint: UInt32) -> CharacterClass {
        var result: CharacterClass = isWhiteSpace(codePoint) ? .whitespace : []
        switch generalCategory(of: codePoint) {
        case .uppercaseLetter, .titlecaseLetter:
            result.formUnion([.letter, .upperish])
        case .lowercaseLetter:
            result.formUnion([.letter, .lowerish])
        case .modifierLetter, .otherLetter:
            result.formUnion([.letter, .upperish, .lowerish])
        case .nonspacingMark, .spacingMark, .enclosingMark:
            result.formUnion([.mark, .upperish, .lowerish])
        case .decimalNumber, .letterNumber, .otherNumber:
            result.insert(.number)
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            result.insert(.punctuation)
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            result.insert(.symbol)
        default:
            break
        }
        return result
    }

    /// Whether the code point is a lowercase letter (category `Ll`).
    package static func isLowercaseLetter(_ codePoint: UInt32) -> Bool {
        generalCategory(of: codePoint) == .lowercaseLetter
    }
}

/// One of Unicode's four normalization forms (UAX #15).
package enum NormalizationForm: Int, Sendable, CaseIterable {
    case nfc, nfd, nfkc, nfkd

    /// Whether the form composes after decomposing (NFC, NFKC).
    package var composes: Bool { self == .nfc || self == .nfkc }
    /// Whether the form applies compatibility decompositions (NFKC, NFKD).
    package var isCompatibility: Bool { self == .nfkc || self == .nfkd }

    /// Whether a character is *inert* under this form: normalization leaves it
    /// as it is and cannot join it to its neighbours — combining class 0, never
    /// the second character of a composition, and no decomposition that this
    /// form would apply and not undo. Both sources decide by this one rule
    /// from their own data; `recomposes` (NFC gives the character back from
    /// its canonical decomposition) is asked only when it matters.
    @inline(__always)
    package func isInert(
        scalar: UInt32, combiningClass: UInt8, isCompositionSecond: Bool,
        decomposition: DecompositionKind, recomposes: @autoclosure () -> Bool
    ) -> Bool {
        guard combiningClass == 0 else { return false }
        if composes {
            if isCompositionSecond { return false }
            // Hangul vowels and finals join the syllable before them.
            if (0x1161...0x1175).contains(scalar) || (0x11A8...0x11C2).contains(scalar) { return false }
        } else if (0xAC00...0xD7A3).contains(scalar) {
            return false  // Hangul syllables decompose
        }
        switch decomposition {
        case .none: return true
        case .compatibility: return !isCompatibility
        case .canonical: return composes && !isCompatibility && recomposes()
        }
    }
}

/// Which decomposition mapping a character has in the Unicode Character Database.
package enum DecompositionKind: Sendable {
    case none
    /// A canonical mapping (every form applies it).
    case canonical
    /// Only a compatibility mapping (NFKC and NFKD apply it).
    case compatibility
}
