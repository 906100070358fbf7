/// The bytes each id of a model-file tokenizer decodes to: byte-level tokens
/// mapped back to bytes, SentencePiece's `▁` as a space and `<0xNN>` as the
/// byte, added and special tokens as their text.
struct TokenDecoder: Sendable {
    let storage: [UInt8]
    let offsets: [UInt32]  // id → storage[offsets[id]..<offsets[id + 1]]
    let known: [Bool]
    /// SentencePiece adds a space before the text; decoding takes it off again.
    let dropsLeadingSpace: Bool

    /// `pieces[id]` is the token's decoded bytes, nil for an unused id.
    init(pieces: [[UInt8]?], dropsLeadingSpace: Bool) {
        var storage: [UInt8] = []
        var offsets: [UInt32] = [0]
        var known: [Bool] = []
        offsets.reserveCapacity(pieces.count + 1)
        for piece in pieces {
            storage.append(contentsOf: piece ?? [])
            offsets.append(UInt32(storage.count))
            known.append(piece != nil)
        }
        self.storage = storage
        self.offsets = offsets
        self.known = known
        self.dropsLeadingSpace = dropsLeadingSpace
    }

    /// The tables as another decoder has them (`ModelFileCache`); nil unless they fit together.
    init?(storage: [UInt8], offsets: [UInt32], known: [Bool], dropsLeadingSpace: Bool) {
        guard offsets.count == known.count + 1, offsets.first == 0, offsets.last == UInt32(storage.count),
            zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 })
        else { return nil }
        self.storage = storage
        self.offsets = offsets
        self.known = known
        self.dropsLeadingSpace = dropsLeadingSpace
    }

    /// The same tables, decoding with or without SentencePiece's leading space.
    func droppingLeadingSpace(_ drops: Bool) -> TokenDecoder {
        TokenDecoder(storage: storage, offsets: offsets, known: known, dropsLeadingSpace: drops)!
    }

    /// The decoded bytes of one id.
    func bytes(of id: Int) -> ArraySlice<UInt8>? {
        guard id >= 0, id < known.count, known[id] else { return nil }
        return storage[Int(offsets[id])..<Int(offsets[id + 1])]
    }

    /// The bytes of a sequence of ids.
    func decode(_ ids: [Int]) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(ids.count * 4)
        for id in ids {
            guard let bytes = bytes(of: id) else { throw TokenKitError.unknownTokenID(id) }
            out.append(contentsOf: bytes)
        }
        if dropsLeadingSpace, out.first == 0x20 { out.removeFirst() }
        return out
    }
}
