import Foundation

/// Finds special-token strings in UTF-8 text: leftmost first, the longest
/// when several start at the same byte. Scans with `memchr` when every
/// special token starts with the same byte, as OpenAI's (`<|`) do.
struct SpecialTokenMatcher {
    private let tokens: [(name: String, bytes: [UInt8])]
    private let firstBytes: [Bool]
    /// When every special token starts with the same byte (`<` for OpenAI's), `memchr` finds candidates.
    private let onlyFirstByte: UInt8?

    init(_ specials: [String: Int]) {
        tokens = specials.keys.sorted().map { ($0, Array($0.utf8)) }.filter { !$0.1.isEmpty }
        var first = [Bool](repeating: false, count: 256)
        for t in tokens { first[Int(t.bytes[0])] = true }
        firstBytes = first
        let distinct = Set(tokens.map { $0.bytes[0] })
        onlyFirstByte = distinct.count == 1 ? distinct.first : nil
    }

    func next(in text: UnsafeBufferPointer<UInt8>, from: Int) -> (String, Range<Int>)? {
        guard let base = text.baseAddress else { return nil }
        var i = from
        while i < text.count {
            if let only = onlyFirstByte {
                guard let hit = memchr(base + i, Int32(only), text.count - i) else { return nil }
                i = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
            }
            if firstBytes[Int(text[i])] {
                var best: (String, Int)? = nil
                for t in tokens where t.bytes.count <= text.count - i && t.bytes.count > (best?.1 ?? 0) {
                    if memcmp(text.baseAddress! + i, t.bytes, t.bytes.count) == 0 { best = (t.name, t.bytes.count) }
                }
                if let (name, length) = best { return (name, i..<(i + length)) }
            }
            i += 1
        }
        return nil
    }

    func occurrences(in text: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0, from = 0
        while let (_, range) = next(in: text, from: from) { n += 1; from = range.upperBound }
        return n
    }
}
