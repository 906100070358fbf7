/// SentencePiece's compiled normalization rules (`NormalizerSpec.precompiled_charsmap`,
/// also Hugging Face's `Precompiled` normalizer): a darts-clone double-array
/// trie of the source strings, whose values are offsets into a blob of
/// NUL-terminated replacement strings.
///
/// The blob is `<trie size: UInt32 LE><trie units><replacements>`. Each trie
/// unit is 32 bits: bit 8 "has a leaf", the low byte (with bit 31) the label,
/// bits 10… the offset to the children (shifted left 8 when bit 9 is set), and
/// a leaf's low 31 bits its value. Every read is bounds-checked, so a hostile
/// charsmap can give a wrong rule but never a read outside the blob.
struct PrecompiledCharsmap: Sendable {
    private let units: [UInt32]
    private let replacements: [UInt8]

    /// Why a blob is not a charsmap.
    struct Failure: Error {
        let offset: Int
        let reason: String
    }

    /// Decodes the blob, checking what sentencepiece checks when it loads one.
    init(_ blob: UnsafeRawBufferPointer) throws(Failure) {
        guard blob.count > 4 else { throw Failure(offset: 0, reason: "the charsmap has \(blob.count) bytes, less than its own header") }
        let trieSize = Int(UInt32(blob[0]) | UInt32(blob[1]) << 8 | UInt32(blob[2]) << 16 | UInt32(blob[3]) << 24)
        guard trieSize < blob.count - 4 else {
            throw Failure(offset: 0, reason: "the charsmap's trie declares \(trieSize) bytes but only \(blob.count - 4) follow")
        }
        guard trieSize >= 1024, trieSize & 0x3FF == 0 else {
            throw Failure(offset: 0, reason: "the charsmap's trie size \(trieSize) is not a positive multiple of 1024")
        }
        units = (0..<(trieSize / 4)).map { k in
            let o = 4 + 4 * k
            return UInt32(blob[o]) | UInt32(blob[o + 1]) << 8 | UInt32(blob[o + 2]) << 16 | UInt32(blob[o + 3]) << 24
        }
        replacements = Array(blob[(4 + trieSize)...])
        guard replacements.last == 0 else {
            throw Failure(offset: 4 + trieSize, reason: "the charsmap's replacement strings do not end with a NUL byte")
        }
    }

    /// The rules matching a prefix of `p[from..<to]`, shortest first, at most
    /// `limit` of them: each match's length and replacement offset, given to
    /// `body`. Returns how many bytes the walk read before it stopped.
    @inline(__always) @discardableResult
    private func forEachPrefix(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, limit: Int, _ body: (_ length: Int, _ value: Int) -> Void) -> Int {
        let count = units.count
        var node = Int(Self.offset(units[0]))
        var found = 0
        var i = from
        while i < to {
            let c = Int(p[i])
            node ^= c
            guard node < count else { return i - from }
            let unit = units[node]
            guard unit & (1 << 31 | 0xFF) == UInt32(c) else { return i - from }
            node ^= Int(Self.offset(unit))
            i += 1
            if (unit >> 8) & 1 == 1 {
                guard node < count else { return i - from }
                if found < limit { body(i - from, Int(units[node] & 0x7FFF_FFFF)) }
                found += 1
            }
        }
        return to - from
    }

    /// Whether a rule may start with `p[0..<count]`: false when the trie walk
    /// stops inside those bytes without a match, so that `longestRule` and
    /// `firstRule` find nothing in any text that starts with them.
    func mayHaveRule(startingWith p: UnsafePointer<UInt8>, count: Int) -> Bool {
        var matched = false
        let walked = forEachPrefix(p, 0, count, limit: 1) { _, _ in matched = true }
        return matched || walked == count
    }

    @inline(__always)
    private static func offset(_ unit: UInt32) -> UInt32 {
        (unit >> 10) << ((unit & (1 << 9)) >> 6)
    }

    /// The replacement string at `value`, up to its NUL.
    private func replacement(at value: Int) -> ArraySlice<UInt8> {
        var e = value
        while replacements[e] != 0 { e += 1 }
        return replacements[value..<e]
    }

    /// SentencePiece's rule (`Normalizer::NormalizePrefix`): the longest of
    /// the first 32 rules matching a prefix of `p[from..<to]`, as its length
    /// and replacement; nil when none applies.
    func longestRule(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> (length: Int, replacement: ArraySlice<UInt8>)? {
        var best: (length: Int, value: Int)? = nil
        forEachPrefix(p, from, to, limit: 32) { length, value in
            if best == nil || length > best!.length { best = (length, value) }
        }
        guard let best, best.value < replacements.count else { return nil }
        return (best.length, replacement(at: best.value))
    }

    /// Hugging Face's rule (`spm_precompiled::transform`): the first (shortest)
    /// rule matching a prefix of the chunk replaces the whole chunk.
    func firstRule(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int) -> ArraySlice<UInt8>? {
        var first: Int? = nil
        forEachPrefix(p, from, to, limit: 1) { _, value in first = value }
        guard let first, first < replacements.count else { return nil }
        return replacement(at: first)
    }
}
