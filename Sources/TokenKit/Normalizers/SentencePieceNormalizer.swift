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

    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// The normalized form of `p[from..<to]`; `origins` maps `p` to the input (nil: `p` is the input).
    func normalize(_ p: UnsafePointer<UInt8>, _ from: Int, _ to: Int, origins: [Int32]?) -> NormalizedText {
        @inline(__always) func origin(_ k: Int) -> Int32 { origins?[k] ?? Int32(k) }
        var out = NormalizedText(capacity: (to - from) * 3 / 2 + 4)
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
            out.origins.append(origin(to))
            return out
        }
        let space: [UInt8] = escapeWhitespaces ? GGUFFile.metaSpace : [0x20]
        var consumed = origin(i)
        if !treatWhitespaceAsSuffix && addDummyPrefix { out.append(space, from: consumed) }
        var previousIsSpace = removeExtraWhitespaces
        // Appends what the text at `i` became, spaces escaped and, after a space, dropped.
        func append<Piece: RandomAccessCollection>(_ piece: Piece) where Piece.Element == UInt8 {
            var s = piece.startIndex
            while previousIsSpace && s < piece.endIndex && piece[s] == 0x20 { s = piece.index(after: s) }
            guard s < piece.endIndex else { return }
            for b in piece[s...] {
                if b == 0x20 { out.append(space, from: consumed) } else { out.bytes.append(b); out.origins.append(consumed) }
            }
            previousIsSpace = piece.last == 0x20
        }
        while i < to {
            let (rule, length) = prefix(p, i, to)
            consumed = origin(i)
            if let rule { append(rule) } else { append(UnsafeBufferPointer(start: p + i, count: length)) }
            i += length
            if !removeExtraWhitespaces { previousIsSpace = false }
        }
        consumed = origin(to)
        if removeExtraWhitespaces {
            while out.bytes.count >= space.count && out.bytes.suffix(space.count).elementsEqual(space) {
                let length = out.bytes.count - space.count
                consumed = out.origins[length]
                out.bytes.removeLast(space.count)
                out.origins.removeLast(space.count)
            }
        }
        if treatWhitespaceAsSuffix && addDummyPrefix { out.append(space, from: consumed) }
        out.origins.append(consumed)
        return out
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
