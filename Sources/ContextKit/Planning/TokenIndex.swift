/// A text tokenized once, answering the questions a chunker asks many times —
/// how many tokens between two places, how far N tokens reach, where a chunk
/// of N tokens ending here must start — by binary search over the token ends
/// instead of re-encoding the text for every probe.
///
/// ## What is exact
///
/// The index holds the tokens of the *whole* text. The tokens of a slice
/// `[a, b)` sent on its own can differ from the whole text's tokens in that
/// range (BPE counts are not additive) — but not when `a` and `b` are both
/// `PieceBoundary` safe cuts. A safe cut `p` splits a text so that the
/// pre-tokenizer pieces of the two parts are exactly the whole text's pieces
/// on each side, and BPE works inside pieces, so the tokens of each part are
/// exactly the whole text's tokens on that side. Cutting the whole text at `b`
/// gives `[0, b)` with the whole text's tokens before `b`; `a` is still a safe
/// cut of `[0, b)` when `b - a >= minimumSafeSpan` (the rules read at most two
/// bytes after a cut and four before it, all inside `[a, b)`), so cutting
/// `[0, b)` at `a` gives `[a, b)` with the whole text's tokens between `a` and
/// `b`. Its count is then the number of indexed tokens in the range, and its
/// CJK characters (for estimated profiles) the indexed ones: a safe cut is at
/// an ASCII byte, so no character straddles it. `exactTokens(in:)` uses this
/// and re-encodes the slice only when a cut is not safe (or the tokenizer's
/// pattern has no proven cuts).
///
/// Everything else (`reach`, `earliestStart`, `tokens(in:)` on unsafe cuts) is
/// an estimate of the slice's count that a planner uses to pick candidates,
/// then checks with `exactTokens(in:)`.
struct TokenIndex: Sendable {
    /// Bytes of the indexed text.
    let byteCount: Int
    /// `ends[k]`: the byte offset where token k ends; tokens tile the text.
    let ends: [UInt32]
    /// `cjkBefore[k]`: CJK characters whose first byte lies in tokens `0..<k`;
    /// empty when the estimate does not price CJK or the text has none.
    let cjkBefore: [UInt32]
    /// How the profile turns the tokenizer's count into its own; nil when exact.
    let estimate: TokenEstimate?
    let tokenizer: Tokenizer
    let boundary: PieceBoundary?

    /// The shortest slice for which the safe-cut argument above holds.
    static let minimumSafeSpan = 6

    /// Tokenizes `text` once (special-token text is plain text, as in
    /// `encodeOrdinary`). Texts up to 4 GiB.
    init(tokenizer: Tokenizer, utf8 text: UnsafeBufferPointer<UInt8>, estimate: TokenEstimate? = nil) {
        precondition(text.count <= Int(UInt32.max), "TokenIndex holds texts up to 4 GiB")
        self.byteCount = text.count
        self.tokenizer = tokenizer
        self.estimate = estimate
        self.boundary = tokenizer.pieceBoundary
        var ends: [UInt32] = []
        ends.reserveCapacity(text.count / 3 + 16)
        tokenizer.forEachToken(utf8: text, from: 0, to: text.count) { ends.append(UInt32(truncatingIfNeeded: $0.bytes.upperBound)) }
        self.ends = ends
        var cjk: [UInt32] = []
        if let estimate, estimate.proxyTokensPerCJKCharacter > 0 || estimate.tokensPerCJKCharacter > 0,
            let t = text.baseAddress, TextStats(scanning: text).cjkCharacters > 0
        {
            cjk.reserveCapacity(ends.count + 1)
            cjk.append(0)
            var running: UInt32 = 0
            var i = 0
            for end in ends {
                let e = Int(end)
                while i < e {
                    if t[i] < 0x80 { i += 1; continue }
                    let (scalar, length) = UTF8Decoder.scalar(t, at: i, end: text.count)
                    if length > 0 && TextStats.isCJK(scalar) { running += 1 }
                    i += max(length, 1)
                }
                cjk.append(running)
            }
        }
        self.cjkBefore = cjk
    }

    /// The tokenizer's tokens in the whole text (exact).
    var proxyCount: Int { ends.count }

    /// The profile's tokens for the whole text (exact, or the estimate made from the exact proxy count).
    var count: Int { measure(proxy: ends.count, cjk: cjkBefore.last.map(Int.init) ?? 0) }

    /// The profile's count for `proxy` tokenizer tokens holding `cjk` CJK characters.
    @inline(__always)
    func measure(proxy: Int, cjk: Int) -> Int {
        estimate?.tokens(proxyTokens: proxy, cjkCharacters: cjk) ?? proxy
    }

    /// The first token that ends after `offset` (the token holding byte `offset`).
    @inline(__always)
    func token(containing offset: Int) -> Int {
        var low = 0, high = ends.count
        let key = UInt32(truncatingIfNeeded: offset)
        while low < high {
            let mid = (low + high) >> 1
            if ends[mid] <= key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Where token k starts.
    @inline(__always)
    func start(of k: Int) -> Int { k == 0 ? 0 : Int(ends[k - 1]) }

    @inline(__always)
    func measure(tokens first: Int, _ last: Int) -> Int {
        guard last > first else { return 0 }
        let cjk = cjkBefore.isEmpty ? 0 : Int(cjkBefore[last] - cjkBefore[first])
        return measure(proxy: last - first, cjk: cjk)
    }

    /// The profile's count of the indexed tokens that overlap `range` (an
    /// estimate of the slice's own count; exact at safe cuts).
    func tokens(in range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        return measure(tokens: token(containing: range.lowerBound), token(containing: range.upperBound - 1) + 1)
    }

    /// The furthest token end `e` such that the tokens overlapping `[from, e)`
    /// count at most `maxTokens` (`from` itself when not even one fits).
    func reach(from: Int, maxTokens: Int) -> Int {
        let first = token(containing: from)
        guard first < ends.count, maxTokens > 0 else { return from }
        let last = largestCount(from: first, limit: maxTokens, forward: true)
        return last == first ? from : Int(ends[last - 1])
    }

    /// The earliest token start `a` such that the tokens overlapping `[a, to)`
    /// count at most `maxTokens` (`to` itself when not even one fits).
    func earliestStart(to: Int, maxTokens: Int) -> Int {
        guard to > 0, maxTokens > 0 else { return to }
        let last = token(containing: to - 1) + 1
        let first = largestCount(from: last, limit: maxTokens, forward: false)
        return first == last ? to : start(of: first)
    }

    /// The byte offset `tokens` tokens after `from` (at most the end).
    func offset(afterTokens tokens: Int, from: Int) -> Int {
        guard tokens > 0 else { return from }
        let first = token(containing: from)
        let k = min(first + tokens, ends.count)
        return k == first ? from : Int(ends[k - 1])
    }

    /// From token `anchor`, the token index `k` furthest away (forward: `k`
    /// is one past the last token; backward: `k` is the first token) whose
    /// tokens measure at most `limit`. Binary search: the measure grows with
    /// the number of tokens.
    private func largestCount(from anchor: Int, limit: Int, forward: Bool) -> Int {
        var low = 0, high = forward ? ends.count - anchor : anchor
        if estimate == nil { return forward ? anchor + min(limit, high) : anchor - min(limit, high) }
        while low < high {
            let mid = (low + high + 1) >> 1
            let m = forward ? measure(tokens: anchor, anchor + mid) : measure(tokens: anchor - mid, anchor)
            if m <= limit { low = mid } else { high = mid - 1 }
        }
        return forward ? anchor + low : anchor - low
    }

    /// Whether `[a, b)`'s count can be read off the index (see the type's notes).
    func isExactlyIndexed(_ range: Range<Int>, text: UnsafeBufferPointer<UInt8>) -> Bool {
        if range.lowerBound == 0 && range.upperBound == byteCount { return true }
        guard let boundary, range.count >= Self.minimumSafeSpan else { return false }
        return (range.lowerBound == 0 || boundary.isSafe(text, at: range.lowerBound))
            && (range.upperBound == byteCount || boundary.isSafe(text, at: range.upperBound))
    }

    /// The exact count of `text[range]` sent on its own: the tokenizer's
    /// tokens (`proxy`) and the profile's (`tokens`, equal unless estimated).
    /// Read off the index when both ends are safe cuts, re-encoded otherwise.
    func exactTokens(in range: Range<Int>, text: UnsafeBufferPointer<UInt8>) -> (tokens: Int, proxy: Int) {
        guard !range.isEmpty else { return (0, 0) }
        if isExactlyIndexed(range, text: text) {
            let first = token(containing: range.lowerBound), last = token(containing: range.upperBound - 1) + 1
            return (measure(tokens: first, last), last - first)
        }
        let slice = UnsafeBufferPointer(rebasing: text[range])
        let proxy = tokenizer.count(utf8: slice)
        guard estimate != nil else { return (proxy, proxy) }
        return (measure(proxy: proxy, cjk: TextStats(scanning: slice).cjkCharacters), proxy)
    }

    /// Whether `text[range]` sent on its own is at most `maxTokens` tokens,
    /// counted exactly: read off the index when both ends are safe cuts,
    /// else counted only as far as `maxTokens` (`Tokenizer.count(utf8:limit:allowedSpecial:)`).
    func fits(_ range: Range<Int>, maxTokens: Int, text: UnsafeBufferPointer<UInt8>) -> Bool {
        if range.isEmpty || isExactlyIndexed(range, text: text) { return exactTokens(in: range, text: text).tokens <= maxTokens }
        let slice = UnsafeBufferPointer(rebasing: text[range])
        let room = estimate.map { $0.proxyTokens(within: maxTokens, cjkCharacters: TextStats(scanning: slice).cjkCharacters) } ?? maxTokens
        // Plain text has no special tokens to refuse, so the count cannot throw.
        return (try? tokenizer.count(utf8: slice, limit: room)) != nil
    }

    /// The furthest place `end` after `from` such that `text[from..<end]`,
    /// sent on its own, is at most `maxTokens` tokens — counted exactly — and
    /// `end` does not split a UTF-8 sequence; with that exact count. The
    /// index proposes the place; only the candidate slice is counted, and
    /// when BPE makes it dearer than proposed the place moves back by at
    /// least the excess. `from` itself when not one character fits.
    func exactPrefix(from: Int, maxTokens: Int, text: UnsafeBufferPointer<UInt8>) -> (end: Int, tokens: Int) {
        func snapDown(_ p: Int) -> Int {
            var p = p
            while p > from && p < text.count && text[p] & 0xC0 == 0x80 { p -= 1 }
            return p
        }
        var end = snapDown(reach(from: from, maxTokens: maxTokens))
        while end > from {
            let count = exactTokens(in: from..<end, text: text).tokens
            if count <= maxTokens { return (end, count) }
            let shorter = snapDown(reach(from: from, maxTokens: tokens(in: from..<end) - (count - maxTokens)))
            end = shorter < end ? shorter : snapDown(end - 1)
        }
        return (from, 0)
    }
}
