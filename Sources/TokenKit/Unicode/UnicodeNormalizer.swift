/// NFC, NFD, NFKC and NFKD (UAX #15) in Swift, over Unicode 15.0.0 tables
/// generated ahead of time (`UnicodeNormalizer+Tables.swift`, written by
/// `scripts/generate-normalization-tables.py`).
///
/// Why not what the platform has: Swift's standard library normalizes only
/// behind SPI, and offers no compatibility decompositions at all (NFKC is what
/// tokenizers like claude-legacy use); Foundation's `precomposedString…`
/// leaves Hangul LV + T uncomposed on Linux (measured with Swift 6.3.1) and
/// follows the OS's Unicode version on Apple platforms. Tables of one pinned
/// version give the same bytes everywhere, and a table lookup per character
/// keeps the inert-character fast path as cheap as utf8proc's.
///
/// All facts live in one flat array below U+30000 (no character above has a
/// decomposition, a composition or a non-zero combining class; the script
/// checks), built from the tables on first use in about 3 ms.
package struct UnicodeNormalizer: Sendable {
    /// The normalizer every tokenizer shares.
    package static let shared = UnicodeNormalizer()

    static let limit: UInt32 = 0x30000
    /// Per code point: the combining class, a not-inert bit per form, and what
    /// takes part in decomposition and composition (see the `Fact` bits).
    private let facts: [UInt16]
    private let decompositions: [UInt32]
    /// Where each character's full decomposition lies in `decompositions`.
    private let canonical: [UInt32: Range<Int>]
    private let compatibility: [UInt32: Range<Int>]
    /// Primary composites by `first << 21 | second`.
    private let compositions: [UInt64: UInt32]

    private enum Fact {
        static let combiningClass: UInt16 = 0xFF
        /// `notInert << form.rawValue`: the form may change the character or join it to a neighbour.
        static let notInert: UInt16 = 1 << 8
        static let canonicalDecomposition: UInt16 = 1 << 12
        static let compatibilityDecomposition: UInt16 = 1 << 13
        static let compositionFirst: UInt16 = 1 << 14
        static let compositionSecond: UInt16 = 1 << 15
    }

    private init(
        facts: [UInt16], decompositions: [UInt32], canonical: [UInt32: Range<Int>],
        compatibility: [UInt32: Range<Int>], compositions: [UInt64: UInt32]
    ) {
        self.facts = facts
        self.decompositions = decompositions
        self.canonical = canonical
        self.compatibility = compatibility
        self.compositions = compositions
    }

    private init() {
        var facts = [UInt16](repeating: 0, count: Int(Self.limit))
        Self.forEachEntry(Self.combiningClassData) { e in
            for c in e[0]...e[1] { facts[Int(c)] |= UInt16(e[2]) }
        }
        var decompositions: [UInt32] = []
        func mappings(_ data: String, _ bit: UInt16) -> [UInt32: Range<Int>] {
            var result: [UInt32: Range<Int>] = [:]
            Self.forEachEntry(data) { e in
                result[e[0]] = decompositions.count..<(decompositions.count + e.count - 1)
                decompositions.append(contentsOf: e.dropFirst())
                facts[Int(e[0])] |= bit
            }
            return result
        }
        let canonical = mappings(Self.canonicalData, Fact.canonicalDecomposition)
        let compatibility = mappings(Self.compatibilityData, Fact.compatibilityDecomposition)
        var compositions: [UInt64: UInt32] = [:]
        Self.forEachEntry(Self.compositionData) { e in
            compositions[UInt64(e[0]) << 21 | UInt64(e[1])] = e[2]
            facts[Int(e[0])] |= Fact.compositionFirst
            facts[Int(e[1])] |= Fact.compositionSecond
        }
        // The inert bits need NFC itself (does a decomposable character come
        // back?), so they are worked out with the finished tables.
        let tables = UnicodeNormalizer(
            facts: facts, decompositions: decompositions, canonical: canonical,
            compatibility: compatibility, compositions: compositions)
        var scratch: [UInt32] = []
        for c in 0..<Self.limit {
            let f = facts[Int(c)]
            // No fact at all: inert under every form, Hangul jamo and syllables aside.
            if f == 0 && !(0x1100...0x11FF).contains(c) && !(0xAC00...0xD7A3).contains(c) { continue }
            let kind: DecompositionKind =
                f & Fact.canonicalDecomposition != 0
                ? .canonical
                : f & Fact.compatibilityDecomposition != 0 ? .compatibility : .none
            for form in NormalizationForm.allCases {
                let inert = form.isInert(
                    scalar: c, combiningClass: UInt8(f & Fact.combiningClass),
                    isCompositionSecond: f & Fact.compositionSecond != 0, decomposition: kind,
                    recomposes: tables.roundTrips(c, &scratch))
                if !inert { facts[Int(c)] |= Fact.notInert << UInt16(form.rawValue) }
            }
        }
        self.init(
            facts: facts, decompositions: decompositions, canonical: canonical,
            compatibility: compatibility, compositions: compositions)
    }

    /// Whether NFC gives `c` back (asked of characters with a canonical decomposition).
    private func roundTrips(_ c: UInt32, _ scratch: inout [UInt32]) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        decompose(c, compatibility: false, into: &scratch)
        compose(&scratch)
        return scratch == [c]
    }

    /// Calls `body` with the (hexadecimal) numbers of each line of a generated
    /// table, read byte by byte: string splitting made the tables' first use
    /// several times slower.
    private static func forEachEntry(_ data: String, _ body: ([UInt32]) -> Void) {
        var data = data
        data.withUTF8 { bytes in
            var numbers: [UInt32] = []
            var value: UInt32 = 0, inNumber = false
            for b in bytes {
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(b - UInt8(ascii: "0")); inNumber = true
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(b - UInt8(ascii: "A") + 10); inNumber = true
                default:
                    if inNumber { numbers.append(value) }
                    value = 0
                    inNumber = false
                    if b == UInt8(ascii: "\n") && !numbers.isEmpty {
                        body(numbers)
                        numbers.removeAll(keepingCapacity: true)
                    }
                }
            }
            if inNumber { numbers.append(value) }
            if !numbers.isEmpty { body(numbers) }
        }
    }

    @inline(__always)
    private func fact(_ c: UInt32) -> UInt16 { c < Self.limit ? facts[Int(c)] : 0 }

    @inline(__always)
    private func combiningClass(_ c: UInt32) -> UInt8 { UInt8(fact(c) & Fact.combiningClass) }

    /// See `UnicodeSource.isNormalizationInert`.
    @inline(__always)
    package func isInert(_ c: UInt32, for form: NormalizationForm) -> Bool {
        fact(c) & (Fact.notInert << UInt16(form.rawValue)) == 0
    }

    /// See `UnicodeSource.normalize`.
    package func normalize(_ p: UnsafePointer<UInt8>, count n: Int, to form: NormalizationForm, scratch: inout [UInt32]) -> [UInt8]? {
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        while i < n {
            let b0 = UInt32(p[i])
            if b0 < 0x80 {
                scratch.append(b0)
                i += 1
                continue
            }
            let (c, length) = UTF8Decoder.multiByteScalar(p, at: i, end: n, lead: b0)
            guard length > 0 else { return nil }
            decompose(c, compatibility: form.isCompatibility, into: &scratch)
            i += length
        }
        if form.composes { compose(&scratch) }
        var out: [UInt8] = []
        out.reserveCapacity(n + n / 2)
        for c in scratch { Self.appendUTF8(c, to: &out) }
        return out
    }

    /// Appends the full decomposition of `c`, then puts the marks it ends in
    /// into canonical order with the ones already there.
    private func decompose(_ c: UInt32, compatibility useCompatibility: Bool, into out: inout [UInt32]) {
        let start = out.count
        let f = fact(c)
        if (0xAC00...0xD7A3).contains(c) {
            let s = c - 0xAC00
            out.append(0x1100 + s / 588)
            out.append(0x1161 + (s % 588) / 28)
            if s % 28 != 0 { out.append(0x11A7 + s % 28) }
        } else if useCompatibility && f & Fact.compatibilityDecomposition != 0, let r = compatibility[c] {
            out.append(contentsOf: decompositions[r])
        } else if f & Fact.canonicalDecomposition != 0, let r = canonical[c] {
            out.append(contentsOf: decompositions[r])
        } else {
            out.append(c)
        }
        // Canonical ordering: each new mark moves back past the marks of a
        // higher class before it (a stable insertion sort of each mark run).
        for k in start..<out.count {
            let cc = combiningClass(out[k])
            guard cc != 0 else { continue }
            var j = k
            while j > 0, combiningClass(out[j - 1]) > cc {
                out.swapAt(j - 1, j)
                j -= 1
            }
        }
    }

    /// Canonical composition of decomposed, canonically ordered scalars, in place.
    private func compose(_ s: inout [UInt32]) {
        var starter = -1
        var lastClass: UInt8 = 0
        var w = 0
        for r in 0..<s.count {
            let c = s[r]
            let cc = combiningClass(c)
            // Not blocked: right after the starter, or after marks of a lower class.
            if starter >= 0 && (w - 1 == starter || (lastClass != 0 && lastClass < cc)),
                let composite = composite(s[starter], c)
            {
                s[starter] = composite
                continue
            }
            if cc == 0 { starter = w }
            lastClass = cc
            s[w] = c
            w += 1
        }
        s.removeLast(s.count - w)
    }

    /// The primary composite of two scalars, if there is one.
    @inline(__always)
    private func composite(_ a: UInt32, _ b: UInt32) -> UInt32? {
        if (0x1100...0x1112).contains(a) && (0x1161...0x1175).contains(b) {
            return 0xAC00 + ((a - 0x1100) * 21 + (b - 0x1161)) * 28
        }
        if (0xAC00...0xD7A3).contains(a) && (a - 0xAC00) % 28 == 0 && (0x11A8...0x11C2).contains(b) {
            return a + (b - 0x11A7)
        }
        guard fact(a) & Fact.compositionFirst != 0, fact(b) & Fact.compositionSecond != 0 else { return nil }
        return compositions[UInt64(a) << 21 | UInt64(b)]
    }

    /// Appends the UTF-8 of a scalar value (also the BERT normalizer's writer).
    static func appendUTF8(_ c: UInt32, to out: inout [UInt8]) {
        switch c {
        case 0..<0x80:
            out.append(UInt8(c))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | c >> 6)); out.append(UInt8(0x80 | c & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | c >> 12)); out.append(UInt8(0x80 | c >> 6 & 0x3F)); out.append(UInt8(0x80 | c & 0x3F))
        default:
            out.append(UInt8(0xF0 | c >> 18)); out.append(UInt8(0x80 | c >> 12 & 0x3F))
            out.append(UInt8(0x80 | c >> 6 & 0x3F)); out.append(UInt8(0x80 | c & 0x3F))
        }
    }
}
