/// SentencePiece's normalizer (`normalizer::Normalizer::Normalize`) as its
/// `NormalizerSpec` sets it up: each character (or the longest charsmap rule,
/// or a user-defined symbol, left as it is) is rewritten in turn; leading,
/// trailing and repeated spaces are dropped (`remove_extra_whitespaces`);
/// spaces become `▁` (`escape_whitespaces`); one `▁` goes before the text, or
/// after it when the model treats whitespace as a suffix (`add_dummy_prefix`).
/// Invalid UTF-8 becomes U+FFFD, one byte at a time, as there.
struct SentencePieceNormalizer: Sendable {
    let charsmap: PrecompiledCharsmap?
    let addDummyPrefix: Bool
    let removeExtraWhitespaces: Bool
    let escapeWhitespaces: Bool
    let treatWhitespaceAsSuffix: Bool
    /// The user-defined symbols, which are never normalized.
    let userDefined: UserDefinedSymbols
    /// Characters of two or three bytes that stay as they are, one bit per
    /// scalar value below 0x10000: no user-defined symbol starts with their
    /// first byte, and no charsmap rule may start with them
    /// (`PrecompiledCharsmap.mayHaveRule`), so they are copied without
    /// looking for one.
    private let keptCharacters: [UInt64]
    /// The same for an ASCII character followed by a byte, one bit per pair
    /// (`first << 8 | second`): no symbol starts with the first and no rule
    /// may start with the two. With a space first, the space is escaped as
    /// any space is.
    private let keptPairs: [UInt64]

    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    init(
        charsmap: PrecompiledCharsmap?, addDummyPrefix: Bool, removeExtraWhitespaces: Bool, escapeWhitespaces: Bool, treatWhitespaceAsSuffix: Bool,
        userDefined: UserDefinedSymbols
    ) {
        self.charsmap = charsmap
        self.addDummyPrefix = addDummyPrefix
        self.removeExtraWhitespaces = removeExtraWhitespaces
        self.escapeWhitespaces = escapeWhitespaces
        self.treatWhitespaceAsSuffix = treatWhitespaceAsSuffix
        self.userDefined = userDefined
        var characters = [UInt64](repeating: 0, count: 1 << 10)
        var pairs = [UInt64](repeating: 0, count: 1 << 9)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3) { buffer in
            let bytes = buffer.baseAddress!
            // Whether a rule may start with `bytes[0..<count]`, after none of
            // `userDefined` does with `bytes[0]`.
            func mayChange(_ count: Int) -> Bool {
                charsmap?.mayHaveRule(startingWith: bytes, count: count) ?? false
            }
            // One word is 64 pairs with one first byte, or the 64 characters
            // with the same bytes but the last: when a rule may start with
            // none of their common bytes, the word is set whole, with no walk
            // of its own (most of them: the tables of nmt_nfkc take 1.8M
            // instructions at load, 7.8M with a walk for every character).
            func fill(_ word: inout UInt64, common: Int, lastByteAt last: Int, from first: Int) {
                guard mayChange(common) else {
                    word = .max
                    return
                }
                for bit in 0..<64 {
                    bytes[last] = UInt8(first + bit)
                    if !mayChange(last + 1) { word |= 1 << UInt64(bit) }
                }
            }
            for first in 0..<0x80 where userDefined.isEmpty || !userDefined.firstBytes[first] {
                bytes[0] = UInt8(first)
                for k in 0..<4 { fill(&pairs[first << 2 | k], common: 1, lastByteAt: 1, from: k << 6) }
            }
            for lead in 0xC2...0xEF where userDefined.isEmpty || !userDefined.firstBytes[lead] {
                bytes[0] = UInt8(lead)
                if lead < 0xE0 {
                    fill(&characters[lead & 0x1F], common: 1, lastByteAt: 1, from: 0x80)
                    continue
                }
                for second in 0x80...0xBF {
                    let word = (lead & 0x0F) << 6 | (second & 0x3F)
                    // Overlong forms and surrogates are not characters.
                    guard word >= 0x20, !(0x360..<0x380).contains(word) else { continue }
                    bytes[1] = UInt8(second)
                    fill(&characters[word], common: 2, lastByteAt: 2, from: 0x80)
                }
            }
        }
        keptCharacters = characters
        keptPairs = pairs
    }

    /// The normalized form of `p[from..<to]`; `origins` maps `p` to the input (nil: `p` is the input).
    func normalize(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, origins: [Int32]?) -> NormalizedText {
        @inline(__always) func origin(_ k: Int) -> Int32 { origins?[k] ?? Int32(k) }
        var i = from
        if removeExtraWhitespaces {
            while i < to {
                let (rule, length) = prefix(p, i, to)
                let isSpace = rule.map { $0.count == 1 && $0.first == 0x20 } ?? (length == 1 && p[i] == 0x20)
                guard isSpace else { break }
                i += length
            }
        }
        guard i < to else {
            var out = NormalizedText(capacity: 0)
            out.origins.append(origin(to))
            return out
        }
        let space: [UInt8] = escapeWhitespaces ? GGUFFile.metaSpace : [0x20]
        var out = Writer(capacity: (to - i) * 3 / 2 + 4, space: space, previousIsSpace: removeExtraWhitespaces)
        defer { out.deallocate() }
        if !treatWhitespaceAsSuffix && addDummyPrefix { out.appendSpace(from: origin(i)) }
        while i < to {
            let b = p[i]
            if b < 0x80 {
                if i &+ 1 < to {
                    let pair = Int(b) << 8 | Int(p[i &+ 1])
                    if keptPairs[pair >> 6] & (1 << (pair & 63)) != 0 {
                        if b == 0x20 { out.appendSpaceUnlessAfterSpace(from: origin(i), removingExtra: removeExtraWhitespaces) } else { out.append(p + i, 1, from: origin(i)) }
                        i &+= 1
                        continue
                    }
                }
            } else {
                let (value, length) = UTF8Decoder.multiByteScalar(p, at: i, end: to, lead: UInt32(b))
                if length > 0 && value < 0x10000 && keptCharacters[Int(value >> 6)] & (1 << (value & 63)) != 0 {
                    out.append(p + i, length, from: origin(i))
                    i &+= length
                    continue
                }
            }
            let (rule, length) = prefix(p, i, to)
            if let rule {
                out.append(rule, from: origin(i))
            } else {
                out.append(UnsafeBufferPointer(start: p + i, count: length), from: origin(i))
            }
            i += length
            if !removeExtraWhitespaces { out.previousIsSpace = false }
        }
        var text = out.finish()
        var consumed = origin(to)
        if removeExtraWhitespaces {
            while text.bytes.count >= space.count && text.bytes.suffix(space.count).elementsEqual(space) {
                let length = text.bytes.count - space.count
                consumed = text.origins[length]
                text.bytes.removeLast(space.count)
                text.origins.removeLast(space.count)
            }
        }
        if treatWhitespaceAsSuffix && addDummyPrefix { text.append(space, from: consumed) }
        text.origins.append(consumed)
        return text
    }

    /// The normalized bytes and their origins, gathered in a small buffer and
    /// moved to the text's arrays a few thousand bytes at a time: appending
    /// each byte to the arrays checked their uniqueness and capacity per byte
    /// (`swift_isUniquelyReferenced` alone was a tenth of the time on CJK text).
    private struct Writer {
        private static let chunk = 4096
        private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        private let origins = UnsafeMutablePointer<Int32>.allocate(capacity: chunk)
        private var count = 0
        private var text: NormalizedText
        /// What a space becomes.
        private let space: [UInt8]
        /// Whether the text so far ends with a space, after which spaces are dropped.
        var previousIsSpace: Bool

        init(capacity: Int, space: [UInt8], previousIsSpace: Bool) {
            text = NormalizedText(capacity: capacity)
            self.space = space
            self.previousIsSpace = previousIsSpace
        }

        @inline(__always)
        private mutating func append(_ b: UInt8, from origin: Int32) {
            if count == Self.chunk { flush() }
            bytes[count] = b
            origins[count] = origin
            count &+= 1
        }

        mutating func appendSpace(from origin: Int32) {
            for b in space { append(b, from: origin) }
        }

        /// Appends a space of the text, as `append([0x20], from:)` does:
        /// escaped, or dropped after a space; `removingExtra` says whether
        /// spaces after it are dropped.
        @inline(__always)
        mutating func appendSpaceUnlessAfterSpace(from origin: Int32, removingExtra: Bool) {
            if !previousIsSpace { appendSpace(from: origin) }
            previousIsSpace = removingExtra
        }

        /// Appends the `length` (at most 4) bytes of a character at `p`,
        /// which has no space, all from `origin`.
        @inline(__always)
        mutating func append(_ p: UnsafePointer<UInt8>, _ length: Int, from origin: Int32) {
            if count &+ length > Self.chunk { flush() }
            for k in 0..<length {
                bytes[count &+ k] = p[k]
                origins[count &+ k] = origin
            }
            count &+= length
            previousIsSpace = false
        }

        /// Appends what the text at `origin` became, spaces escaped and, after a space, dropped.
        mutating func append<Piece: RandomAccessCollection>(_ piece: Piece, from origin: Int32) where Piece.Element == UInt8 {
            var s = piece.startIndex
            while previousIsSpace && s < piece.endIndex && piece[s] == 0x20 { s = piece.index(after: s) }
            guard s < piece.endIndex else { return }
            for b in piece[s...] {
                if b == 0x20 { appendSpace(from: origin) } else { append(b, from: origin) }
            }
            previousIsSpace = piece.last == 0x20
        }

        private mutating func flush() {
            text.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            text.origins.append(contentsOf: UnsafeBufferPointer(start: origins, count: count))
            count = 0
        }

        /// The text so far, without the end's origin.
        mutating func finish() -> NormalizedText {
            flush()
            return text
        }

        func deallocate() {
            bytes.deallocate()
            origins.deallocate()
        }
    }

    /// `Normalizer::NormalizePrefix`: what the text at `i` becomes — a rule's
    /// replacement, or nil for the text's own bytes, which are not copied (a
    /// copy per character was most of the normalizer's time) — and how many
    /// bytes it takes.
    @inline(__always)
    private func prefix(_ p: UnsafePointer<UInt8>, _ i: Int, _ to: Int) -> (ArraySlice<UInt8>?, Int) {
        let symbol = userDefined.longestMatch(p, i, to)
        if symbol > 0 { return (nil, symbol) }
        if let charsmap, let rule = charsmap.longestRule(p, i, to) { return (rule.replacement, rule.length) }
        let length = UTF8Decoder.scalar(p, at: i, end: to).length
        if length == 0 { return (Self.replacementCharacter[...], 1) }
        return (nil, length)
    }
}

/// SentencePiece's user-defined symbols (`PrefixMatcher`): the longest one
/// that a text starts with, looked up by its length in the model's pieces.
struct UserDefinedSymbols: Sendable {
    let pieces: Vocabulary?
    /// Which ids are user-defined symbols.
    let isSymbol: [Bool]
    /// The symbols' lengths in bytes, longest first.
    let lengths: [Int]
    /// Bytes a symbol starts with.
    let firstBytes: [Bool]

    static let none = UserDefinedSymbols(pieces: nil, isSymbol: [], lengths: [], firstBytes: [])

    /// The symbols among `pieces` whose ids are `ids`.
    init(pieces: Vocabulary?, isSymbol: [Bool], lengths: [Int], firstBytes: [Bool]) {
        self.pieces = pieces
        self.isSymbol = isSymbol
        self.lengths = lengths
        self.firstBytes = firstBytes
    }

    init(pieces: Vocabulary, ids: [Int]) {
        var isSymbol = [Bool](repeating: false, count: pieces.idCount)
        var lengths = Set<Int>()
        var first = [Bool](repeating: false, count: 256)
        for id in ids {
            guard let b = pieces.bytes(of: id) else { continue }
            isSymbol[id] = true
            lengths.insert(b.count)
            first[Int(b[0])] = true
        }
        self.init(pieces: ids.isEmpty ? nil : pieces, isSymbol: isSymbol, lengths: lengths.sorted(by: >), firstBytes: first)
    }

    var isEmpty: Bool { pieces == nil }

    /// The length of the longest symbol `p[i..<end]` starts with, 0 for none.
    @inline(__always)
    func longestMatch(_ p: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        guard let pieces, firstBytes[Int(p[i])] else { return 0 }
        for n in lengths where n <= end - i {
            if let id = pieces.id(of: p + i, count: n), isSymbol[Int(id)] { return n }
        }
        return 0
    }
}
