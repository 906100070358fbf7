import Foundation

/// A byte-level BPE tokenizer: text in, token ids out, with tiktoken's semantics.
///
/// ```swift
/// let tokenizer = try Tokenizer.named("cl100k_base")
/// tokenizer.count("hello world")            // 2
/// tokenizer.encodeOrdinary("hello world")   // [15339, 1917]
/// ```
///
/// Tokenizers are immutable and safe to share between threads.
public final class Tokenizer: Sendable {
    /// The encoding's name (`cl100k_base`) or the file it was read from.
    public let name: String
    /// The token byte strings.
    let vocabulary: Vocabulary
    /// How text is split before merging. For a tokenizer read from a GGUF or
    /// `tokenizer.json` file, the first split step's pattern, for information only.
    public let preTokenizer: PreTokenizer
    /// Special tokens by their text, e.g. `<|endoftext|>` → 100257.
    public let specialTokens: [String: Int]
    /// Where a text may be cut so that the tokens of the parts, encoded one by
    /// one, are exactly the tokens of the whole (so counts add up and a big
    /// text can be counted in parts, in parallel or streamed); nil when no
    /// cut is proven for this tokenizer, whose texts are then encoded whole.
    ///
    /// Set by the loader from the pipeline it built: tiktoken's model over one
    /// of the three OpenAI patterns has proven cuts (see `PieceBoundary`); a
    /// tokenizer read from a GGUF or tokenizer.json file has none, because its
    /// normalizers, SentencePiece prefix space and split steps read across
    /// the pieces that `preTokenizer` names for information only.
    public let pieceBoundary: PieceBoundary?
    /// The special tokens the tokenizer file puts around one input (a
    /// `tokenizer.json` post-processor's); empty for other tokenizers.
    /// Counts and encodings never include them: they are what a server that
    /// adds special tokens to a bare input (an embedding endpoint) charges.
    public let inputSpecials: InputSpecials

    let encoder: BytePairEncoder
    /// Piece memos kept between calls (`PieceCache`).
    let pieceCaches = PieceCache.Pool()
    let model: Model
    private let specialsByID: [Int: String]
    private let specialTokenMatcher: SpecialTokenMatcher

    /// How text becomes ids.
    enum Model: Sendable {
        /// tiktoken's byte-pair merge (`encoder`) over `preTokenizer`'s pieces.
        case tiktoken
        /// A tokenizer read from a GGUF or tokenizer.json file: added tokens,
        /// normalizer, pre-tokenizer steps in sequence, then merge-list BPE or
        /// SentencePiece.
        case openModel(OpenModelPipeline)
    }

    /// Builds a tokenizer from its parts. Every single byte must be a token,
    /// as in any byte-level BPE vocabulary, so that any input can be encoded.
    /// `controlTokens` (id → text) only decode: encoding never reads them out
    /// of a text, as mistral-common's tekken does not.
    init(name: String, vocabulary: Vocabulary, preTokenizer: PreTokenizer, specialTokens: [String: Int], controlTokens: [Int: String] = [:]) throws {
        for byte in 0..<256 {
            var b = UInt8(byte)
            if vocabulary.id(of: &b, count: 1) == nil {
                throw TokenKitError.malformedVocabulary(
                    path: name, line: 0, reason: String(format: "the vocabulary has no token for the single byte 0x%02X, so it is not a byte-level BPE vocabulary", byte))
            }
        }
        self.name = name
        self.vocabulary = vocabulary
        self.preTokenizer = preTokenizer
        self.specialTokens = specialTokens
        self.pieceBoundary = PieceBoundary(preTokenizer)
        self.inputSpecials = InputSpecials()
        self.encoder = BytePairEncoder(vocabulary: vocabulary)
        self.model = .tiktoken
        self.specialsByID = Self.textsByID(specialTokens).merging(controlTokens) { special, _ in special }
        self.specialTokenMatcher = SpecialTokenMatcher(specialTokens)
    }

    /// Each special token's text by id. When two texts share an id (o200k_harmony's
    /// 200018 is `<|endofprompt|>` and `<|reserved_200018|>`), the shorter one,
    /// then the first in order, decodes: what tiktoken 0.14 gives.
    private static func textsByID(_ specialTokens: [String: Int]) -> [Int: String] {
        Dictionary(specialTokens.map { ($0.value, $0.key) }) { a, b in (a.utf8.count, a) <= (b.utf8.count, b) ? a : b }
    }

    /// A tokenizer read from a model file. `vocabulary` holds the tokens the
    /// model merges into (byte-level tokens as bytes, SentencePiece pieces as
    /// written, with `▁`); `preTokenizer` is the first split step's pattern, for
    /// information only: `pipeline` does the work; `inputSpecials` is what
    /// the file says to put around an input.
    init(
        name: String, vocabulary: Vocabulary, preTokenizer: PreTokenizer, specialTokens: [String: Int], pipeline: OpenModelPipeline,
        inputSpecials: InputSpecials = InputSpecials()
    ) {
        self.name = name
        self.vocabulary = vocabulary
        self.preTokenizer = preTokenizer
        self.specialTokens = specialTokens
        self.pieceBoundary = nil
        self.inputSpecials = inputSpecials
        self.encoder = BytePairEncoder(vocabulary: vocabulary)
        self.model = .openModel(pipeline)
        self.specialsByID = Dictionary(specialTokens.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        self.specialTokenMatcher = SpecialTokenMatcher(specialTokens)
    }

    /// A tokenizer for one of the built-in encodings (`cl100k_base`, `o200k_base`,
    /// `r50k_base` or its alias `gpt2`, `p50k_base`, `o200k_harmony`,
    /// `p50k_edit`), loaded once and cached.
    ///
    /// - Throws: `TokenKitError.unknownEncoding` for any other name (its
    ///   message lists the known ones); `TokenKitError.alteredVocabulary` or
    ///   `.unreadableFile` when the shipped vocabulary is damaged or missing.
    public static func named(_ name: String) throws -> Tokenizer {
        guard let encoding = OpenAIEncoding(name: name) else {
            throw TokenKitError.unknownEncoding(name: name, known: OpenAIEncoding.knownNames)
        }
        return try encoding.tokenizer()
    }

    /// A tokenizer read from a `.tiktoken` file (lines of `base64 rank`), split
    /// with `preTokenizer` (cl100k's pattern unless told otherwise).
    ///
    /// Use `Tokenizer.load(contentsOf:)` to read any supported format by its
    /// content; use this initialiser to pair a custom vocabulary with a
    /// pattern or special tokens of your choice.
    /// - Parameters:
    ///   - url: the `.tiktoken` file.
    ///   - preTokenizer: how text is split before merging; cl100k's pattern by default.
    ///   - specialTokens: special-token text → id; none by default.
    /// - Throws: `TokenKitError.unreadableFile` or `.malformedVocabulary`
    ///   (with the line) when the file cannot be read as a vocabulary, also
    ///   when some single byte has no token.
    public convenience init(contentsOf url: URL, preTokenizer: PreTokenizer = .cl100k, specialTokens: [String: Int] = [:]) throws {
        let vocabulary = try TiktokenFile.load(contentsOf: url)
        try self.init(name: url.lastPathComponent, vocabulary: vocabulary, preTokenizer: preTokenizer, specialTokens: specialTokens)
    }

    /// `pieceBoundary` for texts encoded under `allowedSpecial`: nil as well
    /// when special tokens are parsed and one of them holds a space or a line
    /// feed, since a cut could then fall inside a special token's text.
    public func pieceBoundary(allowedSpecial: SpecialTokenPolicy) -> PieceBoundary? {
        let specialsMayStraddle = allowedSpecial != .plainText && specialTokens.keys.contains { $0.utf8.contains(0x20) || $0.utf8.contains(0x0A) }
        return specialsMayStraddle ? nil : pieceBoundary
    }

    // MARK: Encoding

    /// The token ids of `text`, treating special-token strings as plain text
    /// (tiktoken's `encode_ordinary`). Never fails.
    public func encodeOrdinary(_ text: String) -> [Int] {
        var text = text
        return text.withUTF8 { encodeOrdinary(utf8: $0) }
    }

    /// The token ids of a buffer of UTF-8 bytes, special-token strings as plain
    /// text; bytes that are not valid UTF-8 are encoded byte by byte.
    public func encodeOrdinary(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        IDCollector.collect(expectedBytes: bytes.count) { run(bytes, from: 0, to: bytes.count, into: &$0) }
    }

    /// The token ids of `text`, where the special tokens in `allowedSpecial` are
    /// encoded as themselves and any other special token's text is an error
    /// (tiktoken's `encode` with its default `disallowed_special="all"`).
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken` naming the first
    ///   special-token text that `allowedSpecial` does not allow.
    public func encode(_ text: String, allowedSpecial: SpecialTokenPolicy = .none) throws -> [Int] {
        var text = text
        return try text.withUTF8 { bytes in
            try IDCollector.collect(expectedBytes: bytes.count) { _ = try encode(bytes, allowedSpecial: allowedSpecial, into: &$0) }
        }
    }

    /// How many tokens `encodeOrdinary(text)` would return (exact), without
    /// building the array.
    public func count(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { count(utf8: $0) }
    }

    /// How many tokens `encodeOrdinary(utf8:)` would return for the bytes
    /// (exact), without building an array.
    public func count(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var sink = TokenCounter()
        run(bytes, from: 0, to: bytes.count, into: &sink)
        return sink.count
    }

    /// How many tokens `encode(text, allowedSpecial:)` would return, without
    /// building the array.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does.
    public func count(_ text: String, allowedSpecial: SpecialTokenPolicy) throws -> Int {
        var text = text
        return try text.withUTF8 { try count(utf8: $0, allowedSpecial: allowedSpecial).tokens }
    }

    /// Each token of the UTF-8 bytes with the byte range of the text it covers,
    /// in order; special tokens handled as `encode` handles them.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does.
    public func tokens(utf8 bytes: UnsafeBufferPointer<UInt8>, allowedSpecial: SpecialTokenPolicy = .none) throws -> [Token] {
        var tokens: [Token] = []
        _ = try visit(bytes, allowedSpecial: allowedSpecial) { id, start, end in
            tokens.append(Token(id: Int(id), bytes: start..<end))
            return false
        }
        return tokens
    }

    /// How many tokens the UTF-8 bytes are with special tokens handled by
    /// `allowedSpecial`, and how many special-token strings the text holds
    /// (one token each when allowed, plain text under `.plainText`).
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does.
    public func count(utf8 bytes: UnsafeBufferPointer<UInt8>, allowedSpecial: SpecialTokenPolicy) throws -> (tokens: Int, specialTokenStrings: Int) {
        var sink = TokenCounter()
        if allowedSpecial == .plainText {
            run(bytes, from: 0, to: bytes.count, into: &sink)
            return (sink.count, specialTokenMatcher.occurrences(in: bytes))
        }
        let specials = try encode(bytes, allowedSpecial: allowedSpecial, into: &sink)
        return (sink.count, specials)
    }

    /// Each token of `bytes`, in order, with the byte range it covers; special
    /// tokens handled as `tokens(utf8:allowedSpecial:)` handles them. Nothing is
    /// collected, so memory stays flat however long the text.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, before `body` sees
    ///   the tokens after the disallowed text.
    public func forEachToken(utf8 bytes: UnsafeBufferPointer<UInt8>, allowedSpecial: SpecialTokenPolicy, _ body: (Token) -> Void) throws {
        _ = try visit(bytes, allowedSpecial: allowedSpecial) { id, start, end in
            body(Token(id: Int(id), bytes: start..<end))
            return false
        }
    }

    /// The ordinary tokens of `bytes[from..<to]`, given to `body` one by one with
    /// their byte ranges (offsets into `bytes`, not into the slice). The slice
    /// is tokenized as a text of its own; special-token strings are plain text.
    public func forEachToken(utf8 bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, _ body: (Token) -> Void) {
        withoutActuallyEscaping(body) { body in
            var sink = VisitingSink { id, start, end in
                body(Token(id: Int(id), bytes: start..<end))
                return false
            }
            run(bytes, from: from, to: to, into: &sink)
        }
    }

    // MARK: Counting to a limit

    /// How many tokens the UTF-8 bytes are under `allowedSpecial` if that is
    /// at most `limit`, else nil (the bpe crate's `count_till_limit`): the
    /// question "does this fit?" without counting the rest of a long text.
    /// Tiktoken's model stops encoding at the first piece past the limit; a
    /// model file's pipeline encodes the whole text.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does;
    ///   special-token text after the place where encoding stops is not read.
    public func count(utf8 bytes: UnsafeBufferPointer<UInt8>, limit: Int, allowedSpecial: SpecialTokenPolicy = .plainText) throws -> Int? {
        guard limit >= 0 else { return nil }
        var count = 0
        let passed = try visit(bytes, allowedSpecial: allowedSpecial) { _, _, _ in
            count &+= 1
            return count > limit
        }
        return passed ? nil : count
    }

    /// The first token of the UTF-8 bytes (under `allowedSpecial`) for which
    /// `isPast(n, token)` holds, where `n` counts the tokens so far, this one
    /// included; with its `n`. Nil when no token passes. Encoding stops there,
    /// as for `count(utf8:limit:allowedSpecial:)`. Where token N starts is
    /// `firstToken(utf8:) { n, _ in n > N }`; a limit that grows with the
    /// text (an estimate priced by character class) is a test on `token.bytes`.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken`, as `encode` does;
    ///   special-token text after the place where encoding stops is not read.
    public func firstToken(
        utf8 bytes: UnsafeBufferPointer<UInt8>, allowedSpecial: SpecialTokenPolicy = .plainText,
        where isPast: (_ n: Int, _ token: Token) -> Bool
    ) throws -> (n: Int, token: Token)? {
        var n = 0
        var found: (n: Int, token: Token)?
        _ = try visit(bytes, allowedSpecial: allowedSpecial) { id, start, end in
            n += 1
            let token = Token(id: Int(id), bytes: start..<end)
            guard isPast(n, token) else { return false }
            found = (n, token)
            return true
        }
        return found
    }

    /// Encodes `bytes` into `visit(id, start, end)`, which returns true when it
    /// needs no more tokens; returns whether it said so. Every caller but
    /// counting and collecting ids comes here (see `VisitingSink`).
    private func visit(
        _ bytes: UnsafeBufferPointer<UInt8>, allowedSpecial: SpecialTokenPolicy, _ visit: (UInt32, Int, Int) -> Bool
    ) throws -> Bool {
        try withoutActuallyEscaping(visit) { visit in
            var sink = VisitingSink(visit: visit)
            try encode(bytes, allowedSpecial: allowedSpecial, into: &sink)
            return sink.isFull
        }
    }

    // MARK: Decoding

    /// The bytes of a sequence of ids (special tokens decode to their text).
    ///
    /// - Throws: `TokenKitError.unknownTokenID` for an id that is neither in
    ///   the vocabulary nor a special token.
    public func decodeBytes(_ ids: [Int]) throws -> [UInt8] {
        if case .openModel(let pipeline) = model { return try pipeline.decoder.decode(ids) }
        var out: [UInt8] = []
        out.reserveCapacity(ids.count * 4)
        for id in ids {
            if let bytes = vocabulary.bytes(of: id) {
                out.append(contentsOf: bytes)
            } else if let special = specialsByID[id] {
                out.append(contentsOf: special.utf8)
            } else {
                throw TokenKitError.unknownTokenID(id)
            }
        }
        return out
    }

    /// The text of a sequence of ids; bytes that are not valid UTF-8 (a token
    /// sequence cut inside a character) become U+FFFD.
    ///
    /// - Throws: `TokenKitError.unknownTokenID`, as `decodeBytes` does.
    public func decode(_ ids: [Int]) throws -> String {
        String(decoding: try decodeBytes(ids), as: UTF8.self)
    }

    // MARK: The one path every call takes

    /// Encodes `bytes` into `sink` and returns how many special tokens it gave.
    @discardableResult
    func encode<Sink: TokenSink>(_ bytes: UnsafeBufferPointer<UInt8>, allowedSpecial: SpecialTokenPolicy, into sink: inout Sink) throws -> Int {
        if specialTokens.isEmpty || allowedSpecial == .plainText {
            run(bytes, from: 0, to: bytes.count, into: &sink)
            return 0
        }
        var start = 0
        var specials = 0
        while !sink.isFull, let (token, range) = specialTokenMatcher.next(in: bytes, from: start) {
            guard allowedSpecial.allows(token) else {
                throw TokenKitError.disallowedSpecialToken(token: token)
            }
            run(bytes, from: start, to: range.lowerBound, into: &sink)
            sink.token(UInt32(specialTokens[token]!), start: range.lowerBound, end: range.upperBound)
            specials += 1
            start = range.upperBound
        }
        run(bytes, from: start, to: bytes.count, into: &sink)
        return specials
    }

    @inline(__always)
    func run<Sink: TokenSink>(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, into sink: inout Sink) {
        if case .openModel(let pipeline) = model {
            pipeline.run(bytes, from: from, to: to, into: &sink)
            return
        }
        guard from < to, let base = bytes.baseAddress else { return }
        let cursor = UTF8Cursor(base: base, end: to, table: .shared)
        switch preTokenizer {
        case .cl100k: scan(Cl100kScanner.self, cursor, from, &sink)
        case .o200k: scan(O200kScanner.self, cursor, from, &sink)
        case .r50k: scan(R50kScanner.self, cursor, from, &sink)
        case .tekken: scan(TekkenScanner.self, cursor, from, &sink)
        case .regex:
            preTokenizer.forEachPiece(in: bytes, from: from, to: to) { a, b in
                if !sink.isFull { encoder.encode(base, a, b, into: &sink) }
            }
        }
    }

    @inline(__always)
    private func scan<S: PieceScanner, Sink: TokenSink>(_ scanner: S.Type, _ cursor: UTF8Cursor, _ from: Int, _ sink: inout Sink) {
        pieceCaches.scan(S.self, cursor, from: from, with: encoder, into: &sink)
    }
}

/// One token of an encoded text: its id and the bytes of the text it stands for.
public struct Token: Equatable, Sendable {
    /// The token id.
    public let id: Int
    /// The byte range of the text the token stands for, as offsets into the
    /// encoded UTF-8 bytes.
    public let bytes: Range<Int>
}

/// Which special tokens `encode` turns into their ids, and what happens to the
/// text of the others.
public enum SpecialTokenPolicy: Equatable, Sendable {
    /// None: the text of any special token is an error (tiktoken's default).
    case none
    /// All of the tokenizer's special tokens.
    case all
    /// Only these; the text of any other special token is an error.
    case only(Set<String>)
    /// Special-token text is plain text (same as `encodeOrdinary`).
    case plainText

    /// Whether the special token whose text is `token` may appear in the text
    /// (`.plainText` allows all: they are not parsed at all).
    public func allows(_ token: String) -> Bool {
        switch self {
        case .none: return false
        case .all, .plainText: return true
        case .only(let set): return set.contains(token)
        }
    }
}

struct TokenCounter: TokenSink {
    var count = 0
    @inline(__always) mutating func token(_ id: UInt32, start: Int, end: Int) { count &+= 1 }

    /// Counting is the kernel's sum (`PieceCache.count(_:kernel:...)`).
    @inline(__always) mutating func takePieceKernel<S: PieceScanner, Encoder: PieceEncoder>(
        _ kernel: PieceKernel.Entries, pattern: PiecePattern, _ scanner: S.Type, _ cursor: UTF8Cursor, from: Int,
        with encoder: Encoder, cache: inout PieceCache
    ) -> Bool {
        cache.count(S.self, kernel: kernel.count, pattern: pattern, cursor, from: from, with: encoder, into: &self)
        return true
    }
}

/// Every sink but the two hot ones (`TokenCounter`, `IDCollector`): it hands
/// each token to `visit`, which says when it needs no more.
///
/// Performance notes. Each sink type is a specialization of the whole
/// encoding path (every scanner, every model file's pipeline, the memo, and
/// the origin mapping of normalized text), so the sinks set TokenKit's build
/// time: with seven sinks, `Tokenizer.swift`'s object code was 2.05 MB, of
/// it 170-220 KB per sink plus 657 KB of origin-mapped copies, most of
/// TokenKit's. Counting to a limit, finding the first token past one,
/// listing tokens and calling back were four sinks of their own; they were
/// folded into this one, whose closure call per token is small beside the
/// token's encoding (and `firstToken` and `forEachToken` already called a
/// closure per token).
struct VisitingSink: TokenSink {
    let visit: (UInt32, Int, Int) -> Bool
    private(set) var isFull = false
    init(visit: @escaping (UInt32, Int, Int) -> Bool) { self.visit = visit }
    @inline(__always) mutating func token(_ id: UInt32, start: Int, end: Int) {
        // A piece's tokens still come after the sink is full: they are not wanted.
        guard !isFull else { return }
        isFull = visit(id, start, end)
    }
}

/// Collects ids straight into the array `encode` returns while they fit the
/// room reserved for them, and the ids past it into memory of its own, grown
/// by doubling. Through `Array.append` each token paid a runtime uniqueness
/// check, and the larger append kept the memo's hit path out of the scan
/// loop: a warm English encode ran 41.2 instructions a byte against count's
/// 30.1 (cachegrind). Collecting into a buffer of its own and copying it out
/// at the end cost a second pass over the ids and twice the fresh pages:
/// warm encode took 1.6× count's CPU time with 1.05× its instructions.
/// Used in place (`inout`) and never copied: a copy would share the buffer.
struct IDCollector: TokenSink {
    /// Owns the memory for the ids past the array's room, so that a
    /// collector dropped part-way (an error thrown mid-text) frees it.
    private final class Spill {
        let ids: UnsafeMutablePointer<Int>
        init(capacity: Int) { ids = .allocate(capacity: capacity) }
        deinit { ids.deallocate() }
    }

    private var spill: Spill?
    /// Where the next id goes: the array's room, then the spill.
    private var ids: UnsafeMutablePointer<Int>
    private var count = 0
    private var capacity: Int
    /// Ids in the array's room, once they spill past it.
    private var inRoom = 0

    private init(_ buffer: UnsafeMutableBufferPointer<Int>) {
        // `Array(unsafeUninitializedCapacity:)` hands over a non-null buffer
        // for any capacity above zero, and `collect` asks for at least 16.
        ids = buffer.baseAddress!
        capacity = buffer.count
    }

    /// The ids `body` passes to the collector it is given. Room is reserved
    /// for one token per two bytes of a text of `expectedBytes`: cl100k's
    /// English averages 4.7 bytes a token, code 4.1 and the CJK corpus 2.4,
    /// so their ids are never copied; a text of denser tokens outgrows it,
    /// and the ids past the room are appended to the array at the end (the
    /// ids in the room move once, when the array grows). Pages of the room
    /// that no id reaches are never touched. With room for one token per three bytes (the CJK
    /// corpus outgrew it), a warm CJK encode ran at half the speed: on this
    /// VM a fresh page costs more than the ids written to it.
    ///
    /// The room is capped at `heapReuseLimit` when that still leaves a token
    /// per three bytes: glibc hands a larger block to `mmap` (fresh, zeroed
    /// pages every call) and a smaller one from its heap, whose pages a
    /// caller encoding text after text reuses. Room for 10 MB of English at
    /// one token per two bytes (40 MB) made its warm encode 20% slower. A
    /// text too long for even that is mapped whatever its room, so it gets
    /// the full token per two bytes.
    static func collect(expectedBytes: Int, _ body: (inout IDCollector) throws -> Void) rethrows -> [Int] {
        let perTwoBytes = expectedBytes / 2 + 16, underLimit = heapReuseLimit / MemoryLayout<Int>.stride
        let room = perTwoBytes > underLimit && expectedBytes / 3 + 16 <= underLimit ? underLimit : perTwoBytes
        var outgrown: (spill: Spill, count: Int)?
        var inPlace = try [Int](unsafeUninitializedCapacity: room) { buffer, initializedCount in
            // The pages a long text's ids will likely fill (`WritablePages`).
            if expectedBytes >= mapAheadLeast {
                WritablePages.map(UnsafeMutableRawPointer(buffer.baseAddress!), Swift.min(buffer.count, expectedBytes / 4) * MemoryLayout<Int>.stride)
            }
            var sink = IDCollector(buffer)
            try body(&sink)
            if let spill = sink.spill {
                initializedCount = sink.inRoom
                outgrown = (spill, sink.count)
            } else {
                initializedCount = sink.count
            }
        }
        if let outgrown { inPlace.append(contentsOf: UnsafeBufferPointer(start: outgrown.spill.ids, count: outgrown.count)) }
        return inPlace
    }

    /// The shortest text whose ids' pages are mapped ahead: below it, the
    /// faults saved are too few to matter.
    static let mapAheadLeast = 1 << 20

    /// Under glibc's largest `mmap` threshold (32 MiB on 64-bit): the
    /// threshold rises to the size of a freed mapped block only if that
    /// block, with its header and flag bits, is at most 32 MiB. Room of
    /// 32 MiB less a page was mapped afresh on every call (`strace`); 31 MiB
    /// leaves the array's header and the allocator's rounding a margin.
    static let heapReuseLimit = 31 << 20

    @inline(__always) mutating func token(_ id: UInt32, start: Int, end: Int) {
        if count == capacity { grow() }
        ids[count] = Int(id)
        count &+= 1
    }

    /// Room for at least `minimum` more ids, for a writer that then says
    /// how many it wrote (`advance(by:)`): the piece kernel
    /// (`PieceCache.encode(_:kernel:...)`).
    @inline(__always) mutating func room(atLeast minimum: Int) -> UnsafeMutableBufferPointer<Int> {
        if capacity &- count < minimum { grow() }
        return UnsafeMutableBufferPointer(start: ids + count, count: capacity &- count)
    }

    /// Counts in `n` ids written to `room(atLeast:)`.
    @inline(__always) mutating func advance(by n: Int) { count &+= n }

    /// The kernel writes the ids into the room (`PieceCache.encode(_:kernel:...)`)
    /// as 64-bit numbers: taken where `Int` is that wide.
    @inline(__always) mutating func takePieceKernel<S: PieceScanner, Encoder: PieceEncoder>(
        _ kernel: PieceKernel.Entries, pattern: PiecePattern, _ scanner: S.Type, _ cursor: UTF8Cursor, from: Int,
        with encoder: Encoder, cache: inout PieceCache
    ) -> Bool {
        guard MemoryLayout<Int>.size == MemoryLayout<Int64>.size else { return false }
        cache.encode(S.self, kernel: kernel.encode, pattern: pattern, cursor, from: from, with: encoder, into: &self)
        return true
    }

    @inline(never) private mutating func grow() {
        // The first spill starts empty, as large as the room; a spill that
        // fills moves to one twice its size.
        let larger = Spill(capacity: spill == nil ? capacity : capacity * 2)
        if spill == nil {
            inRoom = count
            count = 0
        } else {
            larger.ids.initialize(from: ids, count: count)
            capacity *= 2
        }
        spill = larger
        ids = larger.ids
    }
}
