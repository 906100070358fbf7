/// How far apart two names are, for "did you mean" suggestions: the
/// Levenshtein distance over characters (insertions, deletions, substitutions).
package enum EditDistance {
    /// The number of single-character edits that turn `a` into `b`.
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// Up to `limit` of `candidates` nearest `name` (a candidate that starts
    /// with it first, then by distance, then in the given order), leaving out
    /// those more than `maximum` edits away.
    package static func nearest(to name: String, in candidates: [String], limit: Int, maximum: Int) -> [String] {
        var seen = Set<String>()
        let lowered = name.lowercased()
        return candidates.enumerated()
            .filter { seen.insert($0.element).inserted }
            .map {
                (name: $0.element, prefix: !lowered.isEmpty && $0.element.lowercased().hasPrefix(lowered), distance: between(lowered, $0.element.lowercased()), order: $0.offset)
            }
            .filter { $0.prefix || $0.distance <= maximum }
            .sorted { ($0.prefix ? 0 : 1, $0.distance, $0.order) < ($1.prefix ? 0 : 1, $1.distance, $1.order) }
            .prefix(limit)
            .map(\.name)
    }
}
