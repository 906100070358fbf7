/// SentencePiece BPE as llama.cpp runs it for `tokenizer.ggml.model = llama`:
/// the text (spaces already written as `▁`) starts as one symbol per UTF-8
/// character; the adjacent pair whose concatenation is the piece with the
/// highest score merges first (leftmost on ties), until no concatenation is a
/// piece. A character that is no piece becomes its bytes' `<0xNN>` tokens.
///
/// There is no pre-tokenizer: merges may cross anything a piece contains. Two
/// kinds of cut are safe and keep the work small: before and after a character
/// that occurs in no piece longer than itself (a newline, in Llama's
/// vocabulary), and before a `▁` that follows another character when no piece
/// has a `▁` after anything but `▁` (true of vocabularies trained with
/// SentencePiece's whitespace splitting). No merge can reach across such a cut,
/// so each part is merged on its own with the same result.
///
/// sentencepiece's own BPE (a `.model` file) differs in two ways, both off by
/// default: a final symbol that is no piece is the unknown token (`unknownID`,
/// a run of them one token) when the model has no byte fallback, and
/// user-defined symbols are whole symbols that never merge (`userDefined`),
/// so the text is cut around them.
struct SentencePieceEncoder: Sendable {
    /// The pieces merges may produce (normal and user-defined), by their text.
    let pieces: Vocabulary
    /// Each id's score, the higher the earlier it merges.
    let scores: [Float]
    /// The `<0xNN>` token of each byte (or the byte's own piece), `.max` if none.
    let byteIDs: [UInt32]
    /// ASCII bytes that no multi-character piece contains.
    let boundaries: [Bool]
    /// No piece has `▁` after a character other than `▁`.
    let cutsBeforeSpaces: Bool

    /// The token of a symbol that is no piece, instead of its bytes; `.max` for none.
    var unknownID: UInt32 = .max
    /// Symbols that are never merged with their neighbours.
    var userDefined: UserDefinedSymbols = .none

    /// Parts up to this many characters merge by scanning; longer ones through a heap.
    static let scanLimit = 48

    init(pieces: Vocabulary, scores: [Float], byteIDs: [UInt32]) {
        self.pieces = pieces
        self.scores = scores
        self.byteIDs = byteIDs
        var inLongerPiece = [Bool](repeating: false, count: 128)
        var spaceOnlyAfterSpace = true
        for id in 0..<pieces.idCount {
            guard let bytes = pieces.bytes(of: id), bytes.count > 1 else { continue }
            for b in bytes where b < 0x80 { inLongerPiece[Int(b)] = true }
            for k in 1..<bytes.count where Self.isMetaSpace(bytes, k) && !Self.isMetaSpace(bytes, k - 3) {
                spaceOnlyAfterSpace = false
            }
        }
        boundaries = inLongerPiece.map { !$0 }
        cutsBeforeSpaces = spaceOnlyAfterSpace
    }

    /// Whether `▁` (E2 96 81) starts at byte `k`.
    @inline(__always)
    private static func isMetaSpace<C: RandomAccessCollection>(_ b: C, _ k: Int) -> Bool where C.Element == UInt8, C.Index == Int {
        k >= b.startIndex && k + 2 < b.endIndex && b[k] == 0xE2 && b[k + 1] == 0x96 && b[k + 2] == 0x81
    }

    /// Encodes `base[start..<end]` into `sink`.
    func encode<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        guard unknownID != .max || !userDefined.isEmpty else { return encodeFree(base, start, end, into: &sink) }
        withUnsafeMutablePointer(to: &sink) { inner in
            var runs = UnknownRunSink(inner: inner, unknownID: unknownID)
            var partStart = start
            var i = start
            while i < end && !userDefined.isEmpty {
                let n = userDefined.longestMatch(base, i, end)
                if n > 0 {
                    encodeFree(base, partStart, i, into: &runs)
                    emit(base, i, i + n, into: &runs)
                    i += n
                    partStart = i
                } else {
                    i += min(UnigramEncoder.characterLength(base[i]), end - i)
                }
            }
            encodeFree(base, partStart, end, into: &runs)
            runs.flush()
        }
    }

    /// Encodes a text without user-defined symbols.
    private func encodeFree<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        guard start < end else { return }
        let text = UnsafeBufferPointer(start: base + start, count: end - start)
        var partStart = start
        var i = start
        while i < end {
            let b = base[i]
            if b < 0x80 {
                if boundaries[Int(b)] {
                    if i > partStart { encodePart(base, partStart, i, into: &sink) }
                    emit(base, i, i &+ 1, into: &sink)
                    partStart = i &+ 1
                }
                i &+= 1
            } else if cutsBeforeSpaces && b == 0xE2 && Self.isMetaSpace(text, i - start) {
                if i > partStart && !Self.isMetaSpace(text, i - start - 3) {
                    encodePart(base, partStart, i, into: &sink)
                    partStart = i
                }
                i &+= 3
            } else {
                i &+= 1
            }
        }
        if end > partStart { encodePart(base, partStart, end, into: &sink) }
    }

    /// The token of one final symbol, or its bytes' tokens.
    @inline(__always)
    private func emit<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int, into sink: inout Sink) {
        if let id = pieces.id(of: base + a, count: b &- a) {
            sink.token(id, start: a, end: b)
            return
        }
        if unknownID != .max {
            sink.token(unknownID, start: a, end: b)
            return
        }
        for k in a..<b where byteIDs[Int(base[k])] != .max {
            sink.token(byteIDs[Int(base[k])], start: k, end: k &+ 1)
        }
    }

    private func encodePart<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * n + 1) { scratch in
            // Symbols are UTF-8 characters; the rule reads their bytes, not their ids.
            let ids = scratch.baseAddress!
            let starts = ids + n
            var m = 0
            var i = 0
            while i < n {
                ids[m] = 0
                starts[m] = UInt32(i)
                m &+= 1
                i &+= min(MergeListEncoder.utf8Length(base[start &+ i]), n &- i)
            }
            starts[m] = UInt32(n)
            let rule = PieceScores(pieces: pieces, scores: scores, bytes: base + start)
            let parts = m <= Self.scanLimit ? PairMerge.scan(rule, ids: ids, starts: starts, count: m) : PairMerge.heap(rule, ids: ids, starts: starts, count: m)
            for k in 0..<parts { emit(base, start &+ Int(starts[k]), start &+ Int(starts[k &+ 1]), into: &sink) }
        }
    }
}

/// Passes tokens on, a run of unknown tokens as one (as sentencepiece's
/// encoder reports them); `flush` passes on the last run.
struct UnknownRunSink<Inner: TokenSink>: TokenSink {
    let inner: UnsafeMutablePointer<Inner>
    let unknownID: UInt32
    private var pending: (start: Int, end: Int)? = nil

    init(inner: UnsafeMutablePointer<Inner>, unknownID: UInt32) {
        self.inner = inner
        self.unknownID = unknownID
    }

    @inline(__always)
    mutating func token(_ id: UInt32, start: Int, end: Int) {
        if id == unknownID && id != .max {
            if let p = pending { pending = (p.start, end) } else { pending = (start, end) }
            return
        }
        flush()
        inner.pointee.token(id, start: start, end: end)
    }

    mutating func flush() {
        if let p = pending { inner.pointee.token(unknownID, start: p.start, end: p.end) }
        pending = nil
    }
}

/// SentencePiece's rule: two symbols merge into the piece their bytes make,
/// the highest score first.
struct PieceScores: MergeRule {
    let pieces: Vocabulary
    let scores: [Float]
    /// The part's bytes.
    let bytes: UnsafePointer<UInt8>

    @inline(__always)
    func merge(_ left: UInt32, _ right: UInt32, _ a: Int, _ c: Int) -> UInt64 {
        guard let id = pieces.id(of: bytes + a, count: c &- a) else { return .max }
        return UInt64(Self.key(scores[Int(id)])) << 32 | UInt64(id)
    }

    /// Score order as an unsigned key: higher scores give smaller keys.
    @inline(__always)
    static func key(_ score: Float) -> UInt32 {
        let bits = score.bitPattern
        let ascending = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
        return ~ascending
    }
}
