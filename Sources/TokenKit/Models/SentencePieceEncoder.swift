/// SentencePiece BPE as llama.cpp runs it for `tokenizer.ggml.model = llama`:
/// the text (spaces already written as `▁`) starts as one symbol per UTF-8
/// character; the adjacent pair whose concatenation is the piece with the
/// highest score merges first (leftmost on ties), until no concatenation is a
/// piece. A character that is no piece becomes its bytes' `<0xNN>` tokens.
///
/// There is no pre-tokenizer: merges may cross anything a piece contains. Two
/// kinds of cut are safe and keep the work small: before and after a character
/// that occurs in no piece longer than itself (a newline, in Llama's
/// vocabulary; every CJK character, in an English one), and before a `▁` that
/// follows another character when no piece has a `▁` after anything but `▁`
/// (true of vocabularies trained with SentencePiece's whitespace splitting).
/// No merge can reach across such a cut, so each part is merged on its own
/// with the same result.
///
/// sentencepiece's own BPE (a `.model` file) differs in two ways, both off by
/// default: a final symbol that is no piece is the unknown token (`unknownID`,
/// a run of them one token) when the model has no byte fallback, and
/// user-defined symbols are whole symbols that never merge (`userDefined`),
/// so the text is cut around them.
///
/// ## Performance notes
///
/// - CJK text with an English vocabulary (botchan_en_bpe_1000): every
///   character is unknown, and a part between two spaces is a whole line,
///   merged through the heap with every adjacent pair looked up in vain and
///   each symbol looked up again at the end; cachegrind put 45% of one warm
///   round (472M instructions for 2 MB) in `encodePart` and `PairMerge.heap`.
///   The cut around a character that no longer piece contains
///   (`PieceCharacters`, two 8 KB bit sets) emits such a character at once,
///   as the unknown without a lookup when no piece contains it. `tokbench`
///   count, median CPU time of the warm rounds pinned to one CPU, after the
///   normalizer's tables (see `UnigramEncoder`) → with the cut: CJK 34.5 →
///   18.8 ms (58 → 106 MB/s; sentencepiece 0.2.3 took 32.9 ms on the same
///   VM), 305M → 239M instructions (cachegrind, `count 3` minus `count 2`).
/// - Scanning every part for such characters cost English 9% more
///   instructions (660M → 722M) for no cut; a part is now scanned only when
///   it has a byte of 0x80 or more besides its `▁`s: 673M instructions,
///   84.9 ms against 81.5 ms without the cut (97.5 ms before both).
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
    /// The characters of two bytes or more that pieces contain.
    let characters: PieceCharacters

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
        characters = PieceCharacters(pieces)
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
        // Whether the part has a byte of 0x80 or more besides its `▁`s:
        // only then is it scanned for characters to cut around (for English
        // the scan cost 9% more instructions and found nothing).
        var multibyte = false
        var i = start
        while i < end {
            let b = base[i]
            if b < 0x80 {
                if boundaries[Int(b)] {
                    if i > partStart { encodePart(base, partStart, i, scanning: multibyte, into: &sink) }
                    emit(base, i, i &+ 1, into: &sink)
                    partStart = i &+ 1
                    multibyte = false
                }
                i &+= 1
            } else if cutsBeforeSpaces && b == 0xE2 && Self.isMetaSpace(text, i - start) {
                if i > partStart && !Self.isMetaSpace(text, i - start - 3) {
                    encodePart(base, partStart, i, scanning: multibyte, into: &sink)
                    partStart = i
                    multibyte = false
                }
                i &+= 3
            } else {
                multibyte = true
                i &+= 1
            }
        }
        if end > partStart { encodePart(base, partStart, end, scanning: multibyte, into: &sink) }
    }

    /// The token of one final symbol, or its bytes' tokens; `mayBePiece`
    /// false when the symbol is known to be no piece.
    @inline(__always)
    private func emit<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int, mayBePiece: Bool = true, into sink: inout Sink) {
        if mayBePiece, let id = pieces.id(of: base + a, count: b &- a) {
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

    /// Encodes a part, when `scanning` cut around each character of two
    /// bytes or more that no longer piece contains: such a character never
    /// merges, so the symbols on either side merge on their own.
    private func encodePart<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, scanning: Bool, into sink: inout Sink) {
        guard scanning else { return merge(base, start, end, into: &sink) }
        var mergeStart = start
        var i = start
        while i < end {
            let n = min(MergeListEncoder.utf8Length(base[i]), end &- i)
            if n > 1 {
                let key = PieceCharacters.key(base + i, n)
                if !characters.inLongerPiece(key) {
                    if i > mergeStart { merge(base, mergeStart, i, into: &sink) }
                    emit(base, i, i &+ n, mayBePiece: characters.inPiece(key), into: &sink)
                    mergeStart = i &+ n
                }
            }
            i &+= n
        }
        if end > mergeStart { merge(base, mergeStart, end, into: &sink) }
    }

    /// Merges the symbols (UTF-8 characters) of `base[start..<end]` and emits the result.
    private func merge<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
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

/// Which characters of two bytes or more occur in pieces, by a 16-bit hash
/// of their bytes, as two bit sets: a character whose bit is clear occurs in
/// no piece (or in no piece of more than one character). A hash shared with
/// a character that does occur only sets the bit, which makes the encoder
/// look the character up or merge it as it would without the sets.
///
/// A character here is what the encoder's symbols are: a lead byte and the
/// bytes its value says follow (`MergeListEncoder.utf8Length`), cut at the
/// end of the piece or part; a merged piece's characters are the symbols it
/// was merged from.
struct PieceCharacters: Sendable {
    /// 65,536 bits a set: the first 1,024 words for `inPiece`, the rest for `inLongerPiece`.
    private let words: [UInt64]

    init(_ pieces: Vocabulary) {
        var words = [UInt64](repeating: 0, count: 2 * 1024)
        for id in 0..<pieces.idCount {
            guard let b = pieces.bytes(of: id), let p = b.baseAddress else { continue }
            var characters = 0
            var i = 0
            while i < b.count {
                i += min(MergeListEncoder.utf8Length(p[i]), b.count - i)
                characters += 1
            }
            i = 0
            while i < b.count {
                let n = min(MergeListEncoder.utf8Length(p[i]), b.count - i)
                if n > 1 {
                    let key = Self.key(p + i, n)
                    words[key >> 6] |= 1 << (key & 63)
                    if characters > 1 { words[1024 + (key >> 6)] |= 1 << (key & 63) }
                }
                i += n
            }
        }
        self.words = words
    }

    /// The hash of the `n` bytes (2 to 4) at `p`.
    @inline(__always)
    static func key(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var word = UInt64(truncatingIfNeeded: n) << 32
        for k in 0..<n { word |= UInt64(p[k]) << (8 &* UInt64(k)) }
        return Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 48)
    }

    /// Whether a piece may contain the character of `key`.
    @inline(__always)
    func inPiece(_ key: Int) -> Bool { words[key >> 6] & (1 << (key & 63)) != 0 }

    /// Whether a piece of more than one character may contain the character of `key`.
    @inline(__always)
    func inLongerPiece(_ key: Int) -> Bool { words[1024 &+ (key >> 6)] & (1 << (key & 63)) != 0 }
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
