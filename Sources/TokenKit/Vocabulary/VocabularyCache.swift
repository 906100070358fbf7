import Foundation

/// The binary form of a prepared vocabulary (hash tables, merge tree, trie),
/// kept in ContextKit's cache folder so that a process loads a built-in
/// encoding with one read instead of parsing the `.tiktoken` file and
/// rebuilding every table (about half a second for cl100k).
///
/// A file is used only if its header names the source file's checksum (the
/// shipped checksum, verified on the source before the file was written),
/// this format version and the host's byte order, and every table's checksum
/// matches: a stale, truncated or damaged file is ignored and rewritten. The
/// header also keeps the identity (`FileIdentity`) the source had when it was
/// verified: while the source still has it, a load need not read and hash the
/// source again (1.7 MB for cl100k, about 1 ms of a 5.4 ms start-up). Writes go to a temporary
/// file renamed into place, so readers never see half a file. The cache is an
/// optimisation only: any failure to read or write it falls back to building.
enum VocabularyCache {
    static let magic: UInt64 = 0x3143_4F56_4B54_4B43  // "CKTKVOC1", little-endian
    /// Bump whenever the layout of a table, or the way any table is built, changes.
    static let formatVersion: UInt64 = 4
    /// Words 0–14 describe the tables, 15–19 the source's identity, the last is the header's checksum.
    static let headerWords = 24
    static let sourceIdentityWords = 15..<20

    /// The platform's cache folder for ContextKit (`StorageFolders.cache`), or nil when it has none.
    static var directory: URL? { StorageFolders.cache() }

    static func url(name: String, sourceChecksum: UInt64) -> URL? {
        directory?.appendingPathComponent("tokenkit/\(name)-\(String(sourceChecksum, radix: 16))-v\(formatVersion).bin")
    }

    /// The prepared vocabulary stored for this source, if a valid file is
    /// there, and the identity its source had when it was verified.
    static func load(name: String, sourceChecksum: UInt64) -> (vocabulary: Vocabulary, verifiedSource: FileIdentity?)? {
        guard let url = url(name: name, sourceChecksum: sourceChecksum),
            let file = try? MappedFile(path: url.path, readAhead: true), file.count >= headerWords * 8
        else { return nil }
        let header = UnsafeBufferPointer(start: file.base.assumingMemoryBound(to: UInt64.self), count: headerWords)
        guard header[0] == magic, header[1] == formatVersion, header[2] == sourceChecksum,
            header[headerWords - 1] == checksum(of: Array(header))
        else { return nil }
        var reader = ArenaReader(file: file, offset: headerWords * 8)
        let shape = Vocabulary.Shape(
            idCount: Int(header[3]), tokenCount: Int(header[4]),
            byteCount: Int(header[5]), slotCapacity: Int(header[6]))
        guard let vocabularyArena = reader.next(size: Vocabulary.layout(shape).size, checksum: header[12]) else { return nil }
        let vocabulary = Vocabulary(shape: shape, arena: vocabularyArena)
        if header[7] == 1 {
            let treeShape = MergeTree.Shape(idCount: Int(header[8]), pairCapacity: Int(header[9]))
            let trieShape = TokenTrie.Shape(idCount: Int(header[10]), cellCount: Int(header[11]))
            guard treeShape.idCount == shape.idCount, trieShape.idCount == shape.idCount,
                let treeArena = reader.next(size: MergeTree.layout(treeShape).size, checksum: header[13]),
                let trieArena = reader.next(size: TokenTrie.layout(trieShape).size, checksum: header[14])
            else { return nil }
            vocabulary.attach(MergeTables(treeShape: treeShape, treeArena: treeArena, trieShape: trieShape, trieArena: trieArena))
        }
        guard reader.offset == file.count else { return nil }
        return (vocabulary, FileIdentity(words: header[sourceIdentityWords]))
    }

    /// Slices consecutive arenas (each a multiple of 8 bytes) out of a mapped file, checking each.
    struct ArenaReader {
        let file: MappedFile
        var offset: Int
        /// Hand each arena's pages back once checked (for a file mapped without read-ahead).
        var releasesChecked = false

        mutating func next(size: Int, checksum: UInt64) -> TableArena? {
            let padded = (size + 7) & ~7
            guard size >= 0, offset + padded <= file.count else { return nil }
            let arena = TableArena(mapping: file, offset: offset, size: size)
            guard TableArena.checksum(arena.base, size, releasingFrom: releasesChecked ? file : nil) == checksum else { return nil }
            offset += padded
            return arena
        }
    }

    /// Stores a prepared vocabulary, built from a source whose checksum was
    /// verified while it had the identity `verifiedSource` (nil: not known);
    /// silently does nothing if the folder is not writable.
    static func store(_ vocabulary: Vocabulary, name: String, sourceChecksum: UInt64, verifiedSource: FileIdentity?) {
        guard let url = url(name: name, sourceChecksum: sourceChecksum) else { return }
        var header = [UInt64](repeating: 0, count: headerWords)
        header[0] = magic
        header[1] = formatVersion
        header[2] = sourceChecksum
        let s = vocabulary.shape
        (header[3], header[4], header[5], header[6]) = (UInt64(s.idCount), UInt64(s.tokenCount), UInt64(s.byteCount), UInt64(s.slotCapacity))
        header[12] = vocabulary.arena.checksum()
        var arenas = [vocabulary.arena]
        if let tables = vocabulary.mergeTables {
            header[7] = 1
            (header[8], header[9]) = (UInt64(tables.treeShape.idCount), UInt64(tables.treeShape.pairCapacity))
            (header[10], header[11]) = (UInt64(tables.trieShape.idCount), UInt64(tables.trieShape.cellCount))
            header[13] = tables.treeArena.checksum()
            header[14] = tables.trieArena.checksum()
            arenas += [tables.treeArena, tables.trieArena]
        }
        if let verifiedSource { header[sourceIdentityWords] = verifiedSource.words[...] }
        header[headerWords - 1] = checksum(of: header)
        header.withUnsafeBytes { h in
            writeAtomically(url, [(h.baseAddress!, h.count)] + arenas.map { (UnsafeRawPointer($0.base), $0.size) })
        }
    }

    /// Writes the chunks, each padded with zeros to a multiple of 8 bytes, to a
    /// temporary file beside `url` and renames it into place; on any failure
    /// leaves nothing behind.
    static func writeAtomically(_ url: URL, _ chunks: [(UnsafeRawPointer, Int)]) {
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { return }
        var ok = true
        var zeros: UInt64 = 0
        for (p, count) in chunks where ok {
            ok = writeFully(fd, p, count) && writeFully(fd, &zeros, (8 - count % 8) % 8)
        }
        close(fd)
        if !ok || rename(temporary.path, url.path) != 0 { unlink(temporary.path) }
    }

    /// The checksum of a header, kept in its last word: of every word before it.
    static func checksum(of header: [UInt64]) -> UInt64 {
        header.withUnsafeBytes { Vocabulary.hash($0.baseAddress!.assumingMemoryBound(to: UInt8.self), (header.count - 1) * 8) }
    }

    static func writeFully(_ fd: Int32, _ p: UnsafeRawPointer, _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = write(fd, p + done, count - done)
            if n <= 0 { return false }
            done += n
        }
        return true
    }
}
