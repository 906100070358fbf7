/// Hugging Face's `BertNormalizer`, in its order: `clean_text` drops controls,
/// NUL and U+FFFD and turns whitespace into a space; `handle_chinese_chars`
/// puts a space on each side of a CJK ideograph; `strip_accents` (by default
/// what `lowercase` is) decomposes (NFD) and drops non-spacing marks;
/// `lowercase` lowercases with full mappings (`İ` → `i̇`). One pass over the
/// text does all four.
///
/// A byte that is no valid UTF-8 counts as U+FFFD (what a Python caller's
/// text would hold): `clean_text` drops it, otherwise it stays as it is.
struct BertNormalizer: Sendable, Equatable {
    var cleanText = true
    var handleChineseChars = true
    var stripAccents = true
    var lowercase = true

    /// The normalizer of a `tokenizer.json` `BertNormalizer` object; a null
    /// `strip_accents` follows `lowercase`, as in `tokenizers`.
    init(cleanText: Bool, handleChineseChars: Bool, stripAccents: Bool?, lowercase: Bool) {
        self.cleanText = cleanText
        self.handleChineseChars = handleChineseChars
        self.stripAccents = stripAccents ?? lowercase
        self.lowercase = lowercase
    }

    /// Normalizes `p[from..<to]`; `origins` maps its bytes to the input (nil:
    /// they are the input). Nil when nothing changes.
    func apply(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, origins: [Int32]?) -> NormalizedText? {
        @inline(__always) func origin(_ k: Int) -> Int32 { origins?[k] ?? Int32(k) }
        // Plain lowercase ASCII letters, digits, spaces and punctuation are
        // left as they are by every option: a text of only those costs no copy.
        var i = from
        while i < to {
            let b = p[i]
            if b >= 0x80 || (b < 0x20 && b != 0x20) || b == 0x7F || (lowercase && b >= 0x41 && b <= 0x5A) { break }
            i += 1
        }
        guard i < to else { return nil }

        var out = NormalizedText(capacity: (to - from) + (to - from) / 4 + 8)
        for k in from..<i { out.bytes.append(p[k]); out.origins.append(origin(k)) }
        var stage = AccentStage(normalizer: self)
        let cursor = UTF8Cursor(base: p, end: to, table: .shared)
        while i < to {
            let c = cursor.character(at: i)
            let o = origin(i)
            defer { i += c.length }
            if c.value == 0xFFFF_FFFF {
                if !cleanText {
                    stage.flush(into: &out)
                    out.bytes.append(p[i]); out.origins.append(o)
                }
                continue
            }
            var value = c.value
            if cleanText {
                if BertCharacters.removed.contains(value) { continue }
                if value == 0x09 || value == 0x0A || value == 0x0D || UnicodeData.isWhiteSpace(value) { value = 0x20 }
            }
            if handleChineseChars && BertCharacters.isChinese(value) {
                stage.add(0x20, origin: o, into: &out)
                stage.add(value, origin: o, into: &out)
                stage.add(0x20, origin: o, into: &out)
            } else {
                stage.add(value, origin: o, into: &out)
            }
        }
        stage.flush(into: &out)
        out.origins.append(origin(to))
        return out
    }

    /// `strip_accents` and `lowercase` over the characters `clean_text` and
    /// `handle_chinese_chars` let through. NFD only reorders marks between
    /// characters it leaves alone, so a run of other characters is decomposed
    /// as a whole when the next such character (or the end) comes.
    private struct AccentStage {
        let normalizer: BertNormalizer
        private let inertUnderNFD = InertScalars.of(.nfd)
        private var run: [UInt8] = []
        private var runOrigin: Int32 = 0
        private var scratch: [UInt32] = []

        init(normalizer: BertNormalizer) { self.normalizer = normalizer }

        @inline(__always)
        mutating func add(_ c: UInt32, origin: Int32, into out: inout NormalizedText) {
            guard normalizer.stripAccents else { return emit(c, origin, &out) }
            if c < 0x80 || BertCharacters.keptWhole.contains(c) || inertUnderNFD.contains(c) {
                flush(into: &out)
                if c >= 0x80 && BertCharacters.nonspacingMarks.contains(c) { return }
                return emit(c, origin, &out)
            }
            if run.isEmpty { runOrigin = origin }
            UnicodeNormalizer.appendUTF8(c, to: &run)
        }

        mutating func flush(into out: inout NormalizedText) {
            guard !run.isEmpty else { return }
            let decomposed = run.withUnsafeBufferPointer { UnicodeData.normalize($0.baseAddress!, count: $0.count, to: .nfd, scratch: &scratch) } ?? run
            run.removeAll(keepingCapacity: true)
            for scalar in String(decoding: decomposed, as: UTF8.self).unicodeScalars where !BertCharacters.nonspacingMarks.contains(scalar.value) {
                emit(scalar.value, runOrigin, &out)
            }
        }

        @inline(__always)
        private func emit(_ c: UInt32, _ origin: Int32, _ out: inout NormalizedText) {
            if normalizer.lowercase {
                if c >= 0x41 && c <= 0x5A { out.bytes.append(UInt8(c + 0x20)); out.origins.append(origin); return }
                if c >= 0x80, let lower = BertCharacters.lowercase[c] {
                    for l in lower { appendScalar(l, origin, &out) }
                    return
                }
            }
            appendScalar(c, origin, &out)
        }

        @inline(__always)
        private func appendScalar(_ c: UInt32, _ origin: Int32, _ out: inout NormalizedText) {
            let before = out.bytes.count
            UnicodeNormalizer.appendUTF8(c, to: &out.bytes)
            for _ in before..<out.bytes.count { out.origins.append(origin) }
        }
    }
}
