/// Cuts a text into chunks that each fit one request, at the most meaningful
/// places that keep the number of chunks at (or within a set allowance of)
/// the minimum.
///
/// ## How the cuts are chosen
///
/// 1. The text is tokenized once (`TokenIndex`); every later question about
///    token counts is a binary search.
/// 2. Walking back from the end, the planner finds how many chunks the text
///    needs at least and, for each cut, the earliest place it may fall so
///    that the chunks after it can still hold the rest.
/// 3. It settles the number of chunks, K: the fewest that never cut inside a
///    word where a word boundary is in reach (counted greedily, which is
///    optimal for a fixed set of allowed cuts), or — if cutting only at a
///    higher level (sections, paragraphs, lines, sentences; the highest that
///    qualifies) costs at most `levelAllowance` more chunks — that level's
///    count. More chunks than the minimum give every cut more room to move.
/// 4. Walking forward, each chunk may end anywhere between that earliest
///    place (for K chunks) and as far as the budget reaches. Inside that
///    window the planner takes the highest-level boundary (`BoundaryLevel`: section, paragraph, line,
///    sentence, word, grapheme), and among boundaries of that level the one
///    nearest an even share of the remaining tokens. The window's low end is
///    also raised to half that share, so no chunk is far smaller than the
///    others unless the text forces it.
/// 5. The chosen chunk is counted exactly as it will be sent
///    (`TokenIndex.exactTokens`); if the count is over the room — BPE counts
///    are not additive, so a cut that is not a safe piece boundary can cost a
///    token more than the index said — the end moves back and is counted again.
///
/// So every chunk's count is exact (for an estimated profile: the estimate
/// made from the chunk's exact proxy count) and within the room; without
/// overlap the chunks tile the text byte for byte; and no cut falls inside a
/// grapheme cluster or a UTF-8 sequence. With an overlap, each chunk after the
/// first starts with up to `overlap` tokens from the end of the one before,
/// itself starting at the highest-level boundary that keeps it within that
/// many tokens.
public struct ChunkPlanner: Sendable {
    /// The tokenizer that counts: the model's own, or the proxy `estimate` scales.
    public let tokenizer: Tokenizer
    /// How the profile's counts are estimated from `tokenizer`'s; nil when exact.
    public let estimate: TokenEstimate?
    /// Whether `#` lines and underlined lines count as Markdown headings.
    public var markdownHeadings: Bool
    /// How many more chunks, as a share of the fewest that never cut inside
    /// a word, the planner accepts to cut at a higher level: 0.02 lets 100
    /// chunks become 102 if that moves the cuts from words to sentences.
    public var levelAllowance: Double

    /// A planner that counts with `tokenizer`, scaled by `estimate` when given.
    public init(tokenizer: Tokenizer, estimate: TokenEstimate? = nil, markdownHeadings: Bool = true, levelAllowance: Double = 0.02) {
        self.tokenizer = tokenizer
        self.estimate = estimate
        self.markdownHeadings = markdownHeadings
        self.levelAllowance = levelAllowance
    }

    /// A planner that counts the way `profile` does.
    ///
    /// - Throws: what loading the profile's tokenizer throws
    ///   (`TokenKitError`, `ModelFileError`).
    public init(profile: ModelProfile, markdownHeadings: Bool = true) throws {
        self.init(tokenizer: try profile.tokenizer.load(), estimate: profile.estimate, markdownHeadings: markdownHeadings)
    }

    /// The profile's tokens for `text` sent on its own (instructions, a
    /// prompt): the tokenizer's count, or the estimate made from it.
    public func tokens(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { buffer in
            let proxy = tokenizer.count(utf8: buffer)
            guard let estimate else { return proxy }
            return estimate.tokens(proxyTokens: proxy, cjkCharacters: TextStats(scanning: buffer).cjkCharacters)
        }
    }

    /// Plans `text` for `budget`. An empty text gives an empty plan.
    ///
    /// - Throws: `PlanError.noRoom` or `.overlapTooLarge` when the budget
    ///   leaves no room (`TokenBudget.validate()`), `.graphemeTooLarge` when
    ///   one grapheme cluster costs more than a chunk holds.
    public func plan(_ text: String, budget: TokenBudget) throws(PlanError) -> ChunkPlan {
        var text = text
        return try text.withUTF8 { buffer in Result { () throws(PlanError) in try plan(utf8: buffer, budget: budget) } }.get()
    }

    /// Plans UTF-8 bytes for `budget` (invalid UTF-8 is planned byte by byte,
    /// as the tokenizer reads it). Throws as `plan(_:budget:)` does.
    public func plan(utf8 text: UnsafeBufferPointer<UInt8>, budget: TokenBudget) throws(PlanError) -> ChunkPlan {
        try budget.validate()
        guard !text.isEmpty else {
            return ChunkPlan(budget: budget, chunks: [], textBytes: 0, textCharacters: 0, textTokens: 0, textProxyTokens: 0)
        }
        let index = TokenIndex(tokenizer: tokenizer, utf8: text, estimate: estimate)
        let finder = BoundaryFinder(utf8: text, markdown: markdownHeadings)
        var chunks = try cut(text, index: index, finder: finder, room: budget.room, overlap: budget.overlap)
        var charactersBefore = 0
        for k in chunks.indices {
            let added = TextStats(scanning: UnsafeBufferPointer(rebasing: text[chunks[k].newBytes])).characters
            let repeated =
                chunks[k].bytes.lowerBound < chunks[k].newTextStart
                ? TextStats(scanning: UnsafeBufferPointer(rebasing: text[chunks[k].bytes.lowerBound..<chunks[k].newTextStart])).characters : 0
            chunks[k].characters = (charactersBefore - repeated)..<(charactersBefore + added)
            charactersBefore += added
        }
        return ChunkPlan(
            budget: budget, chunks: chunks, textBytes: text.count, textCharacters: charactersBefore,
            textTokens: index.count, textProxyTokens: index.proxyCount)
    }

    private func cut(_ text: UnsafeBufferPointer<UInt8>, index: TokenIndex, finder: BoundaryFinder, room: Int, overlap: Int) throws(PlanError) -> [Chunk] {
        let n = text.count
        let t = text.baseAddress!
        func snapDown(_ p: Int) -> Int { var p = min(p, n); while p > 0 && p < n && t[p] & 0xC0 == 0x80 { p -= 1 }; return p }
        func chunk(_ start: Int, _ newStart: Int, _ end: Int, _ count: (tokens: Int, proxy: Int), _ level: BoundaryLevel?, _ chunks: [Chunk]) -> Chunk {
            let overlapTokens = start < newStart ? index.exactTokens(in: start..<newStart, text: text).tokens : 0
            return Chunk(
                index: chunks.count, bytes: start..<end, characters: 0..<0, newTextStart: newStart,
                tokens: count.tokens, proxyTokens: count.proxy, overlapTokens: overlapTokens, endLevel: level)
        }

        if index.count <= room {
            return [chunk(0, 0, n, (index.count, index.proxyCount), nil, [])]
        }

        let minimum = lowerBounds(cutsAtLeast: .grapheme, text: text, index: index, finder: finder, room: room, overlap: overlap).count
        let (level, planned) = chunkCount(minimum: minimum, text: text, index: index, finder: finder, room: room, overlap: overlap)
        // lower[m]: the earliest cut (at `level` or above where there is one)
        // after which m chunks can still hold the rest.
        let lower = lowerBounds(cutsAtLeast: level, text: text, index: index, finder: finder, room: room, overlap: overlap)

        var chunks: [Chunk] = []
        var chunksLeft = planned
        var start = 0, newStart = 0
        while true {
            if index.tokens(in: start..<n) <= room {
                let count = index.exactTokens(in: start..<n, text: text)
                if count.tokens <= room {
                    chunks.append(chunk(start, newStart, n, count, nil, chunks))
                    return chunks
                }
            }
            chunksLeft = max(chunksLeft, 2)
            let hi = min(snapDown(index.reach(from: start, maxTokens: room)), n - 1)
            let remaining = index.tokens(in: newStart..<n)
            let share = max(1, remaining / chunksLeft)
            let target = index.offset(afterTokens: share, from: newStart)
            let feasible = chunksLeft - 1 < lower.count ? lower[chunksLeft - 1] : newStart + 1
            var lo = max(feasible, index.offset(afterTokens: share / 2, from: newStart), newStart + 1)
            if lo > hi { lo = max(feasible, newStart + 1) }
            if lo > hi { lo = newStart + 1 }
            var window = lo...max(lo, hi)
            // Balance must not push the cut below the plan's level when the
            // wider window has a cut at that level.
            if lo > feasible, let balanced = finder.best(in: window, near: target, knownBoundary: newStart), balanced.level < level {
                window = max(feasible, newStart + 1)...window.upperBound
            }
            var chosen: (Boundary, (tokens: Int, proxy: Int))? = nil
            while hi > newStart, chosen == nil {
                guard let boundary = finder.best(in: window, near: min(max(target, window.lowerBound), window.upperBound), knownBoundary: newStart) else {
                    if window.lowerBound > newStart + 1 { window = (newStart + 1)...window.upperBound; continue }
                    break
                }
                let count = index.exactTokens(in: start..<boundary.offset, text: text)
                if count.tokens <= room { chosen = (boundary, count); break }
                // Sent alone it costs more than the index said: move the end
                // back by at least the excess, and count again.
                let excess = count.tokens - room
                let shorter = snapDown(index.reach(from: start, maxTokens: index.tokens(in: start..<boundary.offset) - excess))
                let upper = shorter > newStart ? min(boundary.offset - 1, shorter) : boundary.offset - 1
                guard upper > newStart else { break }
                window = min(window.lowerBound, upper)...upper
            }
            if chosen == nil {
                if start < newStart {  // the overlap leaves no room here: send this chunk without it
                    start = newStart
                    continue
                }
                // Not even one grapheme cluster fits by the index; count it exactly.
                let end = GraphemeBreaks.next(after: newStart, in: t, count: n)
                let count = index.exactTokens(in: newStart..<end, text: text)
                guard count.tokens <= room else {
                    throw .graphemeTooLarge(byteOffset: newStart, bytes: end - newStart, tokens: count.tokens, room: room)
                }
                chosen = (Boundary(offset: end, level: .grapheme), count)
            }
            let (boundary, count) = chosen!
            if boundary.offset >= n {
                chunks.append(chunk(start, newStart, n, count, nil, chunks))
                return chunks
            }
            chunks.append(chunk(start, newStart, boundary.offset, count, boundary.level, chunks))
            chunksLeft -= 1
            let previousStart = newStart
            newStart = boundary.offset
            start = overlap > 0 ? overlapStart(before: newStart, notBefore: previousStart, overlap: overlap, text: text, index: index, finder: finder) : newStart
        }
    }

    /// The level the cuts aim for and K: the fewest chunks that cut at words
    /// or above where they can, or the count of the highest level within
    /// `levelAllowance` of that.
    private func chunkCount(
        minimum: Int, text: UnsafeBufferPointer<UInt8>, index: TokenIndex, finder: BoundaryFinder,
        room: Int, overlap: Int
    ) -> (BoundaryLevel, Int) {
        guard minimum > 1 else { return (.grapheme, minimum) }
        let base = max(minimum, greedyCount(atLeast: .word, limit: Int.max, text: text, index: index, finder: finder, room: room, overlap: overlap) ?? minimum)
        let limit = base + Int(Double(base) * levelAllowance)
        for level in finder.structuralLevelsPresent + [.sentence] {
            if let count = greedyCount(atLeast: level, limit: limit, text: text, index: index, finder: finder, room: room, overlap: overlap) {
                return (level, max(count, minimum))
            }
        }
        return (.word, base)
    }

    /// Walking back from the end with full chunks: `[n, c1, c2, …]`, where
    /// from `c_m` on m chunks hold the rest; each cut moved forward to the
    /// first boundary of at least `level` before the next cut (else the first
    /// word boundary), mirroring `greedyCount`.
    private func lowerBounds(
        cutsAtLeast level: BoundaryLevel, text: UnsafeBufferPointer<UInt8>, index: TokenIndex,
        finder: BoundaryFinder, room: Int, overlap: Int
    ) -> [Int] {
        let n = text.count
        var lower = [n]
        while true {
            let end = lower[lower.count - 1]
            let start = index.earliestStart(to: end, maxTokens: room)
            guard start > 0, start < end else { break }
            var cut = overlap > 0 ? index.offset(afterTokens: overlap, from: start) : start
            while cut < n && text[cut] & 0xC0 == 0x80 { cut += 1 }
            if level > .grapheme, cut < end,
                let boundary = finder.first(atLeast: level, in: cut...(end - 1))
                    ?? (level > .word ? finder.first(atLeast: .word, in: cut...(end - 1)) : nil)
            {
                cut = boundary.offset
            }
            guard cut < end else { break }
            lower.append(cut)
        }
        return lower
    }

    /// Chunks needed when each ends at the last boundary of at least `level`
    /// in reach (where there is none, the last word boundary, else the last
    /// grapheme boundary), by the index's counts; nil as soon as it passes `limit`.
    private func greedyCount(
        atLeast level: BoundaryLevel, limit: Int, text: UnsafeBufferPointer<UInt8>, index: TokenIndex,
        finder: BoundaryFinder, room: Int, overlap: Int
    ) -> Int? {
        let n = text.count
        var start = 0, newStart = 0, count = 1
        while index.tokens(in: start..<n) > room {
            var hi = min(index.reach(from: start, maxTokens: room), n - 1)
            while hi > 0 && hi < n && text[hi] & 0xC0 == 0x80 { hi -= 1 }
            let window = (newStart + 1)...max(newStart + 1, hi)
            guard hi > newStart,
                let cut = finder.last(atLeast: level, in: window, knownBoundary: newStart)
                    ?? (level > .word ? finder.last(atLeast: .word, in: window, knownBoundary: newStart) : nil)
                    ?? finder.last(atLeast: .grapheme, in: window, knownBoundary: newStart)
            else { return count }
            count += 1
            if count > limit { return nil }
            newStart = cut.offset
            start = overlap > 0 ? index.earliestStart(to: newStart, maxTokens: overlap) : newStart
        }
        return count
    }

    /// Where the overlap repeated from the chunk ending at `cut` begins: the
    /// highest-level boundary whose tail up to `cut` is at most `overlap`
    /// tokens, preferring tails of at least half that, and the longest tail
    /// among boundaries of that level; `cut` when nothing fits.
    private func overlapStart(
        before cut: Int, notBefore: Int, overlap: Int, text: UnsafeBufferPointer<UInt8>,
        index: TokenIndex, finder: BoundaryFinder
    ) -> Int {
        var lo = max(index.earliestStart(to: cut, maxTokens: overlap), notBefore + 1)
        let halfway = index.earliestStart(to: cut, maxTokens: max(1, overlap / 2))
        var hi = halfway > lo ? halfway : cut - 1
        while lo < cut {
            guard let boundary = finder.best(in: lo...max(lo, hi), near: lo, knownBoundary: notBefore) else {
                if hi < cut - 1 { hi = cut - 1; continue }
                break
            }
            if index.fits(boundary.offset..<cut, maxTokens: overlap, text: text) { return boundary.offset }
            lo = boundary.offset + 1
            if lo > hi { hi = cut - 1 }
        }
        return cut
    }
}
