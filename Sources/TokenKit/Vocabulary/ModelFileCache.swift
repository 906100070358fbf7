import Foundation

/// What a merge-list tokenizer read from a model file (GGUF `gpt2` and
/// `gemma4`, a Hugging Face BPE `tokenizer.json`) costs to build: the
/// vocabulary's tables, the pair table, the self-merging bits, the decode
/// table and the special and added tokens, all made from the file's big
/// token and merge arrays. The rest (pre-tokenizer, normalizer) is read from
/// the file each time.
struct PreparedMergeList {
    var encoder: MergeListEncoder
    var decoder: TokenDecoder
    var specialTokens: [String: Int]
    var addedTokens: [AddedTokenMatcher.Entry]
}

/// The binary form of a `PreparedMergeList`, kept in ContextKit's cache folder
/// beside `VocabularyCache`'s files, so that the second run with a 128k-token
/// model file maps the tables instead of parsing the file and rebuilding them.
///
/// A cache file belongs to one version of one model file: its name comes from
/// the file's path, device and inode, and its header records the file's
/// `FileIdentity` (size and modification time to the nanosecond too), this
/// format's version and `VocabularyCache`'s, and a checksum of every table and
/// of the header. A file that was rewritten, even in place and to the same
/// size, has another modification time and is rebuilt (and the cache file
/// replaced); a damaged cache file fails a checksum and is rebuilt. It is
/// read and written with `VocabularyCache`'s arena reader and atomic writer.
/// The cache is an optimisation only: when it cannot be read or written,
/// the tokenizer is built from the file as if it did not exist.
struct ModelFileCache {
    /// Where the cache files go; nil turns the cache off.
    let directory: URL?

    static let magic: UInt64 = 0x3144_4F4D_4B54_4B43  // "CKTKMOD1", little-endian
    /// Bump whenever what is stored, or how any stored table is built, changes.
    static let formatVersion: UInt64 = 2
    static let headerWords = 32
    /// The sections after the header, in order.
    private enum Section: Int, CaseIterable {
        case vocabulary, pairs, selfMerging, byteIDs, decodedBytes, decodedOffsets, decodedKnown, tokens
    }

    /// `tokenkit/models` in ContextKit's cache folder (`CONTEXTKIT_CACHE` overrides it).
    static var standard: ModelFileCache {
        ModelFileCache(directory: VocabularyCache.directory?.appendingPathComponent("tokenkit/models", isDirectory: true))
    }

    /// The cache file for a model file: one per path and file, whatever its version.
    func url(for file: MappedFile) -> URL? {
        var key = Array(file.path.utf8)
        withUnsafeBytes(of: (file.identity.device, file.identity.inode)) { key.append(contentsOf: $0) }
        let hash = Vocabulary.hash(key, key.count)
        return directory?.appendingPathComponent("\(String(hash, radix: 16))-v\(Self.formatVersion).bin")
    }

    /// The header words that say which model file, and which version of it, a cache file is for.
    private static func identityWords(_ file: MappedFile) -> [UInt64] {
        let id = file.identity
        let path = Array(file.path.utf8)
        return [magic, formatVersion, VocabularyCache.formatVersion] + id.words + [
            Vocabulary.hash(path, path.count)
        ]
    }

    /// The tables stored for this version of the model file, or the ones
    /// `build` makes (stored for next time).
    func mergeList(for file: MappedFile, build: () throws -> PreparedMergeList) rethrows -> PreparedMergeList {
        if let cached = load(for: file) { return cached }
        let built = try build()
        store(built, for: file)
        return built
    }

    /// The tables stored for this version of the model file, if a valid cache file is there.
    func load(for file: MappedFile) -> PreparedMergeList? {
        guard let url = url(for: file), let cache = try? MappedFile(path: url.path), cache.count >= Self.headerWords * 8 else { return nil }
        let header = Array(UnsafeBufferPointer(start: cache.base.assumingMemoryBound(to: UInt64.self), count: Self.headerWords))
        let identity = Self.identityWords(file)
        guard Array(header[0..<identity.count]) == identity, header[Self.headerWords - 1] == VocabularyCache.checksum(of: header) else { return nil }
        func word(_ i: Int) -> Int? { header[i] < 1 << 40 ? Int(header[i]) : nil }
        guard let idCount = word(9), let tokenCount = word(10), let byteCount = word(11), let slotCapacity = word(12),
            let pairSlots = word(13), let pairCount = word(14), let decodedIDs = word(17), let decodedBytes = word(18),
            let selfMergingWords = word(19), let tokensSize = word(20), slotCapacity > 0, slotCapacity & (slotCapacity - 1) == 0,
            pairSlots >= 16, pairSlots & (pairSlots - 1) == 0
        else { return nil }
        // The model file's pages were read only to step over its token and
        // merge arrays (GGUF); dropping them before the tables are mapped keeps
        // peak memory at one of the two, not both.
        file.release(file.base, file.count)
        let checksums = Array(header[21..<(21 + Section.allCases.count)])
        var reader = VocabularyCache.ArenaReader(file: cache, offset: Self.headerWords * 8, releasesChecked: true)
        let shape = Vocabulary.Shape(idCount: idCount, tokenCount: tokenCount, byteCount: byteCount, slotCapacity: slotCapacity)
        let sizes: [Section: Int] = [
            .vocabulary: Vocabulary.layout(shape).size, .pairs: PairTable.arenaSize(slotCount: pairSlots),
            .selfMerging: 8 * selfMergingWords, .byteIDs: 4 * 256, .decodedBytes: decodedBytes,
            .decodedOffsets: 4 * (decodedIDs + 1), .decodedKnown: decodedIDs, .tokens: tokensSize
        ]
        var arenas: [TableArena] = []
        for section in Section.allCases {
            guard let arena = reader.next(size: sizes[section]!, checksum: checksums[section.rawValue]) else { return nil }
            arenas.append(arena)
        }
        guard reader.offset == cache.count else { return nil }
        func array<T>(_ section: Section, _: T.Type) -> [T] {
            let arena = arenas[section.rawValue]
            return Array(UnsafeBufferPointer(start: arena.table(T.self, at: 0), count: arena.size / MemoryLayout<T>.stride))
        }
        let flags = header[15]
        let ignoreMerges = flags & 2 != 0
        let vocabulary = Vocabulary(shape: shape, arena: arenas[Section.vocabulary.rawValue])
        let selfMerging = array(.selfMerging, UInt64.self)
        guard let pairs = PairTable(arena: arenas[Section.pairs.rawValue], slotCount: pairSlots, count: pairCount),
            ignoreMerges || selfMerging.count == (idCount + 63) / 64,
            let decoder = TokenDecoder(
                storage: array(.decodedBytes, UInt8.self), offsets: array(.decodedOffsets, UInt32.self),
                known: array(.decodedKnown, UInt8.self).map { $0 != 0 }, dropsLeadingSpace: false),
            let (specials, added) = Self.readTokens(arenas[Section.tokens.rawValue])
        else { return nil }
        let encoder = MergeListEncoder(
            vocabulary: vocabulary, pairs: pairs, byteLevel: flags & 1 != 0, ignoreMerges: ignoreMerges,
            byteIDs: array(.byteIDs, UInt32.self), unknownID: UInt32(truncatingIfNeeded: header[16]),
            fuseUnknown: flags & 4 != 0, byteFallback: flags & 8 != 0, wholeNewlineRuns: flags & 16 != 0, selfMerging: selfMerging)
        return PreparedMergeList(encoder: encoder, decoder: decoder, specialTokens: specials, addedTokens: added)
    }

    /// Stores the tables for this version of the model file; silently does
    /// nothing if the folder cannot be written.
    func store(_ prepared: PreparedMergeList, for file: MappedFile) {
        guard let url = url(for: file) else { return }
        let encoder = prepared.encoder, decoder = prepared.decoder, vocabulary = encoder.vocabulary
        var header = Self.identityWords(file) + [UInt64](repeating: 0, count: Self.headerWords - 9)
        let s = vocabulary.shape
        (header[9], header[10], header[11], header[12]) = (UInt64(s.idCount), UInt64(s.tokenCount), UInt64(s.byteCount), UInt64(s.slotCapacity))
        (header[13], header[14]) = (UInt64(encoder.pairs.slotCount), UInt64(encoder.pairs.count))
        header[15] =
            (encoder.byteLevel ? 1 : 0) | (encoder.ignoreMerges ? 2 : 0) | (encoder.fuseUnknown ? 4 : 0)
            | (encoder.byteFallback ? 8 : 0) | (encoder.wholeNewlineRuns ? 16 : 0)
        header[16] = UInt64(encoder.unknownID)
        let tokens = Self.tokenBytes(prepared.specialTokens, prepared.addedTokens)
        (header[17], header[18], header[19], header[20]) = (
            UInt64(decoder.known.count), UInt64(decoder.storage.count),
            UInt64(encoder.selfMerging.count), UInt64(tokens.count)
        )
        let known = decoder.known.map { UInt8($0 ? 1 : 0) }
        var byteIDs = encoder.byteIDs
        guard byteIDs.count == 256 else { return }
        // Every section as (pointer, size); arrays are pinned for the write below.
        encoder.selfMerging.withUnsafeBytes { selfMerging in
            byteIDs.withUnsafeMutableBytes { byteIDs in
                decoder.storage.withUnsafeBytes { decodedBytes in
                    decoder.offsets.withUnsafeBytes { decodedOffsets in
                        known.withUnsafeBytes { decodedKnown in
                            tokens.withUnsafeBytes { tokens in
                                let sections: [UnsafeRawBufferPointer] = [
                                    UnsafeRawBufferPointer(start: vocabulary.arena.base, count: vocabulary.arena.size),
                                    UnsafeRawBufferPointer(start: encoder.pairs.arena.base, count: encoder.pairs.arena.size),
                                    selfMerging, UnsafeRawBufferPointer(byteIDs), decodedBytes, decodedOffsets, decodedKnown, tokens
                                ]
                                for (i, section) in sections.enumerated() {
                                    header[21 + i] = TableArena.checksum(section.baseAddress ?? UnsafeRawPointer(bitPattern: 8)!, section.count)
                                }
                                header[Self.headerWords - 1] = VocabularyCache.checksum(of: header)
                                header.withUnsafeBytes { h in
                                    VocabularyCache.writeAtomically(url, [(h.baseAddress!, h.count)] + sections.map { ($0.baseAddress ?? h.baseAddress!, $0.count) })
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: Special and added tokens

    /// Specials (by id) then added tokens, each `id, flags, length, bytes` in 32-bit words and bytes.
    private static func tokenBytes(_ specials: [String: Int], _ added: [AddedTokenMatcher.Entry]) -> [UInt8] {
        var out: [UInt8] = []
        func put(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { out.append(contentsOf: $0) } }
        put(specials.count)
        for (text, id) in specials.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            put(id); put(0); put(text.utf8.count); out.append(contentsOf: text.utf8)
        }
        put(added.count)
        for entry in added {
            put(entry.id)
            put((entry.stripLeft ? 1 : 0) | (entry.stripRight ? 2 : 0) | (entry.singleWord ? 4 : 0))
            put(entry.text.count); out.append(contentsOf: entry.text)
        }
        return out
    }

    private static func readTokens(_ arena: TableArena) -> ([String: Int], [AddedTokenMatcher.Entry])? {
        let bytes = UnsafeRawBufferPointer(start: arena.base, count: arena.size)
        var at = 0
        func get() -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            defer { at += 4 }
            return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        }
        func text(_ n: Int) -> [UInt8]? {
            guard n <= bytes.count - at else { return nil }
            defer { at += n }
            return Array(bytes[at..<(at + n)])
        }
        var specials: [String: Int] = [:]
        guard let specialCount = get() else { return nil }
        for _ in 0..<specialCount {
            guard let id = get(), get() != nil, let n = get(), let t = text(n) else { return nil }
            specials[String(decoding: t, as: UTF8.self)] = id
        }
        var added: [AddedTokenMatcher.Entry] = []
        guard let addedCount = get() else { return nil }
        for _ in 0..<addedCount {
            guard let id = get(), let flags = get(), let n = get(), let t = text(n) else { return nil }
            added.append(AddedTokenMatcher.Entry(text: t, id: id, stripLeft: flags & 1 != 0, stripRight: flags & 2 != 0, singleWord: flags & 4 != 0))
        }
        return at == bytes.count ? (specials, added) : nil
    }
}
