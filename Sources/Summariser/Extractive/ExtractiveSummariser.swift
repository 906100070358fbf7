import Foundation
import ContextKit

/// A summary made of the text's own sentences: TextRank over TF-IDF cosine
/// similarity picks the most central sentences, maximal marginal relevance
/// keeps near-duplicates out, and the headline is the text's title.
///
/// Offline and deterministic: the same text always gives the same summary
/// (no randomness, no dependence on dictionary order).
///
/// 1. `MarkdownSegmenter` reads the text's prose: headings and paragraphs,
///    each paragraph reflowed across its hard-wrapped lines; code blocks,
///    tables, HTML, link reference lines, front matter and list markers never
///    reach the sentences. `SentenceSplitter` cuts each paragraph into
///    sentences with the chunk planner's rule.
/// 2. Points are chosen among readable sentences: 5 to 80 words, at least
///    four of them outside code spans, ending with a sentence's punctuation
///    (so neither a lead-in to a code block, `For example:`, nor a fragment),
///    mostly letters, no HTML tag. When a text has none, it has no points.
/// 3. Each sentence becomes a TF-IDF vector over its words (`CopyDetector`'s
///    word rule, English stop words removed, English plurals folded), IDF
///    taken over the sentences; TextRank is PageRank (damping 0.85) on the
///    graph whose edge weights are their cosine similarities. The rank is
///    then weighed: by `1 + topicWeight × similarity to the text's headings`
///    (the topics its author named); by `longSentenceWords / words` past
///    that length; by `listWeight` for a list item's sentence and
///    `quoteWeight` for a block quote's (an option list's entries are
///    reference, not the text's argument). Position plays no part. The
///    weights were chosen on `bench/extractive.py`'s documents
///    (`reports/extractive.md`).
/// 4. Points: the best-weighted sentence, then repeatedly the sentence with
///    the best `0.7 × weight − 0.3 × similarity to those chosen`, skipping any
///    more than 50% similar to one already chosen; shown in the text's order,
///    each exactly as it reads in the reflowed source.
/// 5. Headline: the text's title, plain (no link, code or emphasis marks):
///    its first heading when no prose comes before it, else its front
///    matter's `title`, else a title line (a first paragraph of one short
///    line, 1–12 words, not ending like a sentence); failing all three, a
///    phrase of at most eight words from the top sentence (its first clause).
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
    /// The share of its rank a sentence from a list item keeps.
    public static let listWeight = 0.6
    /// The share of its rank a sentence from a block quote keeps.
    public static let quoteWeight = 0.8
    /// How much a sentence's similarity to the text's headings (its stated
    /// topics, as in Edmundson's heading method) adds to its rank: `rank ×
    /// (1 + topicWeight × cosine)`.
    public static let topicWeight = 0.5
    /// Words past which a sentence's rank shrinks in proportion (`rank ×
    /// longSentenceWords / words`): a long sentence shares terms with many
    /// others and would win on length alone, and reads worse as a point.
    public static let longSentenceWords = 40
    /// Most words a headline made from a sentence has.
    public static let headlineWords = 8

    /// A summariser that picks `pointCount` points (three by default).
    public init(pointCount: Int = Summary.pointCount) {
        self.pointCount = pointCount
    }

    /// The summary of `text`: the same text always gives the same summary.
    /// A text without prose (only code or tables) has no points, and its
    /// first heading or, failing that, its first line (plain, cut to eight
    /// words) as its headline; an empty text, an empty summary.
    public func summarise(_ text: String) -> Summary {
        let document = Self.document(text)
        let segments = document.segments
        let pool = segments.indices.filter { segments[$0].isReadable }
        let title = Self.title(of: document)
        guard !pool.isEmpty else {
            if let title { return Summary(headline: title, points: []) }
            let lines = text.split(whereSeparator: \.isNewline)
            let line = lines.lazy.map { InlineMarkdown.plain($0.filter { !"#|>".contains($0) }) }.first { !$0.isEmpty }
            // Only marks (`***`, a bare fence): the first of them, as written.
            let marks = lines.lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
            return Summary(headline: line.map(Self.clip) ?? marks.map { String($0.prefix(80)) } ?? "", points: [])
        }
        let headingWords = segments.filter { $0.kind.headingDepth != nil }.flatMap(\.words)
        var vectors = Self.vectors(for: pool.map { segments[$0].words } + [headingWords])
        let topics = vectors.removeLast()
        let ranks = Self.textRank(vectors)
        let weighted = pool.indices.map { k in
            let words = Double(segments[pool[k]].words.count)
            return ranks[k] * segments[pool[k]].weight * (1 + Self.topicWeight * Self.cosine(vectors[k], topics)) * min(1, Double(Self.longSentenceWords) / words)
        }
        let chosen = select(ranks: weighted, vectors: vectors).sorted()
        let points = chosen.map { segments[pool[$0]].text }
        let top = weighted.indices.max { weighted[$0] < weighted[$1] || (weighted[$0] == weighted[$1] && $0 > $1) }!
        return Summary(headline: title ?? Self.clip(InlineMarkdown.plain(segments[pool[top]].text)), points: points)
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

    /// A heading or a sentence of the text.
    struct Segment {
        /// As it reads in the reflowed source (a heading without its marks).
        var text: String
        var words: [String]
        var kind: TextBlock.Kind
        /// May be a point: see the type's step 2.
        var isReadable: Bool
        /// The share of its rank the segment keeps (step 3).
        var weight: Double {
            switch kind {
            case .listItem: return ExtractiveSummariser.listWeight
            case .quote: return ExtractiveSummariser.quoteWeight
            default: return 1
            }
        }
    }

    /// A text's segments and what may be its title.
    struct Document {
        var segments: [Segment]
        var blocks: [TextBlock]
        var frontMatterTitle: String?
    }

    /// The text's headings and sentences, in order, outside code, tables,
    /// HTML and front matter, without heading, list and quote marks.
    static func segments(of text: String) -> [Segment] { document(text).segments }

    static func document(_ text: String) -> Document {
        let segmenter = MarkdownSegmenter(text)
        var segments: [Segment] = []
        for block in segmenter.blocks {
            if block.headingDepth != nil {
                segments.append(Segment(text: block.text, words: CopyDetector.words(in: block.text), kind: block.kind, isReadable: false))
                continue
            }
            for sentence in SentenceSplitter.sentences(in: block.text) {
                let words = CopyDetector.words(in: sentence)
                segments.append(Segment(text: sentence, words: words, kind: block.kind, isReadable: isReadable(sentence, words: words)))
            }
        }
        return Document(segments: segments, blocks: segmenter.blocks, frontMatterTitle: segmenter.frontMatterTitle)
    }

    /// Step 2's test.
    static func isReadable(_ sentence: String, words: [String]) -> Bool {
        guard (5...80).contains(words.count), endsLikeASentence(sentence), !InlineMarkdown.containsTag(sentence) else { return false }
        let prose = InlineMarkdown.withoutCodeSpans(sentence)
        guard CopyDetector.words(in: prose).count >= 4 else { return false }
        let letters = prose.unicodeScalars.filter { $0.properties.isAlphabetic }.count
        let visible = prose.unicodeScalars.filter { !$0.properties.isWhitespace }.count
        return letters * 10 >= visible * 7
    }

    /// Ends with `.`, `!`, `?`, `…` or a full-width terminator, before any
    /// closing quotes, brackets or emphasis marks.
    static func endsLikeASentence(_ sentence: String) -> Bool {
        let closers: Set<Character> = ["\"", "'", "\u{201D}", "\u{2019}", ")", "]", "*", "_", "\u{300D}", "\u{300F}", "\u{FF09}"]
        guard let last = sentence.reversed().first(where: { !closers.contains($0) }) else { return false }
        return ".!?\u{2026}\u{3002}\u{FF01}\u{FF1F}".contains(last)
    }

    /// Step 5's title, plain, when the text has one.
    static func title(of document: Document) -> String? {
        let blocks = document.blocks
        if let first = blocks.first, first.headingDepth != nil {
            let plain = InlineMarkdown.plain(first.text)
            if !plain.isEmpty { return fitted(plain) }
        }
        if let title = document.frontMatterTitle.map(InlineMarkdown.plain), !title.isEmpty { return fitted(title) }
        if let first = blocks.first, first.kind == .paragraph, first.isOneLine, blocks.count > 1,
           !",.:;!?\u{3002}\u{FF01}\u{FF1F}".contains(first.text.last ?? "."),
           (1...12).contains(CopyDetector.words(in: first.text).count) || first.text.count <= 30 && first.text.unicodeScalars.contains(where: CopyDetector.isCJK) {
            let plain = InlineMarkdown.plain(first.text)
            if !plain.isEmpty, plain.count <= 80 { return plain }
        }
        return nil
    }

    /// A title cut at a word to the schema's 80 characters.
    static func fitted(_ title: String) -> String {
        guard title.count > 80 else { return title }
        var words = title.split(separator: " ")
        while words.count > 1, words.joined(separator: " ").count > 79 { words.removeLast() }
        return String(words.joined(separator: " ").prefix(79)) + "…"
    }

    /// A sentence's first clause as a phrase of at most eight words, without
    /// a dangling stop word at its end.
    static func clip(_ sentence: String) -> String {
        let clause = sentence.split(whereSeparator: { ",;:—(".contains($0) }).first.map(String.init) ?? sentence
        var words = clause.split(separator: " ").map(String.init)
        let cut = words.count > headlineWords
        words = Array(words.prefix(headlineWords))
        while words.count > 1, stopWords.contains(words.last!.lowercased()) { words.removeLast() }
        let phrase = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ".!? "))
        guard !phrase.isEmpty else { return String(sentence.prefix(80)) }
        return cut ? phrase + "…" : phrase
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
