/// How a tokenizer read from a model file turns text into ids, in llama.cpp's
/// and Hugging Face's order: added tokens are cut out first; each stretch of
/// text between them is normalized, split by the pre-tokenizer steps in
/// sequence, and each piece is encoded by the model.
final class OpenModelPipeline: Sendable {
    /// The algorithm that turns a piece into ids.
    enum Model: Sendable {
        /// Pair-rank BPE (Hugging Face `BPE`, GGUF `gpt2`).
        case mergeList(MergeListEncoder)
        /// Score-based SentencePiece BPE (GGUF `llama`).
        case sentencePiece(SentencePieceEncoder)
        /// Greedy longest-match WordPiece (Hugging Face `WordPiece`, BERT).
        case wordPiece(WordPieceEncoder)
        /// Unigram Viterbi over piece scores (SentencePiece `.model` Unigram, Hugging Face `Unigram`).
        case unigram(UnigramEncoder)
    }

    let model: Model
    let normalizer: Normalizer?
    let steps: [SplitStep]
    let addedTokens: AddedTokenMatcher
    let decoder: TokenDecoder
    /// Piece memos kept between calls (`PieceCache`).
    let pieceCaches = PieceCache.Pool()
    /// Human-readable summary (`BPE, NFC, Split(qwen2 scanner) ...`).
    let summary: String
    /// The character classes the split steps ask about, in the Unicode
    /// version of the peer that defines the ids (`CharacterClassTable.UnicodeVersion`).
    let characters: CharacterClassTable

    init(
        model: Model, normalizer: Normalizer?, steps: [SplitStep], addedTokens: AddedTokenMatcher, decoder: TokenDecoder, summary: String,
        characters: CharacterClassTable = .shared
    ) {
        self.characters = characters
        self.model = model
        self.normalizer = normalizer
        self.steps = steps
        self.addedTokens = addedTokens
        self.decoder = decoder
        self.summary = summary
    }

    /// Encodes `bytes[from..<to]` into `sink`, token ranges in the caller's bytes.
    func run<Sink: TokenSink>(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, into sink: inout Sink) {
        guard from < to, let base = bytes.baseAddress else { return }
        var start = from
        if !addedTokens.isEmpty {
            while let m = addedTokens.firstMatch(base, from: start, to: to) {
                encodeSegment(base, start, m.takenStart, into: &sink)
                sink.token(m.id, start: m.start, end: m.end)
                start = m.takenEnd
            }
        }
        encodeSegment(base, start, to, into: &sink)
    }

    private func encodeSegment<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ from: Int, _ to: Int, into sink: inout Sink) {
        guard from < to else { return }
        if let normalizer, let text = normalizer.apply(base, from: from, to: to) {
            guard !text.bytes.isEmpty else { return }
            text.bytes.withUnsafeBufferPointer { normalized in
                text.origins.withUnsafeBufferPointer { origins in
                    withUnsafeMutablePointer(to: &sink) { inner in
                        var mapped = OriginMappingSink(inner: inner, origins: origins.baseAddress!)
                        encodePieces(normalized.baseAddress!, 0, normalized.count, into: &mapped)
                    }
                }
            }
        } else {
            encodePieces(base, from, to, into: &sink)
        }
    }

    /// Splits and encodes, with the model's encoder bound once for all pieces.
    @inline(__always)
    private func encodePieces<Sink: TokenSink>(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, into sink: inout Sink) {
        switch model {
        case .mergeList(let encoder): encodePieces(with: encoder, p, from, to, into: &sink)
        case .sentencePiece(let encoder): encodePieces(with: encoder, p, from, to, into: &sink)
        case .wordPiece(let encoder): encodePieces(with: encoder, p, from, to, into: &sink)
        case .unigram(let encoder): encodePieces(with: encoder, p, from, to, into: &sink)
        }
    }

    /// Pieces go through a `PieceCache` when the pool has one or the text is
    /// long (each encoder is a pure function of the piece's bytes, so the memo
    /// is exact for all four).
    @inline(__always)
    private func encodePieces<Encoder: PieceEncoder, Sink: TokenSink>(with encoder: Encoder, _ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, into sink: inout Sink) {
        // One scanner and nothing else (Llama 3, Qwen 2 and GPT-2 style
        // models): the scan loop of the OpenAI encodings, with the memo's hit
        // path inlined; the general path calls through `split` per piece.
        if steps.count == 1, case .scanner(let kind) = steps[0] {
            switch kind {
            case .gpt2: return scan(R50kScanner.self, with: encoder, p, from, to, into: &sink)
            case .llama3: return scan(Llama3Scanner.self, with: encoder, p, from, to, into: &sink)
            case .qwen2: return scan(Qwen2Scanner.self, with: encoder, p, from, to, into: &sink)
            case .cl100k: return scan(Cl100kScanner.self, with: encoder, p, from, to, into: &sink)
            case .o200k: return scan(O200kScanner.self, with: encoder, p, from, to, into: &sink)
            }
        }
        withUnsafeMutablePointer(to: &sink) { tokens in
            pieceCaches.with(textBytes: to &- from) { memo in
                if let memo {
                    split(0, p, from, to) { p, a, b in memo.pointee.encode(encoder, p, a, b, readableTo: b, into: &tokens.pointee) }
                } else {
                    split(0, p, from, to) { p, a, b in encoder.encode(p, a, b, into: &tokens.pointee) }
                }
            }
        }
    }

    /// Encodes the pieces `S` cuts `p[from..<to]` into, through a memo when
    /// the pool has one or the text is long.
    @inline(__always)
    private func scan<S: PieceScanner, Encoder: PieceEncoder, Sink: TokenSink>(
        _ scanner: S.Type, with encoder: Encoder, _ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, into sink: inout Sink
    ) {
        pieceCaches.scan(S.self, UTF8Cursor(base: p, end: to, table: characters), from: from, with: encoder, into: &sink)
    }

    /// Runs step `k` on `p[from..<to]`; past the last step, hands over the piece.
    ///
    /// The pieces go to a closure, not a generic parameter: one copy of the
    /// steps serves every encoder and token sink, where a generic one was
    /// specialized for each pair (and for each again with normalized text's
    /// origin mapping): with `VisitingSink`, TokenKit's release build went
    /// from 200 s to 87 s of CPU. A piece pays one indirect call here:
    /// all-minilm's WordPiece on 2 MB of English 52.5 → 55.3 ms warm (+5%),
    /// SentencePiece models (no step) within noise; the models with one
    /// scanner and no other step take `scan(_:with:…)` and pay nothing. An
    /// `any PieceSink` instead of the closure cost WordPiece 14% (60 ms):
    /// the existential was boxed and checked per piece.
    private func split(_ k: Int, _ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, into sink: (UnsafePointer<UInt8>, Int, Int) -> Void) {
        guard k < steps.count else {
            sink(p, from, to)
            return
        }
        switch steps[k] {
        case .scanner(let kind):
            switch kind {
            case .gpt2: scan(R50kScanner.self, k, p, from, to, sink)
            case .llama3: scan(Llama3Scanner.self, k, p, from, to, sink)
            case .qwen2: scan(Qwen2Scanner.self, k, p, from, to, sink)
            case .cl100k: scan(Cl100kScanner.self, k, p, from, to, sink)
            case .o200k: scan(O200kScanner.self, k, p, from, to, sink)
            }
        case let .characters(rule, behavior):
            let cursor = UTF8Cursor(base: p, end: to, table: characters)
            var folder = SpanFolder(behavior)
            var i = from
            var gapStart = from
            while i < to {
                let c = cursor.character(at: i)
                if rule.matches(c) {
                    if gapStart < i, let piece = folder.add(gapStart, i, isMatch: false) { split(k + 1, p, piece.0, piece.1, into: sink) }
                    if let piece = folder.add(i, i + c.length, isMatch: true) { split(k + 1, p, piece.0, piece.1, into: sink) }
                    gapStart = i + c.length
                }
                i += c.length
            }
            if gapStart < to, let piece = folder.add(gapStart, to, isMatch: false) { split(k + 1, p, piece.0, piece.1, into: sink) }
            if let piece = folder.finish() { split(k + 1, p, piece.0, piece.1, into: sink) }
        case .digitTriples:
            var i = from
            var gapStart = from
            @inline(__always) func isDigit(_ j: Int) -> Bool { j < to && p[j] >= 0x30 && p[j] <= 0x39 }
            while i < to {
                if isDigit(i) && isDigit(i + 1) && isDigit(i + 2) {
                    if gapStart < i { split(k + 1, p, gapStart, i, into: sink) }
                    split(k + 1, p, i, i + 3, into: sink)
                    i += 3
                    gapStart = i
                } else {
                    i += 1
                }
            }
            if gapStart < to { split(k + 1, p, gapStart, to, into: sink) }
        case let .classRun(pattern, behavior, invert):
            let cursor = UTF8Cursor(base: p, end: to, table: characters)
            var folder = SpanFolder(behavior)
            var i = from
            while i < to, let (s, e) = pattern.firstMatch(cursor, from: i) {
                if i < s, let piece = folder.add(i, s, isMatch: invert) { split(k + 1, p, piece.0, piece.1, into: sink) }
                if let piece = folder.add(s, e, isMatch: !invert) { split(k + 1, p, piece.0, piece.1, into: sink) }
                i = e
            }
            if i < to, let piece = folder.add(i, to, isMatch: invert) { split(k + 1, p, piece.0, piece.1, into: sink) }
            if let piece = folder.finish() { split(k + 1, p, piece.0, piece.1, into: sink) }
        case let .regex(splitter, behavior, invert):
            let spans = splitter.spans(p, from: from, to: to, invert: invert)
            for (a, b) in behavior.pieces(spans) { split(k + 1, p, a, b, into: sink) }
        }
    }

    @inline(__always)
    private func scan<S: PieceScanner>(_ scanner: S.Type, _ k: Int, _ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, _ sink: (UnsafePointer<UInt8>, Int, Int) -> Void) {
        let cursor = UTF8Cursor(base: p, end: to, table: characters)
        var i = from
        while i < to {
            let e = S.pieceEnd(cursor, from: i)
            split(k + 1, p, i, e, into: sink)
            i = e
        }
    }

    /// The pieces the pre-tokenizer steps cut `text` into, after normalization
    /// and without added tokens (what the scanners are fuzzed on).
    func pieces(of text: String) -> [String] {
        var pieces: [String] = []
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let data = normalizer?.apply(base, from: 0, to: bytes.count)?.bytes ?? Array(bytes)
            data.withUnsafeBufferPointer { b in
                guard let p = b.baseAddress else { return }
                split(0, p, 0, b.count) { p, a, b in pieces.append(String(decoding: UnsafeBufferPointer(start: p + a, count: b - a), as: UTF8.self)) }
            }
        }
        return pieces
    }
}

/// A model's encoder of one pre-tokenized piece: tiktoken's byte-pair merge,
/// merge-list BPE, SentencePiece BPE, WordPiece and Unigram.
@usableFromInline
protocol PieceEncoder {
    func encode<Sink: TokenSink>(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink)
    /// The id of a piece of one or two bytes at `p` when the encoder encodes it
    /// as that one token, else `.max`: answered in the memo's hit path
    /// (`PieceCache`), without a call.
    func shortPieceID(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt32
}

extension PieceEncoder {
    @inline(__always) @usableFromInline
    func shortPieceID(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt32 { .max }
}

extension BytePairEncoder: PieceEncoder {
    /// tiktoken encodes a piece that is a token as that token.
    @inline(__always) @usableFromInline
    func shortPieceID(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt32 { vocabulary.shortID(of: p, count: n) }
}
extension MergeListEncoder: PieceEncoder {}
extension SentencePieceEncoder: PieceEncoder {}
extension WordPieceEncoder: PieceEncoder {}
extension UnigramEncoder: PieceEncoder {}

/// Moves token ranges from normalized text back to the caller's bytes.
struct OriginMappingSink<Inner: TokenSink>: TokenSink {
    let inner: UnsafeMutablePointer<Inner>
    let origins: UnsafePointer<Int32>

    @inline(__always)
    mutating func token(_ id: UInt32, start: Int, end: Int) {
        inner.pointee.token(id, start: Int(origins[start]), end: Int(origins[end]))
    }
}
