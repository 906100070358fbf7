import Foundation

/// Finds the first token whose count (exact or estimated) goes past a limit,
/// in a text that may come in pieces: each call continues from the running
/// totals of the pieces before it. Both questions it asks ("do these
/// tokens fit?", "which token is the first past?") go to TokenKit's
/// count-to-a-limit primitives, which stop encoding once the limit is passed.
package struct OverflowLocator: Sendable {
    package let tokenizer: Tokenizer
    package let special: SpecialTokenPolicy
    package let estimate: TokenEstimate?
    /// Tokens of text that fit.
    package let limit: Int

    package init(tokenizer: Tokenizer, special: SpecialTokenPolicy, estimate: TokenEstimate?, limit: Int) {
        self.tokenizer = tokenizer
        self.special = special
        self.estimate = estimate
        self.limit = limit
    }

    /// Running totals of the text before a piece.
    package struct Progress: Sendable {
        package var proxyTokens = 0
        package var cjkCharacters = 0
        package var position = TextPosition.start
        package init() {}
        package init(proxyTokens: Int, cjkCharacters: Int, position: TextPosition) {
            self.proxyTokens = proxyTokens
            self.cjkCharacters = cjkCharacters
            self.position = position
        }
    }

    func measured(_ proxyTokens: Int, _ cjk: Int) -> Int {
        estimate?.tokens(proxyTokens: proxyTokens, cjkCharacters: cjk) ?? proxyTokens
    }

    /// The first token of `text` past the limit, given the totals before it;
    /// nil if the limit is not passed inside `text`.
    ///
    /// The text is cut at safe piece boundaries into blocks that are counted
    /// up to the limit without building arrays; only the block where the
    /// limit is passed is walked token by token with positions, so memory
    /// stays small on any input.
    package func firstTokenPast(in text: UnsafeBufferPointer<UInt8>, after before: Progress) throws -> OverflowPoint? {
        var progress = before
        return try firstTokenPast(in: text, advancing: &progress)
    }

    /// As `firstTokenPast(in:after:)`, and when the limit is not passed,
    /// `progress` is moved past `text` so the next piece can continue from it.
    package func firstTokenPast(in text: UnsafeBufferPointer<UInt8>, advancing progress: inout Progress) throws -> OverflowPoint? {
        guard let base = text.baseAddress else { return nil }
        var start = 0
        let boundary = tokenizer.pieceBoundary(allowedSpecial: special)
        while start < text.count {
            var end = text.count
            if let boundary, text.count - start > 2 * Self.blockSize {
                end = boundary.firstSafe(in: text, from: start + Self.blockSize) ?? text.count
            }
            let block = UnsafeBufferPointer(start: base + start, count: end - start)
            // The last block is walked without being counted first: the walk
            // counts it too, and callers look here because the limit is passed
            // in this text, most often in its last block (all of it, when the
            // text is one giant piece).
            if end < text.count {
                let stats = TextStats(scanning: block)
                let cjk = progress.cjkCharacters + stats.cjkCharacters
                let room = (estimate?.proxyTokens(within: limit, cjkCharacters: cjk) ?? limit) - progress.proxyTokens
                if let count = try tokenizer.count(utf8: block, limit: room, allowedSpecial: special) {
                    progress.proxyTokens += count
                    progress.cjkCharacters += stats.cjkCharacters
                    progress.position = progress.position.advanced(over: stats)
                    start = end
                    continue
                }
            }
            return try walk(block, advancing: &progress)
        }
        return nil
    }

    static let blockSize = 1 << 18

    /// The first token of `block` past the limit, token by token; when there
    /// is none, `progress` is moved past the block.
    private func walk(_ block: UnsafeBufferPointer<UInt8>, advancing progress: inout Progress) throws -> OverflowPoint? {
        var position = progress.position
        var cursor = 0  // bytes of the block already folded into `position`
        var cjk = progress.cjkCharacters
        var seen = 0
        let before = progress
        // Token by token, never an array of them: one takes 24 bytes a token,
        // three times the text when the block is one long piece of one letter.
        let past = try tokenizer.firstToken(utf8: block, allowedSpecial: special) { n, token in
            let at = characterStart(containing: token.bytes.lowerBound, in: block)
            if at > cursor {
                let stats = TextStats(scanning: UnsafeBufferPointer(rebasing: block[cursor..<at]))
                position = position.advanced(over: stats)
                cjk += stats.cjkCharacters
                cursor = at
            }
            seen = n
            return measured(before.proxyTokens + n, cjk) > limit
        }
        if let past {
            var point = position
            point.byteOffset = before.position.byteOffset + past.token.bytes.lowerBound
            // Token `limit + 1` in the count's own units: for an estimate, the
            // estimated position where the text stops fitting.
            return OverflowPoint(token: limit + 1, position: point)
        }
        let rest = TextStats(scanning: UnsafeBufferPointer(rebasing: block[cursor...]))
        progress.proxyTokens += seen
        progress.cjkCharacters = cjk + rest.cjkCharacters
        progress.position = position.advanced(over: rest)
        return nil
    }

    /// The first token past the limit in the text `source` holds, read in
    /// chunks cut where the tokenizer allows (whole when it has no cuts); nil
    /// when the text fits. Closes the source.
    ///
    /// - Throws: the source's read errors, and what `firstTokenPast(in:after:)` throws.
    package func firstTokenPast(reading source: ByteSource) throws -> OverflowPoint? {
        var reader = ChunkReader(source: source, boundary: tokenizer.pieceBoundary(allowedSpecial: special))
        defer { reader.close() }
        var progress = Progress()
        while let chunk = try reader.next() {
            defer { chunk.release() }
            let point = try firstTokenPast(in: chunk.text, advancing: &progress)
            try chunk.checkUnchanged()
            if let point { return point }
        }
        return nil
    }

    /// Backs up from a byte inside a multi-byte character to the character's first byte.
    private func characterStart(containing i: Int, in block: UnsafeBufferPointer<UInt8>) -> Int {
        let p = block.baseAddress!
        guard i < block.count, p[i] & 0xC0 == 0x80 else { return i }
        var back = 1
        while back <= 3 && i - back >= 0 {
            let lead = i - back
            if p[lead] & 0xC0 != 0x80 {
                let (_, length) = UTF8Decoder.scalar(p, at: lead, end: block.count)
                return length > back ? lead : i
            }
            back += 1
        }
        return i
    }
}
