/// Records by token length, in buckets whose edges are fixed (0, 1, 2, 4,
/// …, 2^20 tokens), so histograms made by any number of workers add up
/// bucket by bucket to the histogram of the whole.
public struct TokenHistogram: Equatable, Sendable {
    /// Each bucket's lower edge: bucket `i` holds lengths from `edges[i]` up
    /// to but not including `edges[i + 1]`; the last has no upper edge.
    public static let edges: [Int] = [0] + (0...20).map { 1 << $0 }

    /// Records in each bucket, one count per edge.
    public private(set) var counts: [Int]

    /// An empty histogram.
    public init() {
        counts = Array(repeating: 0, count: Self.edges.count)
    }

    /// A histogram with these counts, one per edge; nil when the number of counts is not that.
    public init?(counts: [Int]) {
        guard counts.count == Self.edges.count, counts.allSatisfy({ $0 >= 0 }) else { return nil }
        self.counts = counts
    }

    /// The bucket of a record of `tokens` tokens.
    public static func bucket(of tokens: Int) -> Int {
        // 0 → 0; 1 → 1; 2–3 → 2; 4–7 → 3; …; from 2^20 on → the last.
        tokens <= 0 ? 0 : min(Int.bitWidth - tokens.leadingZeroBitCount, edges.count - 1)
    }

    /// Counts one record of `tokens` tokens.
    public mutating func add(tokens: Int) {
        counts[Self.bucket(of: tokens)] += 1
    }

    /// Adds another histogram's counts, bucket by bucket.
    ///
    /// - Returns: false, leaving the histogram unchanged, when a bucket's sum would pass `Int.max`.
    @discardableResult
    public mutating func merge(_ other: TokenHistogram) -> Bool {
        var sum = counts
        for i in sum.indices {
            let (total, overflow) = sum[i].addingReportingOverflow(other.counts[i])
            if overflow { return false }
            sum[i] = total
        }
        counts = sum
        return true
    }
}
