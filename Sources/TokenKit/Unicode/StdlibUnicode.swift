/// Unicode facts from Swift's standard library, pinned to Unicode 15.0, plus
/// TokenKit's own normalization tables: the source on Apple platforms and on
/// Linux built with `CONTEXTKIT_UNICODE=stdlib`. Pure Swift, compiled on every
/// platform, so the default Linux build can test it against utf8proc.
///
/// Where each answer comes from, and why:
/// - Categories, `White_Space`, lowercase: `Unicode.Scalar.Properties`. The
///   runtime's Unicode is newer (16.0 in Swift 6.3), so a code point whose
///   `age` is after 15.0 counts as unassigned, as utf8proc 2.8 sees it, and
///   the older characters a later version gave another category keep their
///   15.0 one (`categoriesChangedSince15`). (A runtime older than Unicode
///   15.0 — macOS 13, iOS 16 — does not know the 15.0 additions; they count
///   as unassigned there.)
/// - Normalization: `UnicodeNormalizer`, tables of Unicode 15.0.0 made ahead
///   of time (its doc comment says why not Foundation or the stdlib).
/// - Grapheme clusters: Swift's `Character`s, the rules of the runtime's
///   Unicode (15.1's GB9c keeps an Indic conjunct together, which utf8proc
///   2.8 splits). Boundaries only choose where the planner may cut text, never
///   a token id, so they follow the platform instead of being pinned.
package enum StdlibUnicode: UnicodeSource {
    /// The runtime's own Unicode version (as far as the probes tell) and the pin.
    package static let cacheKey = "stdlib\(runtimeVersion.major).\(runtimeVersion.minor)-as-15.0"

    /// The newest Unicode version among characters added in 15.0, 15.1 and 16.0
    /// that the runtime knows (a new runtime may change old characters too, so
    /// a cache made under another one must not be reused).
    static let runtimeVersion: Unicode.Version = {
        let probes: [UInt32] = [0x1FAE8, 0x2FFC, 0x1FAE9]  // 🫨 (15.0), ⿼ (15.1), 🫩 (16.0)
        return probes.compactMap { Unicode.Scalar($0)?.properties.age }.max { ($0.major, $0.minor) < ($1.major, $1.minor) } ?? (14, 0)
    }()

    /// The properties of an assigned code point that Unicode 15.0 knows.
    @inline(__always)
    private static func properties(_ codePoint: UInt32) -> Unicode.Scalar.Properties? {
        guard let scalar = Unicode.Scalar(codePoint), let age = scalar.properties.age,
            age.major < 15 || (age.major == 15 && age.minor == 0)
        else { return nil }
        return scalar.properties
    }

    /// The runtime's category, as Unicode 15.0 had it (see `categoriesChangedSince15`).
    package static func generalCategory(of codePoint: UInt32) -> Unicode.GeneralCategory {
        if (0xD800...0xDFFF).contains(codePoint) { return .surrogate }
        guard let p = properties(codePoint) else { return .unassigned }
        return categoriesChangedSince15[codePoint] ?? p.generalCategory
    }

    /// Unicode 15.0's category of the characters it had that a later version
    /// reclassified, found by comparing every code point with utf8proc
    /// (`UnicodeSourceTests`, which lists any a newer runtime adds). ʕ's matters
    /// to the ids: o200k's pattern tells `Ll` from `Lo`.
    static let categoriesChangedSince15: [UInt32: Unicode.GeneralCategory] = [
        0x0295: .lowercaseLetter,  // ʕ LATIN LETTER PHARYNGEAL VOICED FRICATIVE: Lo since 16.0
        0x1171E: .nonspacingMark  // AHOM CONSONANT SIGN MEDIAL RA: Mc since 16.0
    ]

    /// The runtime's `White_Space`, for characters Unicode 15.0 had.
    package static func isWhiteSpace(_ codePoint: UInt32) -> Bool {
        properties(codePoint)?.isWhitespace ?? false
    }

    /// From the full mapping: where it is one scalar that is also the simple
    /// one; the one lowercase expansion, U+0130 İ → i + U+0307, has `i` as its
    /// simple mapping, its first scalar.
    package static func simpleLowercase(_ codePoint: UInt32) -> UInt32 {
        if codePoint < 0x80 { return (0x41...0x5A).contains(codePoint) ? codePoint + 0x20 : codePoint }
        guard let p = properties(codePoint), p.changesWhenLowercased else { return codePoint }
        return p.lowercaseMapping.unicodeScalars.first?.value ?? codePoint
    }

    /// `UnicodeNormalizer`'s inert bit for the form.
    @inline(__always)
    package static func isNormalizationInert(_ scalar: UInt32, for form: NormalizationForm) -> Bool {
        UnicodeNormalizer.shared.isInert(scalar, for: form)
    }

    /// `UnicodeNormalizer` over the stretch.
    package static func normalize(_ p: UnsafePointer<UInt8>, count: Int, to form: NormalizationForm, scratch: inout [UInt32]) -> [UInt8]? {
        UnicodeNormalizer.shared.normalize(p, count: count, to: form, scratch: &scratch)
    }

    /// Whether the scalar joins a following letter into one `Character` (only
    /// GB9b, Prepend ×, joins a character to a plain letter after it).
    package static func isPrepend(_ scalar: UInt32) -> Bool {
        guard let s = Unicode.Scalar(scalar) else { return false }
        var text = String()
        text.unicodeScalars.append(s)
        text.unicodeScalars.append("a")
        return text.count == 1
    }

    /// Whether the two scalars make two `Character`s.
    package static func isGraphemeBreak(between first: UInt32, and second: UInt32) -> Bool {
        guard let a = Unicode.Scalar(first), let b = Unicode.Scalar(second) else { return true }
        var text = String()
        text.unicodeScalars.append(a)
        text.unicodeScalars.append(b)
        return text.count == 2
    }

    /// Swift's `Character`s over stretches of valid UTF-8, read in growing
    /// pieces so that a boundary near `start` costs little: within a piece
    /// every boundary but its end is final (a break depends only on what comes
    /// before it and the scalar after), so the next piece starts again at the
    /// last one found.
    package static func forEachGraphemeBoundary(in t: UnsafePointer<UInt8>, count n: Int, after start: Int, through limit: Int, _ body: (Int) -> Bool) {
        let last = min(limit, n)
        var i = start
        var step = 256
        while i < last {
            // Valid scalars from `i`, up to about `step` bytes; the piece's end
            // is a boundary too if the text or its valid stretch ends there.
            var end = i
            var endIsBoundary = false
            while true {
                if end == n { endIsBoundary = true; break }
                if end - i >= step { break }
                let length = UTF8Decoder.scalar(t, at: end, end: n).length
                if length == 0 { endIsBoundary = true; break }
                end += length
            }
            if end == i {  // an invalid byte, a unit of its own
                i += 1
                if !body(i) { return }
                continue
            }
            let piece = String(decoding: UnsafeBufferPointer(start: t + i, count: end - i), as: UTF8.self)
            var index = piece.startIndex
            var boundary = i
            while index < piece.endIndex {
                index = piece.index(after: index)
                let b = i + piece.utf8.distance(from: piece.startIndex, to: index)
                if b == end && !endIsBoundary { break }
                if b > last || !body(b) { return }
                boundary = b
            }
            i = boundary
            step = min(step * 2, 1 << 16)
        }
    }
}
