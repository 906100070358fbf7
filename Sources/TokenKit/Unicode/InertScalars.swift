/// The scalars below `limit` that a normalization form leaves inert
/// (`UnicodeSource.isNormalizationInert`), one bit each: what the normalizer
/// asks of every non-ASCII character it passes over.
///
/// The build's source answers a scalar at a time, utf8proc's through a call
/// into the library: on a qwen2 tokenizer.json count (NFC) of 3 MB of
/// Debian's Chinese and Japanese pages, that check was 23% of the warm time
/// (`perf`), and a count took 23.40 ms warm (median of 4 alternated
/// processes, one CPU) against 15.1 for the same vocabulary from a GGUF,
/// which does not normalize.
///
/// With the table, that count took 20.70 ms, and the check was still 14% of
/// it. Tried: a bit per block of 64 scalars, tested on a three-byte
/// character's first two bytes with no decode: 20.62 → 20.55 ms (5
/// alternated processes beside a CI run), still 14% under `perf`. The
/// loop's branches between ASCII and the ideographs, not the lookup, are
/// what is left. Not kept.
package struct InertScalars: Sendable {
    /// Bit `s & 63` of word `s >> 6`: whether scalar `s` is inert.
    private let words: [UInt64]
    private let form: NormalizationForm

    /// The Basic Multilingual Plane: every script's letters and the common
    /// ideographs. Scalars above it (emoji, rare ideographs) are asked of the
    /// source each time. Planes 0 to 2 took 1.0–1.4 ms to build, once per
    /// process (`tokbench`'s warm-up); with this plane, a third of the
    /// questions, the warm-up was within its noise of the build without a
    /// table (1.6–2.4 ms against 1.9–2.0).
    static let limit: UInt32 = 0x1_0000

    private init(_ form: NormalizationForm) {
        self.form = form
        var words = [UInt64](repeating: 0, count: Int(Self.limit) / 64)
        for scalar in UInt32(0)..<Self.limit where UnicodeData.isNormalizationInert(scalar, for: form) {
            words[Int(scalar >> 6)] |= 1 << UInt64(scalar & 63)
        }
        self.words = words
    }

    /// The table of `form`, built the first time it is asked for (65,536
    /// questions to the source, once per form and process).
    package static func of(_ form: NormalizationForm) -> InertScalars {
        switch form {
        case .nfc: return nfc
        case .nfd: return nfd
        case .nfkc: return nfkc
        case .nfkd: return nfkd
        }
    }

    private static let nfc = InertScalars(.nfc)
    private static let nfd = InertScalars(.nfd)
    private static let nfkc = InertScalars(.nfkc)
    private static let nfkd = InertScalars(.nfkd)

    /// Whether `form` leaves the scalar inert.
    @inline(__always)
    package func contains(_ scalar: UInt32) -> Bool {
        scalar < Self.limit
            ? words[Int(scalar >> 6)] >> UInt64(scalar & 63) & 1 != 0
            : UnicodeData.isNormalizationInert(scalar, for: form)
    }
}
