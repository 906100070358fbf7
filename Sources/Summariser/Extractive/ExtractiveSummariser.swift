import Foundation
import ContextKit

/// A summary made of the text's own sentences: TextRank over TF-IDF cosine
/// similarity picks the most central sentences, maximal marginal relevance
/// keeps near-duplicates out, and the headline is the text's heading or short
/// line closest to what the text is about.
///
/// Offline and deterministic: the same text always gives the same summary
/// (no randomness, no dependence on dictionary order).
///
/// 1. Sentences come from ContextKit's `BoundaryFinder` (sentence, line,
///    paragraph and section boundaries), so chunking and summarising agree on
///    what a sentence is. Fenced code blocks are skipped; list markers and
///    heading marks are stripped.
/// 2. Each sentence becomes a TF-IDF vector over its words (`CopyDetector`'s
///    word rule, English stop words removed, English plurals folded), IDF
///    taken over the sentences.
/// 3. TextRank: PageRank (damping 0.85) on the graph whose edge weights are
///    the cosine similarities.
/// 4. Points: the best-ranked sentence, then repeatedly the sentence with the
///    best `0.7 × rank − 0.3 × similarity to those chosen`, skipping any more
///    than 50% similar to one already chosen; shown in the text's order.
/// 5. Headline: of the top-level headings (the fewest `#`), the one most
///    similar to the centroid of the text's sentences, so a document's title
///    wins over its chapters; without headings, the short line (2–12 words)
///    most similar to it; failing both, the top sentence's first clause, cut
///    to eight words.
public struct ExtractiveSummariser: Sendable {
    /// Sentences a summary keeps as its points (fewer when the text has fewer
    /// that are not near-duplicates).
    public var pointCount: Int
    /// TextRank's PageRank damping factor.
    public static let damping = 0.85
    /// Weight of a sentence's rank (relative to the best) in maximal marginal
    /// relevance; `1 − relevanceWeight` weighs its similarity to the points
    /// already chosen, which counts against it.
    public static let relevanceWeight = 0.7
    /// Cosine similarity above which a sentence counts as a near-duplicate of a
    /// chosen point and is skipped.
    public static let redundancyLimit = 0.5

    /// A summariser that picks `pointCount` points (three by default).
    public init(pointCount: Int = Summary.pointCount) {
        self.pointCount = pointCount
    }

    /// The summary of `text`: the same text always gives the same summary.
    /// A text with no words gives its first non-blank line as its one point
    /// and, cut to 80 characters, its headline (an empty text, an empty summary).
    public func summarise(_ text: String) -> Summary {
        let segments = Self.segments(of: text)
        let sentences = segments.indices.filter {
            !segments[$0].isHeading && (5...80).contains(segments[$0].words.count) && segments[$0].isProse
        }
        let pool = sentences.isEmpty ? segments.indices.filter { !segments[$0].words.isEmpty } : sentences
        guard !pool.isEmpty else {
            let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
            return Summary(headline: String(line.prefix(80)), points: line.isEmpty ? [] : [line])
        }
        let vectors = Self.vectors(for: segments.map(\.words))
        let poolVectors = pool.map { vectors[$0] }
        let ranks = Self.textRank(poolVectors)
        let chosen = select(ranks: ranks, vectors: poolVectors).sorted()
        let points = chosen.map { segments[pool[$0]].text }

        let centroid = Self.centroid(poolVectors)
        func mostCentral(_ candidates: [Int]) -> Int? {
            var best: (index: Int, score: Double)? = nil
            for i in candidates {
                let score = Self.cosine(vectors[i], centroid)
                if score > 0, score > (best?.score ?? 0) { best = (i, score) }
            }
            return best?.index
        }
        let topDepth = segments.compactMap(\.headingDepth).min()
        let headings = segments.indices.filter { topDepth != nil && segments[$0].headingDepth == topDepth }
        let shortLines = segments.indices.filter { (2...12).contains(segments[$0].words.count) }
        let best = mostCentral(headings) ?? mostCentral(shortLines)
        let top = ranks.indices.max { ranks[$0] < ranks[$1] || (ranks[$0] == ranks[$1] && $0 > $1) }!
        let headline = best.map { segments[$0].text } ?? Self.clip(segments[pool[top]].text)
        return Summary(headline: headline, points: points)
    }

    /// Maximal marginal relevance over the ranks.
    private func select(ranks: [Double], vectors: [SparseVector]) -> [Int] {
        let top = ranks.max() ?? 1
        var chosen: [Int] = []
        var remaining = Array(ranks.indices)
        while chosen.count < pointCount, !remaining.isEmpty {
            var best: (position: Int, score: Double)? = nil
            for (position, i) in remaining.enumerated() {
                let similarity = chosen.map { Self.cosine(vectors[i], vectors[$0]) }.max() ?? 0
                if similarity > Self.redundancyLimit { continue }
                let score = Self.relevanceWeight * ranks[i] / top - (1 - Self.relevanceWeight) * similarity
                if best == nil || score > best!.score { best = (position, score) }
            }
            guard let pick = best else { break }
            chosen.append(remaining.remove(at: pick.position))
        }
        return chosen
    }

    // MARK: Segments

    struct Segment {
        var text: String
        var words: [String]
        /// 1 for `#`, 2 for `##`, …; nil when the segment is not a heading.
        var headingDepth: Int?
        var isHeading: Bool { headingDepth != nil }
        /// Mostly letters: not a table row, a number list or a line of code.
        var isProse: Bool
    }

    /// The text's sentences and lines, outside fenced code, cleaned of markers.
    static func segments(of text: String) -> [Segment] {
        let bytes = Array(text.utf8)
        let fenced = fencedRanges(bytes)
        var cuts = [0] + BoundaryFinder.boundaries(in: text).filter { $0.level >= .sentence }.map(\.offset) + [bytes.count]
        cuts = Array(Set(cuts)).sorted()
        var segments: [Segment] = []
        var fence = 0
        for (start, end) in zip(cuts, cuts.dropFirst()) {
            while fence < fenced.count && fenced[fence].upperBound <= start { fence += 1 }
            if fence < fenced.count && fenced[fence].overlaps(start..<end) { continue }
            var raw = String(decoding: bytes[start..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let hashes = raw.prefix { $0 == "#" }.count
            let headingDepth = (1...6).contains(hashes) && raw.dropFirst(hashes).first == " " ? hashes : nil
            raw = cleaned(raw)
            guard !raw.isEmpty else { continue }
            let letters = raw.unicodeScalars.filter { $0.properties.isAlphabetic }.count
            let visible = raw.unicodeScalars.filter { !$0.properties.isWhitespace }.count
            segments.append(Segment(text: raw, words: CopyDetector.words(in: raw), headingDepth: headingDepth,
                                    isProse: visible > 0 && letters * 10 >= visible * 7 && !raw.hasPrefix("|")))
        }
        return segments
    }

    /// Byte ranges of fenced code blocks (``` or ~~~ lines), fences included.
    static func fencedRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var open: (start: Int, marker: UInt8)? = nil
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            var p = lineStart
            while p < lineEnd && p - lineStart < 3 && bytes[p] == 0x20 { p += 1 }
            if p + 3 <= lineEnd, bytes[p] == bytes[p + 1], bytes[p] == bytes[p + 2], bytes[p] == UInt8(ascii: "`") || bytes[p] == UInt8(ascii: "~") {
                if let o = open {
                    if o.marker == bytes[p] { ranges.append(o.start..<min(lineEnd + 1, bytes.count)); open = nil }
                } else {
                    open = (lineStart, bytes[p])
                }
            }
            lineStart = lineEnd + 1
        }
        if let o = open { ranges.append(o.start..<bytes.count) }
        return ranges
    }

    /// Without heading marks, list markers and block quote marks.
    static func cleaned(_ segment: String) -> String {
        var s = Substring(segment)
        while true {
            let before = s
            if let first = s.first, "#>".contains(first) { s = s.drop { "#>".contains($0) }.drop(while: \.isWhitespace) }
            if let first = s.first, "-*+•".contains(first), s.dropFirst().first?.isWhitespace == true { s = s.dropFirst().drop(while: \.isWhitespace) }
            if let match = s.prefixMatch(of: /\d{1,3}[.)]\s+/) { s = s[match.range.upperBound...] }
            if s == before { break }
        }
        return s.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The top sentence's first clause, at most eight words.
    static func clip(_ sentence: String) -> String {
        let clause = sentence.split(whereSeparator: { ",;:—".contains($0) }).first.map(String.init) ?? sentence
        let words = clause.split(separator: " ")
        guard words.count > 8 else { return clause.trimmingCharacters(in: CharacterSet(charactersIn: ".!? ")) }
        return words.prefix(8).joined(separator: " ") + "…"
    }

    // MARK: Vectors

    /// Term weights, sorted by term id.
    typealias SparseVector = [(term: Int, weight: Double)]

    /// TF-IDF vectors, IDF over the documents given; term ids in order of first appearance.
    static func vectors(for documents: [[String]]) -> [SparseVector] {
        var ids: [String: Int] = [:]
        var termLists: [[Int]] = []
        for words in documents {
            termLists.append(words.filter { !stopWords.contains($0) }.map(folded).map { word in
                if let id = ids[word] { return id }
                ids[word] = ids.count
                return ids.count - 1
            })
        }
        var documentFrequency = [Int](repeating: 0, count: ids.count)
        for terms in termLists { for t in Set(terms) { documentFrequency[t] += 1 } }
        let n = Double(documents.count)
        return termLists.map { terms in
            var counts: [Int: Int] = [:]
            for t in terms { counts[t, default: 0] += 1 }
            return counts.keys.sorted().map { t in
                (t, (1 + log(Double(counts[t]!))) * (log((1 + n) / (1 + Double(documentFrequency[t]))) + 1))
            }
        }
    }

    static func cosine(_ a: SparseVector, _ b: SparseVector) -> Double {
        var i = 0, j = 0
        var dot = 0.0, na = 0.0, nb = 0.0
        for x in a { na += x.weight * x.weight }
        for y in b { nb += y.weight * y.weight }
        guard na > 0, nb > 0 else { return 0 }
        while i < a.count && j < b.count {
            if a[i].term == b[j].term { dot += a[i].weight * b[j].weight; i += 1; j += 1 }
            else if a[i].term < b[j].term { i += 1 }
            else { j += 1 }
        }
        return dot / (na.squareRoot() * nb.squareRoot())
    }

    static func centroid(_ vectors: [SparseVector]) -> SparseVector {
        var sum: [Int: Double] = [:]
        for v in vectors {
            let norm = v.reduce(0) { $0 + $1.weight * $1.weight }.squareRoot()
            guard norm > 0 else { continue }
            for x in v { sum[x.term, default: 0] += x.weight / norm }
        }
        return sum.keys.sorted().map { ($0, sum[$0]!) }
    }

    /// PageRank over the cosine-similarity graph.
    static func textRank(_ vectors: [SparseVector]) -> [Double] {
        let n = vectors.count
        guard n > 1 else { return [Double](repeating: 1, count: n) }
        var weights = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for i in 0..<n {
            for j in (i + 1)..<n {
                let w = cosine(vectors[i], vectors[j])
                weights[i][j] = w
                weights[j][i] = w
            }
        }
        let outgoing = weights.map { $0.reduce(0, +) }
        var rank = [Double](repeating: 1, count: n)
        for _ in 0..<100 {
            var next = [Double](repeating: 1 - damping, count: n)
            for j in 0..<n where outgoing[j] > 0 {
                let share = damping * rank[j] / outgoing[j]
                for i in 0..<n where weights[j][i] > 0 { next[i] += share * weights[j][i] }
            }
            let change = zip(next, rank).reduce(0) { $0 + abs($1.0 - $1.1) }
            rank = next
            if change < 1e-9 * Double(n) { break }
        }
        return rank
    }

    /// English plurals folded onto their singular (`keepers` → `keeper`), so
    /// a sentence and a heading about the same thing share their terms.
    static func folded(_ word: String) -> String {
        guard word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss"), word.unicodeScalars.allSatisfy(\.isASCII) else { return word }
        return String(word.dropLast())
    }

    /// Common English words that say nothing about what a sentence is about.
    static let stopWords: Set<String> = [
        "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at",
        "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do",
        "does", "doing", "down", "during", "each", "even", "every", "few", "for", "from", "further", "had", "has", "have",
        "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself",
        "just", "may", "me", "might", "more", "most", "much", "must", "my", "no", "nor", "not", "now", "of", "off", "on",
        "once", "one", "only", "or", "other", "our", "ours", "out", "over", "own", "same", "she", "should", "so", "some",
        "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those",
        "through", "to", "too", "under", "until", "up", "us", "very", "was", "we", "were", "what", "when", "where",
        "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours",
    ]
}
