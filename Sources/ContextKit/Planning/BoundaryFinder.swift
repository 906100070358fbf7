import Foundation

/// The places a text can be cut, by level, over its UTF-8 bytes.
///
/// Levels, highest first (`BoundaryLevel`):
/// - **section**: the start of a Markdown heading line — ATX (`#` to `######`
///   after at most three spaces, then a space, a tab or the line's end) or
///   setext (a text line underlined with `===` or `---`). Lines inside fenced
///   code blocks (``` or ~~~) are never headings, so a `# comment` in a code
///   block is only a line.
/// - **paragraph**: the start of a non-blank line after a blank one (a line
///   of spaces, tabs and carriage returns only).
/// - **line**: the start of any other line.
/// - **sentence**: see `SentenceRules`.
/// - **word**: before a run of spaces or tabs that follows a non-space
///   character (the space goes with the next word, which is how the
///   tokenizers read it: ` word` is one token).
/// - **grapheme**: any grapheme cluster boundary (`GraphemeBreaks`).
///
/// Every boundary of every level is a grapheme cluster boundary, so no cut
/// splits a user-perceived character or a UTF-8 sequence: a break after a
/// line feed is unconditional (GB4), and a space is never joined to the
/// character before it except after a Prepend character (GB9b), which the
/// word and sentence rules check for.
///
/// Line-level boundaries and above are found once, in one pass over the line
/// feeds; the lower levels are scanned for only inside the window a chunk
/// may end in, so the cost stays linear in the text.
package struct BoundaryFinder {
    let text: UnsafeBufferPointer<UInt8>
    /// Offsets of the line-level-and-above boundaries, ascending, and their levels.
    let structuralOffsets: [Int]
    let structuralLevels: [BoundaryLevel]

    /// Reads the line structure of `text`, which must stay valid while the finder is used.
    init(utf8 text: UnsafeBufferPointer<UInt8>, markdown: Bool = true) {
        self.text = text
        var offsets: [Int] = []
        var levels: [BoundaryLevel] = []
        guard let t = text.baseAddress, !text.isEmpty else {
            structuralOffsets = []
            structuralLevels = []
            return
        }
        let n = text.count
        var lineStart = 0
        var previousBlank = false
        var previousIsText = false  // a paragraph line a setext underline can turn into a heading
        var previousRecorded = -1  // index in `offsets` of the previous line's boundary
        var fence: (marker: UInt8, length: Int)? = nil
        while lineStart < n {
            let lineEnd: Int
            if let hit = memchr(t + lineStart, 0x0A, n - lineStart) {
                lineEnd = t.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            } else {
                lineEnd = n
            }
            let line = LineShape(t, lineStart, lineEnd)
            var level: BoundaryLevel = previousBlank && !line.isBlank ? .paragraph : .line
            var isText = !line.isBlank
            if markdown {
                if let open = fence {
                    if let marker = line.fenceMarker, marker.marker == open.marker, marker.length >= open.length, marker.restIsBlank {
                        fence = nil
                    }
                    isText = false
                } else if let marker = line.fenceMarker {
                    fence = (marker.marker, marker.length)
                    isText = false
                } else if let depth = line.atxDepth {
                    level = .section(depth)
                    isText = false
                } else if let depth = line.setextDepth, previousIsText {
                    if previousRecorded >= 0 { levels[previousRecorded] = max(levels[previousRecorded], .section(depth)) }
                    isText = false
                }
            }
            previousRecorded = -1
            if lineStart > 0 {
                previousRecorded = offsets.count
                offsets.append(lineStart)
                levels.append(level)
            }
            previousBlank = line.isBlank
            previousIsText = isText
            lineStart = lineEnd + 1
        }
        structuralOffsets = offsets
        structuralLevels = levels
    }

    /// Every boundary of `text` with its highest level, in order (offsets
    /// 1..<count: the start and end of a text are not cuts). Scans the whole
    /// text; for inspection and tests, not for planning.
    package static func boundaries(in text: String, markdown: Bool = true) -> [Boundary] {
        var text = text
        return text.withUTF8 { buffer in
            let finder = BoundaryFinder(utf8: buffer, markdown: markdown)
            guard buffer.count > 1 else { return [] }
            var found: [Int: BoundaryLevel] = [:]
            finder.forEachBoundary(in: 1...(buffer.count - 1), knownBoundary: 0) { offset, level in
                found[offset] = max(found[offset] ?? level, level)
            }
            return found.keys.sorted().map { Boundary(offset: $0, level: found[$0]!) }
        }
    }

    /// The most meaningful boundary in `window`, and of those at that level
    /// the one nearest `target` (the later one on a tie). `knownBoundary` is a
    /// grapheme boundary at or before the window (a chunk's start), where a
    /// grapheme scan may begin. Nil when the window holds no boundary at all,
    /// i.e. it lies inside one grapheme cluster.
    func best(in window: ClosedRange<Int>, near target: Int, knownBoundary: Int) -> Boundary? {
        let lo = max(window.lowerBound, 1), hi = min(window.upperBound, text.count - 1)
        guard lo <= hi else { return nil }
        var best: Boundary? = nil
        func consider(_ offset: Int, _ level: BoundaryLevel) {
            guard let current = best else { best = Boundary(offset: offset, level: level); return }
            if level > current.level { best = Boundary(offset: offset, level: level); return }
            if level == current.level {
                let d = abs(offset - target), e = abs(current.offset - target)
                if d < e || (d == e && offset > current.offset) { best = Boundary(offset: offset, level: level) }
            }
        }
        forEachStructural(in: lo...hi, consider)
        if best != nil { return best }
        forEachSentenceOrWord(in: lo...hi, consider)
        if best != nil { return best }
        GraphemeBreaks.forEach(in: text.baseAddress!, count: text.count, from: knownBoundary, lo: lo, hi: hi) { consider($0, .grapheme) }
        return best
    }

    /// The last boundary in `window` whose level is at least `level`, or nil.
    func last(atLeast level: BoundaryLevel, in window: ClosedRange<Int>, knownBoundary: Int) -> Boundary? {
        let lo = max(window.lowerBound, 1), hi = min(window.upperBound, text.count - 1)
        guard lo <= hi else { return nil }
        var found: Boundary? = nil
        var k = structuralIndex(atOrAfter: hi + 1) - 1
        while k >= 0 && structuralOffsets[k] >= lo {
            if structuralLevels[k] >= level { found = Boundary(offset: structuralOffsets[k], level: structuralLevels[k]); break }
            k -= 1
        }
        guard level <= .sentence else { return found }
        // Only what lies after the structural boundary can beat it.
        let from = (found?.offset ?? lo - 1) + 1
        guard from <= hi else { return found }
        forEachSentenceOrWord(in: from...hi) { offset, kind in
            if kind >= level && offset >= (found?.offset ?? 0) { found = Boundary(offset: offset, level: kind) }
        }
        if level <= .grapheme {
            GraphemeBreaks.forEach(in: text.baseAddress!, count: text.count, from: knownBoundary, lo: from, hi: hi) { offset in
                if offset > (found?.offset ?? 0) { found = Boundary(offset: offset, level: .grapheme) }
            }
        }
        return found
    }

    /// The first boundary in `window` whose level is at least `level` (which
    /// must be above grapheme), or nil.
    func first(atLeast level: BoundaryLevel, in window: ClosedRange<Int>) -> Boundary? {
        let lo = max(window.lowerBound, 1), hi = min(window.upperBound, text.count - 1)
        guard lo <= hi else { return nil }
        var found: Boundary? = nil
        var k = structuralIndex(atOrAfter: lo)
        while k < structuralOffsets.count && structuralOffsets[k] <= hi {
            if structuralLevels[k] >= level { found = Boundary(offset: structuralOffsets[k], level: structuralLevels[k]); break }
            k += 1
        }
        guard level <= .sentence else { return found }
        // Scan in growing steps, so a near boundary is found without reading far.
        var from = lo, step = 256
        let end = min(hi, (found?.offset ?? hi + 1) - 1)
        while from <= end {
            let to = min(end, from + step - 1)
            var hit: Boundary? = nil
            forEachSentenceOrWord(in: from...to) { offset, kind in
                if kind >= level && hit == nil { hit = Boundary(offset: offset, level: kind) }
            }
            if let hit { return hit }
            from = to + 1
            step *= 4
        }
        return found
    }

    /// The line-level-and-above levels that occur in the text, highest first.
    var structuralLevelsPresent: [BoundaryLevel] {
        Set(structuralLevels).sorted(by: >)
    }

    /// Every boundary in `window` at every level it has (an offset may be
    /// reported at several levels).
    func forEachBoundary(in window: ClosedRange<Int>, knownBoundary: Int, _ body: (Int, BoundaryLevel) -> Void) {
        forEachStructural(in: window, body)
        forEachSentenceOrWord(in: window, body)
        GraphemeBreaks.forEach(in: text.baseAddress!, count: text.count, from: knownBoundary, lo: window.lowerBound, hi: window.upperBound) { body($0, .grapheme) }
    }

    /// The index of the first structural boundary at or after `offset`.
    private func structuralIndex(atOrAfter offset: Int) -> Int {
        var low = 0, high = structuralOffsets.count
        while low < high {
            let mid = (low + high) / 2
            if structuralOffsets[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func forEachStructural(in window: ClosedRange<Int>, _ body: (Int, BoundaryLevel) -> Void) {
        var k = structuralIndex(atOrAfter: window.lowerBound)
        while k < structuralOffsets.count && structuralOffsets[k] <= window.upperBound {
            body(structuralOffsets[k], structuralLevels[k])
            k += 1
        }
    }

    /// Word and sentence boundaries in `window` (see `SentenceRules`).
    private func forEachSentenceOrWord(in window: ClosedRange<Int>, _ body: (Int, BoundaryLevel) -> Void) {
        guard let t = text.baseAddress else { return }
        let n = text.count
        // Full-width terminators are found by their bytes, starting a little
        // early so one that ends inside the window is not missed.
        var i = max(1, window.lowerBound - 24)
        let end = min(window.upperBound, n - 1)
        while i <= end {
            let b = t[i]
            if b == 0x20 || b == 0x09 {
                let before = t[i - 1]
                if i >= window.lowerBound && !Self.isSpaceOrBreak(before) && !GraphemeBreaks.followsPrepend(i, in: t, lowest: 0) {
                    body(i, isSpacedSentenceEnd(at: i, t, n) ? .sentence : .word)
                }
            } else if b >= 0xE3 && b <= 0xEF {
                let (scalar, length) = UTF8Decoder.scalar(t, at: i, end: n)
                if length == 3 && SentenceRules.isFullWidthTerminator(scalar) {
                    var e = i + 3
                    while e < n {
                        let (c, l) = UTF8Decoder.scalar(t, at: e, end: n)
                        guard l > 0, SentenceRules.isCloser(c) else { break }
                        e += l
                    }
                    if e >= window.lowerBound && e <= end && !Self.isSpaceOrBreak(t[e]) && GraphemeBreaks.isBreak(at: e, in: t, count: n, lowest: 0) {
                        body(e, .sentence)
                    }
                    i = e
                    continue
                }
            }
            i += 1
        }
    }

    /// A sentence ends before the space run at `p`: a terminator (and
    /// closers) before it, and after the run neither a line break, the end of
    /// the text, nor a lowercase letter.
    private func isSpacedSentenceEnd(at p: Int, _ t: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard let found = SentenceRules.terminator(endingAt: p, in: t, from: max(0, p - 16)), found.needsSpace else { return false }
        var q = p
        while q < n && (t[q] == 0x20 || t[q] == 0x09) { q += 1 }
        guard q < n, t[q] != 0x0A, t[q] != 0x0D else { return false }
        let (next, length) = UTF8Decoder.scalar(t, at: q, end: n)
        return length == 0 || !SentenceRules.isLowercase(next)
    }

    @inline(__always)
    static func isSpaceOrBreak(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}

/// What the structural pass needs to know about one line.
private struct LineShape {
    var isBlank = true
    /// 1…6 for an ATX heading line.
    var atxDepth: Int? = nil
    /// 1 for a `===` underline, 2 for `---`.
    var setextDepth: Int? = nil
    var fenceMarker: (marker: UInt8, length: Int, restIsBlank: Bool)? = nil

    init(_ t: UnsafePointer<UInt8>, _ start: Int, _ end: Int) {
        var i = start
        while i < end && (t[i] == 0x20 || t[i] == 0x09 || t[i] == 0x0D) { i += 1 }
        isBlank = i == end
        guard !isBlank else { return }
        let indent = i - start
        guard indent <= 3 else { return }
        let first = t[i]
        var run = 0
        while i + run < end && t[i + run] == first { run += 1 }
        let rest = i + run
        var restIsBlank = true
        var k = rest
        while k < end { if !(t[k] == 0x20 || t[k] == 0x09 || t[k] == 0x0D) { restIsBlank = false; break }; k += 1 }
        switch first {
        case UInt8(ascii: "#") where run <= 6 && (rest == end || t[rest] == 0x20 || t[rest] == 0x09 || t[rest] == 0x0D):
            atxDepth = run
        case UInt8(ascii: "="), UInt8(ascii: "-"):
            if restIsBlank { setextDepth = first == UInt8(ascii: "=") ? 1 : 2 }
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            if run >= 3 { fenceMarker = (first, run, restIsBlank) }
        default:
            break
        }
    }
}
