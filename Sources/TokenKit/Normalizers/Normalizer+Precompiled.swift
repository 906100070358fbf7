/// The two normalizers of Hugging Face files converted from SentencePiece
/// (T5, XLM-R, mBART): `Precompiled` and `Replace` of a run of spaces.
extension Normalizer {
    /// Hugging Face's `Precompiled` (`tokenizers/src/normalizers/precompiled.rs`):
    /// a grapheme cluster shorter than six bytes that a rule starts is replaced
    /// whole by the first (shortest) rule's string; otherwise each character
    /// is, by the first rule it starts, or kept.
    static func precompiledStep(_ map: PrecompiledCharsmap, _ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ origins: [Int32]?) -> NormalizedText? {
        @inline(__always) func origin(_ k: Int) -> Int32 { origins?[k] ?? Int32(k) }
        var out = NormalizedText(capacity: to - from + 8)
        var modified = false
        var start = from
        UnicodeData.forEachGraphemeBoundary(in: p, count: to, after: from, through: to) { end in
            defer { start = end }
            if end - start < 6, let rule = map.firstRule(p, start, end) {
                out.append(rule, from: origin(start))
                modified = true
                return true
            }
            var i = start
            while i < end {
                let n = max(1, UTF8Decoder.scalar(p, at: i, end: end).length)
                if let rule = map.firstRule(p, i, i + n) {
                    out.append(rule, from: origin(i))
                    modified = true
                } else {
                    for k in i..<(i + n) { out.bytes.append(p[k]); out.origins.append(origin(k)) }
                }
                i += n
            }
            return true
        }
        guard modified else { return nil }
        out.origins.append(origin(to))
        return out
    }

    /// Every run of at least `minimum` bytes `byte` becomes `content` (the
    /// regex `Replace` of `" {2,}"` with `" "`).
    static func collapsingRuns(of byte: UInt8, minimum: Int, into content: [UInt8], _ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ origins: [Int32]?) -> NormalizedText? {
        @inline(__always) func origin(_ k: Int) -> Int32 { origins?[k] ?? Int32(k) }
        var out: NormalizedText? = nil
        var copied = from
        var i = from
        while i < to {
            guard p[i] == byte else { i += 1; continue }
            var e = i
            while e < to && p[e] == byte { e += 1 }
            if e - i >= minimum {
                if out == nil { out = NormalizedText(capacity: to - from) }
                for k in copied..<i { out!.bytes.append(p[k]); out!.origins.append(origin(k)) }
                out!.append(content, from: origin(i))
                copied = e
            }
            i = e
        }
        guard var result = out else { return nil }
        for k in copied..<to { result.bytes.append(p[k]); result.origins.append(origin(k)) }
        result.origins.append(origin(to))
        return result
    }
}
