import Foundation

/// Text rewritten by a normalizer, with where each byte came from, so that
/// tokens still report byte ranges of the caller's text.
struct NormalizedText {
    var bytes: [UInt8]
    /// `origins[k]`: the input offset of the character byte `k` was made from;
    /// `origins[bytes.count]` is the end of the input.
    var origins: [Int32]

    /// The identity: `bytes[from..<to]`, each byte from itself.
    init(_ base: UnsafePointer<UInt8>, from: Int, to: Int) {
        bytes = Array(UnsafeBufferPointer(start: base + from, count: to - from))
        origins = (from...to).map { Int32($0) }
    }

    init(capacity: Int) {
        bytes = []
        origins = []
        bytes.reserveCapacity(capacity)
        origins.reserveCapacity(capacity + 1)
    }

    /// Appends bytes that all came from the input at `origin`.
    mutating func append<C: Collection>(_ b: C, from origin: Int32) where C.Element == UInt8 {
        bytes.append(contentsOf: b)
        origins.append(contentsOf: repeatElement(origin, count: b.count))
    }
}

/// The normalizers of Hugging Face `tokenizer.json` that ContextKit implements,
/// plus the two rewrites llama.cpp applies for SentencePiece vocabularies
/// (a leading space, spaces as `▁`), which are a `Prepend` and a `Replace`.
indirect enum Normalizer: Sendable {
    case nfc, nfd, nfkc, nfkd
    /// Unicode simple lowercase mapping, per character.
    case lowercase
    /// Every occurrence of `pattern`, left to right, becomes `content`.
    case replace(pattern: [UInt8], content: [UInt8])
    /// Puts `prefix` before any text that is not empty.
    case prepend([UInt8])
    /// Puts a space before text that does not start with one (`ByteLevel`'s `add_prefix_space`).
    case prefixSpace
    /// Puts `prefix` before text that does not start with it (`Metaspace`'s `prepend_scheme` "always").
    case prefixUnlessPresent([UInt8])
    /// Removes whitespace at the start and/or end.
    case strip(left: Bool, right: Bool)
    case sequence([Normalizer])
    /// Hugging Face's `BertNormalizer` (controls, CJK spacing, accents, lowercase).
    case bert(BertNormalizer)
    /// SentencePiece's own normalizer, from a `.model` file's `NormalizerSpec`.
    case sentencePiece(SentencePieceNormalizer)
    /// Hugging Face's `Precompiled`: a SentencePiece charsmap applied per grapheme cluster.
    case precompiled(PrecompiledCharsmap)
    /// Runs of at least `minimum` bytes `byte` become `content` (`Replace` of the regex `" {2,}"`).
    case collapseRuns(byte: UInt8, minimum: Int, content: [UInt8])

    /// The names `tokenizer.json` uses for the normalizers above.
    static let supportedNames = [
        "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "Replace (String pattern)", "Replace (Regex \"X{n,}\" of one ASCII character)", "Precompiled", "Prepend", "Strip", "Sequence",
        "BertNormalizer"
    ]

    /// Normalizes `base[from..<to]`; `nil` when the text comes out unchanged
    /// (the usual case, which then costs no copy).
    func apply(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> NormalizedText? {
        var current: NormalizedText? = nil
        apply(base, from, to, &current)
        return current
    }

    private func apply(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ current: inout NormalizedText?) {
        if case .sequence(let steps) = self {
            for step in steps { step.apply(base, from, to, &current) }
            return
        }
        let result: NormalizedText?
        if let text = current {
            result = text.bytes.withUnsafeBufferPointer { b in
                step(b.baseAddress ?? base, 0, b.count, origins: text.origins)
            }
        } else {
            result = step(base, from, to, origins: nil)
        }
        if let result { current = result }
    }

    /// One step over `p[from..<to]`; `origins` maps its bytes to the input
    /// (nil: the bytes are the input itself).
    private func step(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, origins: [Int32]?) -> NormalizedText? {
        @inline(__always) func origin(_ k: Int) -> Int32 { origins?[k] ?? Int32(k) }
        switch self {
        case .nfc: return Self.unicodeNormalize(p, from, to, origins, .nfc)
        case .nfd: return Self.unicodeNormalize(p, from, to, origins, .nfd)
        case .nfkc: return Self.unicodeNormalize(p, from, to, origins, .nfkc)
        case .nfkd: return Self.unicodeNormalize(p, from, to, origins, .nfkd)
        case .lowercase:
            return Self.mapCharacters(p, from, to, origins) { c in
                let lower = UnicodeData.simpleLowercase(c)
                return lower == c ? nil : lower
            }
        case let .replace(pattern, content):
            guard !pattern.isEmpty, let first = Self.find(pattern, in: p, from, to) else { return nil }
            var out = NormalizedText(capacity: to - from + content.count)
            var i = from
            var match: Int? = first
            while let m = match {
                for k in i..<m { out.bytes.append(p[k]); out.origins.append(origin(k)) }
                out.append(content, from: origin(m))
                i = m + pattern.count
                match = Self.find(pattern, in: p, i, to)
            }
            for k in i..<to { out.bytes.append(p[k]); out.origins.append(origin(k)) }
            out.origins.append(origin(to))
            return out
        case .prepend(let prefix):
            guard to > from, !prefix.isEmpty else { return nil }
            return Self.prepending(prefix, p, from, to, origins)
        case .prefixSpace:
            guard to > from, p[from] != 0x20 else { return nil }
            return Self.prepending([0x20], p, from, to, origins)
        case .prefixUnlessPresent(let prefix):
            guard to > from, !prefix.isEmpty, !UnsafeBufferPointer(start: p + from, count: to - from).starts(with: prefix) else { return nil }
            return Self.prepending(prefix, p, from, to, origins)
        case let .strip(left, right):
            var a = from, b = to
            if left { while a < b, let c = Self.whitespaceLength(p, a, b) { a += c } }
            if right { while b > a, let c = Self.trailingWhitespaceLength(p, a, b) { b -= c } }
            guard a != from || b != to else { return nil }
            var out = NormalizedText(capacity: b - a)
            for k in a..<b { out.bytes.append(p[k]); out.origins.append(origin(k)) }
            out.origins.append(origin(b))
            return out
        case .bert(let bert):
            return bert.apply(p, from, to, origins: origins)
        case .sentencePiece(let normalizer):
            return normalizer.normalize(p, from, to, origins: origins)
        case .precompiled(let map):
            return Self.precompiledStep(map, p, from, to, origins)
        case let .collapseRuns(byte, minimum, content):
            return Self.collapsingRuns(of: byte, minimum: minimum, into: content, p, from, to, origins)
        case .sequence:
            return nil  // handled by `apply`
        }
    }

    private static func prepending(_ prefix: [UInt8], _ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ origins: [Int32]?) -> NormalizedText {
        var out = NormalizedText(capacity: to - from + prefix.count)
        let start = origins?[from] ?? Int32(from)
        out.append(prefix, from: start)
        for k in from..<to { out.bytes.append(p[k]); out.origins.append(origins?[k] ?? Int32(k)) }
        out.origins.append(origins?[to] ?? Int32(to))
        return out
    }

    private static func find(_ pattern: [UInt8], in p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> Int? {
        let n = pattern.count
        guard to - from >= n else { return nil }
        let first = pattern[0]
        var i = from
        while i <= to - n {
            if p[i] == first && (1..<n).allSatisfy({ p[i + $0] == pattern[$0] }) { return i }
            i += 1
        }
        return nil
    }

    /// Bytes of the whitespace character at `i`, if it is one.
    private static func whitespaceLength(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        let cursor = UTF8Cursor(base: p, end: end, table: .shared)
        let c = cursor.character(at: i)
        return c.classes.contains(.whitespace) ? c.length : nil
    }

    /// Bytes of the whitespace character that ends at `end`, if it is one.
    private static func trailingWhitespaceLength(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var s = end - 1
        while s > start && p[s] & 0xC0 == 0x80 && end - s < 4 { s -= 1 }
        guard let n = whitespaceLength(p, s, end), s + n == end else { return nil }
        return n
    }

    /// NFC/NFD/NFKC/NFKD through the build's Unicode source, touching only
    /// what can change.
    ///
    /// Most characters are inert (see `NormalizationForm.isInert`): left as
    /// they are, and a wall that no reordering or composition crosses. Only
    /// the stretches between inert characters, with the inert character just
    /// before (a base letter may compose with the marks after it), are
    /// normalized; text whose stretches all come out the same costs no copy.
    private static func unicodeNormalize(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ origins: [Int32]?, _ form: NormalizationForm) -> NormalizedText? {
        let inertScalars = InertScalars.of(form)
        var out: NormalizedText? = nil
        var copied = from
        var scratch: [UInt32] = []
        var previousStart = from
        var i = from
        while i < to {
            // ASCII is inert in every form: eight bytes a step. Qwen3's NFC on
            // 10 MB of Debian English was 11% of a count byte by byte (`perf`).
            if i &+ 8 <= to && UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                previousStart = i &+ 7
                i &+= 8
                continue
            }
            let (isInert, length) = Self.inertCharacter(p, at: i, end: to, inertScalars)
            if isInert {
                previousStart = i
                i &+= length
                continue
            }
            let regionStart = max(previousStart, copied)
            var regionEnd = i + length
            while regionEnd < to {
                let (isInert, length) = Self.inertCharacter(p, at: regionEnd, end: to, inertScalars)
                if isInert { break }
                regionEnd += length
            }
            let original = UnsafeBufferPointer(start: p + regionStart, count: regionEnd - regionStart)
            let normalized = UnicodeData.normalize(p + regionStart, count: regionEnd - regionStart, to: form, scratch: &scratch)
            if let normalized, !normalized.elementsEqual(original) {
                if out == nil { out = NormalizedText(capacity: (to - from) * 3 / 2) }
                for k in copied..<regionStart { out!.bytes.append(p[k]); out!.origins.append(origins?[k] ?? Int32(k)) }
                out!.append(normalized, from: origins?[regionStart] ?? Int32(regionStart))
                copied = regionEnd
            }
            previousStart = regionEnd
            i = regionEnd
        }
        guard var result = out else { return nil }
        for k in copied..<to { result.bytes.append(p[k]); result.origins.append(origins?[k] ?? Int32(k)) }
        result.origins.append(origins?[to] ?? Int32(to))
        return result
    }

    /// Whether the character at `i` is inert, and its length; a byte that
    /// does not start valid UTF-8 is a character of its own, not inert.
    /// Transparent: with `@inline(__always)` the optimiser left a call per
    /// character, 12% of a qwen2 count of Debian's zh/ja pages (`perf`).
    @_transparent
    private static func inertCharacter(_ p: UnsafePointer<UInt8>, at i: Int, end: Int, _ inertScalars: InertScalars) -> (Bool, Int) {
        let (value, length) = UTF8Decoder.scalar(p, at: i, end: end)
        return length == 0 ? (false, 1) : (inertScalars.contains(value), length)
    }

    /// Rewrites single characters (`transform` returns nil to keep one).
    private static func mapCharacters(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ origins: [Int32]?, _ transform: (UInt32) -> UInt32?) -> NormalizedText? {
        let cursor = UTF8Cursor(base: p, end: to, table: .shared)
        var out: NormalizedText? = nil
        var i = from
        while i < to {
            let c = cursor.character(at: i)
            let origin = origins?[i] ?? Int32(i)
            if c.value != 0xFFFF_FFFF, let mapped = transform(c.value), let scalar = Unicode.Scalar(mapped) {
                if out == nil {
                    out = NormalizedText(capacity: to - from + 8)
                    for k in from..<i { out!.bytes.append(p[k]); out!.origins.append(origins?[k] ?? Int32(k)) }
                }
                out!.append(Array(String(Character(scalar)).utf8), from: origin)
            } else if out != nil {
                for k in i..<(i + c.length) { out!.bytes.append(p[k]); out!.origins.append(origins?[k] ?? Int32(k)) }
            }
            i += c.length
        }
        out?.origins.append(origins?[to] ?? Int32(to))
        return out
    }
}
