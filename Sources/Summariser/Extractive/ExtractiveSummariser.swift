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
/// 2. Points are chosen among readable sentences, judged as a reader sees
///    them (`InlineMarkdown.plain`: links as their text, no code or emphasis
///    marks): 5 to 80 words, at least four of them outside code spans,
///    starting with a capital or a digit and ending with a sentence's
///    punctuation (so neither a lead-in to a code block, `For example:`, nor
///    a fragment cut mid-sentence), brackets and quotes balanced, mostly
///    letters, no HTML tag, no `<` or `>`, no `{` or `}` outside code (an
///    API parameter line: a name in a code span, then `{string} The file.`), no ` - ` within
///    its first five words (a list's `term - description` or
///    `name - **Full Name**` entry) and not ending on a name's initial.
///    When a text has none, it has no points.
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
///    each plain: as it reads in the reflowed source without its markup.
/// 5. Headline: the text's title, plain (no link, code or emphasis marks):
///    its first heading when no prose comes before it, else its front
///    matter's `title`, else a title line (the text's first line, a
///    paragraph of its own, 1–12 words, not ending like a sentence; a
///    closing colon dropped: `GNU bc version 1.07:`), else a plain text's
///    title line (its first line, short, not ending like a sentence, and
///    centred or in capitals: `GNU GENERAL PUBLIC LICENSE`); failing all,
///    the text's first readable sentence (a paragraph's before a list
///    item's), without an opening connective clause (`By contrast, …`), cut
///    at a word to at most eight words.
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
    /// Raised whenever the same text gets a different summary, so the
    /// summary cache does not serve an older revision's (2: plain points,
    /// the headline rules of step 5).
    public static let revision = 2

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
            return Summary(headline: line.map(Self.shortened) ?? marks.map { String($0.prefix(80)) } ?? "", points: [])
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
        let points = chosen.map { segments[pool[$0]].plain }
        let first = pool.first { segments[$0].kind == .paragraph } ?? pool[0]
        return Summary(headline: title ?? Self.headline(fromSentence: segments[first].plain), points: points)
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
        /// `text` as a reader sees it (`InlineMarkdown.plain`).
        var plain: String
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
        /// A plain text's title line (step 5), when its first line is one.
        var titleLine: String?
        /// The 1-based line of the text's first visible character, or 0 when
        /// the text opens with front matter (what follows it is its start).
        var firstLine: Int
    }

    /// The text's headings and sentences, in order, outside code, tables,
    /// HTML and front matter, without heading, list and quote marks.
    static func segments(of text: String) -> [Segment] { document(text).segments }

    static func document(_ text: String) -> Document {
        let segmenter = MarkdownSegmenter(text)
        var segments: [Segment] = []
        for block in segmenter.blocks {
            if block.headingDepth != nil {
                segments.append(Segment(text: block.text, plain: InlineMarkdown.plain(block.text), words: CopyDetector.words(in: block.text), kind: block.kind, isReadable: false))
                continue
            }
            for sentence in SentenceSplitter.sentences(in: block.text) {
                let plain = withoutEnumerator(InlineMarkdown.plain(sentence))
                let words = CopyDetector.words(in: plain)
                segments.append(Segment(text: sentence, plain: plain, words: words, kind: block.kind, isReadable: isReadable(sentence, plain: plain, words: words)))
            }
        }
        return Document(
            segments: segments, blocks: segmenter.blocks, frontMatterTitle: segmenter.frontMatterTitle, titleLine: titleLine(of: text),
            firstLine: text.hasPrefix("---") || text.hasPrefix("+++")
                ? 0
                : 1 + text.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.allSatisfy(\.isWhitespace) }.count)
    }

    /// Step 2's test: `sentence` as written, `plain` as a reader sees it,
    /// `words` the plain sentence's words.
    static func isReadable(_ sentence: String, plain: String, words: [String]) -> Bool {
        guard (5...80).contains(words.count), endsLikeASentence(plain), !InlineMarkdown.containsTag(sentence),
            let first = plain.first, first.isNumber || first.isLetter && !first.isLowercase
        else { return false }
        let prose = InlineMarkdown.withoutCodeSpans(sentence)
        guard CopyDetector.words(in: InlineMarkdown.plain(prose)).count >= 4, !prose.contains(where: { "{}<>".contains($0) }) else { return false }
        if plain.split(separator: " ").prefix(6).dropFirst().contains(where: { $0 == "-" || $0 == "\u{2013}" }) { return false }
        if let last = plain.split(separator: " ").last, SentenceSplitter.isInitials(String(last)) || last.wholeMatch(of: /\p{L}\./) != nil { return false }
        guard isBalanced(plain) else { return false }
        let letters = plain.unicodeScalars.filter { $0.properties.isAlphabetic }.count
        let visible = plain.unicodeScalars.filter { !$0.properties.isWhitespace }.count
        return letters * 10 >= visible * 7
    }

    /// `sentence` without a leading one-letter enumerator (`G. Preserve …`,
    /// `(a) The …`, `Q. I upgraded …`) when a capital follows it: the
    /// enumerator belongs to the list, not to the sentence.
    static func withoutEnumerator(_ sentence: String) -> String {
        guard let match = sentence.prefixMatch(of: /(?:\p{L}\.|\(\p{L}\))\s+(?=\p{Lu})/) else { return sentence }
        return String(sentence[match.range.upperBound...])
    }

    /// Brackets close in order and straight double quotes pair up: a
    /// sentence cut from the middle of a parenthesis or a quotation is not.
    static func isBalanced(_ text: String) -> Bool {
        var open: [Character] = []
        let pairs: [Character: Character] = [")": "(", "]": "[", "\u{201D}": "\u{201C}"]
        for c in text {
            if "([\u{201C}".contains(c) {
                open.append(c)
            } else if let opener = pairs[c] {
                guard open.last == opener else { return false }
                open.removeLast()
            }
        }
        return open.isEmpty && text.filter({ $0 == "\"" }).count % 2 == 0
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
        if let first = blocks.first, first.kind == .paragraph, first.isOneLine, blocks.count > 1, document.firstLine == 0 || first.line == document.firstLine,
            case let text = first.text.hasSuffix(":") ? String(first.text.dropLast()) : first.text,
            !",.:;!?\u{3002}\u{FF01}\u{FF1F}".contains(text.last ?? "."),
            (1...12).contains(CopyDetector.words(in: text).count) || text.count <= 30 && text.unicodeScalars.contains(where: CopyDetector.isCJK)
        {
            let plain = InlineMarkdown.plain(text)
            if !plain.isEmpty, plain.count <= 80 { return plain }
        }
        return document.titleLine
    }

    /// A plain text's title line: its first non-blank line when that is 1–8
    /// words of at most 60 characters, mostly letters, starting with a
    /// capital or a digit, ending with a letter or a digit, and centred (four
    /// or more columns in) or all in capitals, as licences and plain-text
    /// READMEs set their titles.
    static func titleLine(of text: String) -> String? {
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        let indent = MarkdownSegmenter.indentWidth(line)
        let title = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard let first = title.first, let last = title.last, first.isUppercase || first.isNumber, last.isLetter || last.isNumber,
            title.count <= 60, (1...8).contains(title.split(separator: " ").count)
        else { return nil }
        let letters = title.filter(\.isLetter)
        guard letters.count * 10 >= title.filter({ $0 != " " }).count * 7 else { return nil }
        let capitals = letters.count >= 2 && letters.allSatisfy { !$0.isLowercase }
        return indent >= 4 || capitals ? title : nil
    }

    /// A title cut at a word to the schema's 80 characters.
    static func fitted(_ title: String) -> String {
        guard title.count > 80 else { return title }
        var words = title.split(separator: " ")
        while words.count > 1, words.joined(separator: " ").count > 79 { words.removeLast() }
        return String(words.joined(separator: " ").prefix(79)) + "…"
    }

    /// The headline made from a document's first sentence (step 5): an
    /// opening connective clause (`By contrast,`, `For example,`: at most
    /// three words before a comma, none capitalised after the first) left
    /// out and the rest capitalised, then `shortened`.
    static func headline(fromSentence sentence: String) -> String {
        var words = sentence.split(separator: " ").map(String.init)
        if let comma = words.prefix(3).firstIndex(where: { $0.hasSuffix(",") }), comma + 3 < words.count,
            words[1..<(comma + 1)].allSatisfy({ $0.first?.isUppercase != true })
        {
            words.removeFirst(comma + 1)
            if let first = words.first?.first, first.isLowercase { words[0] = first.uppercased() + words[0].dropFirst() }
        }
        return shortened(words.joined(separator: " "))
    }

    /// `text` whole when it has at most eight words and fits the schema's 80
    /// characters; else cut at a word to at most eight words (and 79
    /// characters), without a dangling stop word or punctuation at its end,
    /// and marked as cut with `…`.
    static func shortened(_ text: String) -> String {
        var words = text.split(separator: " ").map(String.init)
        guard words.count > headlineWords || text.count > 80 else { return text }
        words = Array(words.prefix(headlineWords))
        func trimmed() -> String { words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!?—–-( ")) }
        while words.count > 1, trimmed().count > 79 || stopWords.contains(words.last!.lowercased().trimmingCharacters(in: .punctuationCharacters)) {
            words.removeLast()
        }
        let phrase = trimmed()
        guard !phrase.isEmpty else { return String(text.prefix(79)) + "…" }
        return String(phrase.prefix(79)) + "…"
    }

    // MARK: Vectors

    /// Term weights, sorted by term id.
    typealias SparseVector = [(term: Int, weight: Double)]

    /// TF-IDF vectors, IDF over the documents given; term ids in order of first appearance.
    static func vectors(for documents: [[String]]) -> [SparseVector] {
        var ids: [String: Int] = [:]
        var termLists: [[Int]] = []
        for words in documents {
            termLists.append(
                words.filter { !stopWords.contains($0) }.map(folded).map { word in
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
            if a[i].term == b[j].term { dot += a[i].weight * b[j].weight; i += 1; j += 1 } else if a[i].term < b[j].term { i += 1 } else { j += 1 }
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
        "which", "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours"
    ]
}
