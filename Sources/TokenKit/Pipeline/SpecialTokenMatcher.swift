import Foundation

/// Finds special-token strings in UTF-8 text: leftmost first, the longest
/// when several start at the same byte. Scans with `memchr` when every
/// special token starts with the same byte, as OpenAI's (`<|`) do.
///
/// Tokens are grouped by length and sorted within a group, so a candidate
/// position costs a binary search per distinct length, not a comparison per
/// token: o200k_harmony has 1,091 special tokens of 13 lengths.
struct SpecialTokenMatcher {
    /// Per distinct length, longest first: the tokens of that length, sorted by bytes.
    private let groups: [(length: Int, tokens: [(bytes: [UInt8], name: String)])]
    private let firstBytes: [Bool]
    /// When every special token starts with the same byte (`<` for OpenAI's), `memchr` finds candidates.
    private let onlyFirstByte: UInt8?

    init(_ specials: [String: Int]) {
        let tokens = specials.keys.map { (bytes: Array($0.utf8), name: $0) }.filter { !$0.bytes.isEmpty }
        groups = Dictionary(grouping: tokens, by: \.bytes.count)
            .map { (length: $0.key, tokens: $0.value.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }) }
            .sorted { $0.length > $1.length }
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
                for group in groups where group.length <= text.count - i {
                    if let name = Self.find(base + i, in: group.tokens, length: group.length) { return (name, i..<(i + group.length)) }
                }
            }
            i += 1
        }
        return nil
    }

    /// The token of `tokens` (all `length` bytes, sorted) equal to the bytes at `p`, by binary search.
    private static func find(_ p: UnsafePointer<UInt8>, in tokens: [(bytes: [UInt8], name: String)], length: Int) -> String? {
        var low = 0, high = tokens.count
        while low < high {
            let mid = (low + high) >> 1
            let order = tokens[mid].bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, p, length) }
            if order == 0 { return tokens[mid].name }
            if order < 0 { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    func occurrences(in text: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0, from = 0
        while let (_, range) = next(in: text, from: from) { n += 1; from = range.upperBound }
        return n
    }
}
