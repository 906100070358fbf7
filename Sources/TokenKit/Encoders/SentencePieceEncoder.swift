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
        for k in a..<b where byteIDs[Int(base[k])] != .max {
            sink.token(byteIDs[Int(base[k])], start: k, end: k &+ 1)
        }
    }

    /// Score order as an unsigned key: higher scores give smaller keys.
    @inline(__always)
    private func key(_ score: Float) -> UInt32 {
        let bits = score.bitPattern
        let ascending = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
        return ~ascending
    }

    private func encodePart<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let done = withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.scanLimit + 1) { buffer -> Bool in
            let starts = buffer.baseAddress!
            var m = 0
            var i = start
            while i < end {
                guard m < Self.scanLimit else { return false }
                starts[m] = Int32(i)
                m += 1
                i += min(MergeListEncoder.utf8Length(base[i]), end - i)
            }
            starts[m] = Int32(end)
            mergeByScan(base, starts, m, into: &sink)
            return true
        }
        if !done { mergeByHeap(base, start, end, into: &sink) }
    }

    /// Few characters: find the best pair by scanning, merge, repeat.
    private func mergeByScan<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ starts: UnsafeMutablePointer<Int32>, _ count: Int, into sink: inout Sink) {
        var m = count
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: max(m, 1)) { buffer in
            let keys = buffer.baseAddress!      // keys[i]: merging symbols i and i + 1
            @inline(__always) func candidate(_ i: Int) -> UInt32 {
                guard i &+ 1 < m else { return .max }
                let a = Int(starts[i])
                guard let id = pieces.id(of: base + a, count: Int(starts[i &+ 2]) &- a) else { return .max }
                return key(scores[Int(id)])
            }
            for i in 0..<m { keys[i] = candidate(i) }
            while m > 1 {
                var best = UInt32.max, at = -1
                for i in 0..<(m &- 1) where keys[i] < best { best = keys[i]; at = i }
                if at < 0 { break }
                for i in (at &+ 1)..<m { starts[i] = starts[i &+ 1] }
                for i in (at &+ 1)..<(m &- 1) { keys[i] = keys[i &+ 1] }
                m &-= 1
                keys[at] = candidate(at)
                if at > 0 { keys[at &- 1] = candidate(at &- 1) }
            }
        }
        for i in 0..<m { emit(base, Int(starts[i]), Int(starts[i &+ 1]), into: &sink) }
    }

    /// Many characters: a heap of candidate merges over a linked list.
    private func mergeByHeap<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        // Symbols are UTF-8 characters, kept as a linked list over their start offsets.
        var starts: [Int32] = []
        var i = start
        while i < end {
            starts.append(Int32(i))
            i += min(MergeListEncoder.utf8Length(base[i]), end - i)
        }
        let m = starts.count
        if m == 1 { emit(base, start, end, into: &sink); return }
        var lengths = [Int32](repeating: 0, count: m)
        for s in 0..<m { lengths[s] = (s + 1 < m ? starts[s + 1] : Int32(end)) - starts[s] }
        var next = [Int32](unsafeUninitializedCapacity: m) { b, c in for s in 0..<m { b[s] = Int32(s + 1) }; c = m }
        var previous = [Int32](unsafeUninitializedCapacity: m) { b, c in for s in 0..<m { b[s] = Int32(s - 1) }; c = m }
        var heap = MergeHeap<Bigram>()
        func consider(_ left: Int) {
            guard left >= 0 else { return }
            let right = Int(next[left])
            guard right < m else { return }
            let size = lengths[left] + lengths[right]
            guard let id = pieces.id(of: base + Int(starts[left]), count: Int(size)) else { return }
            heap.push(Bigram(key: UInt64(key(scores[Int(id)])) << 32 | UInt64(left), right: Int32(right), size: size))
        }
        for s in 0..<(m - 1) { consider(s) }
        while let bigram = heap.pop() {
            let left = Int(bigram.key & 0xFFFF_FFFF)
            let right = Int(bigram.right)
            // Stale if either side has merged since: its length changed or it is gone.
            guard lengths[left] > 0, lengths[right] > 0, next[left] == bigram.right,
                  lengths[left] + lengths[right] == bigram.size else { continue }
            lengths[left] = bigram.size
            lengths[right] = 0
            next[left] = next[right]
            if Int(next[right]) < m { previous[Int(next[right])] = Int32(left) }
            consider(Int(previous[left]))
            consider(left)
        }
        var s = 0
        while s < m {
            let a = Int(starts[s])
            emit(base, a, a + Int(lengths[s]), into: &sink)
            s = Int(next[s])
        }
    }
}

/// A candidate merge: `key` packs the score order and the left symbol, so the
/// heap pops the best score first and the leftmost pair among equal scores.
struct Bigram: MergeCandidate {
    let key: UInt64
    let right: Int32
    let size: Int32
}
