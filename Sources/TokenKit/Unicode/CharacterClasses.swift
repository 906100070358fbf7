import Foundation

/// The Unicode properties the pre-tokenizer patterns ask about, as bits of one byte.
///
/// The patterns of the OpenAI encodings and of llama.cpp's pre types only ever
/// test a character for a handful of classes (`\p{L}`, `\p{N}`, `\s`, o200k's
/// case-aware letter sets), so one byte per code point answers every question
/// with a single table load.
public struct CharacterClass: OptionSet, Sendable, Hashable {
    /// The classes as bits, one per class below (the byte the table stores).
    public let rawValue: UInt8
    /// The classes whose bits are set in `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `\p{L}`: any letter.
    public static let letter = CharacterClass(rawValue: 1 << 0)
    /// `\p{N}`: any number.
    public static let number = CharacterClass(rawValue: 1 << 1)
    /// `\p{M}`: any mark.
    public static let mark = CharacterClass(rawValue: 1 << 2)
    /// `\s`: the Unicode `White_Space` property (what Rust's and ICU's `\p{White_Space}` match).
    public static let whitespace = CharacterClass(rawValue: 1 << 3)
    /// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`.
    public static let upperish = CharacterClass(rawValue: 1 << 4)
    /// o200k's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`.
    public static let lowerish = CharacterClass(rawValue: 1 << 5)
    /// `\p{P}`: any punctuation (llama.cpp's pre types ask for it).
    public static let punctuation = CharacterClass(rawValue: 1 << 6)
    /// `\p{S}`: any symbol.
    public static let symbol = CharacterClass(rawValue: 1 << 7)

    // The sets the scanners test on every character, written as raw values:
    // an array literal of classes (`[.letter, .number]`) in a scan loop was
    // built as an array and released again on every test (in a release
    // build, `perf` put a fifth of a Qwen 2 count's samples there).
    /// `[\p{L}\p{N}]`.
    @inlinable static var letterOrNumber: CharacterClass { CharacterClass(rawValue: 1 << 0 | 1 << 1) }
    /// `[\s\p{L}\p{N}]`: what ends a run of punctuation.
    @inlinable static var letterNumberOrSpace: CharacterClass { CharacterClass(rawValue: 1 << 0 | 1 << 1 | 1 << 3) }
}

/// A two-stage lookup table from code point to `CharacterClass`, built once
/// from the build's Unicode source (`UnicodeData`, Unicode 15.0) and the
/// changes to the Unicode version the tokenizer's peer decides by
/// (`UnicodeVersion`).
///
/// Per-character `Unicode.Scalar.Properties` calls cost 15× too much on the hot
/// path; a table built once and shared turns each question into two loads
/// (one for ASCII). Blocks of 256 code points with identical contents share
/// storage, so the whole of Unicode fits in about 60 KB. Classifying all of
/// Unicode takes about 25 ms, a large part of a short process's life, so the
/// table is kept in the cache folder (next to `VocabularyCache`'s files, keyed
/// by the source and its version and checked by checksum) and read back in
/// well under a millisecond.
public final class CharacterClassTable: @unchecked Sendable {
    // @unchecked Sendable: the table is built or read back in init and never written again.
    /// The table of Unicode 16.0, which tiktoken, Hugging Face tokenizers and
    /// ICU decide by: every tokenizer's but llama.cpp's; read or built on first use.
    public static let shared = CharacterClassTable(.v16_0)
    /// The table of Unicode 15.1, which llama.cpp's own tables follow: the
    /// tokenizers read from GGUF files.
    public static let llamaCpp = CharacterClassTable(.v15_1)

    /// The Unicode version a table follows. The peers that define the ids do
    /// not share one: measured with a sample of the characters each version
    /// added (`scripts/generate-unicode-class-changes.py` says how), tiktoken
    /// 0.14, Hugging Face tokenizers 0.23 and ICU answer as 16.0 does and
    /// llama.cpp as 15.1 does, so a letter new in 16.0 is a letter to the
    /// first three and an unassigned code point to llama.cpp.
    public enum UnicodeVersion: Sendable {
        /// Unicode 15.1 (llama.cpp).
        case v15_1
        /// Unicode 16.0 (tiktoken, Hugging Face tokenizers, ICU).
        case v16_0

        /// The code points whose classes differ from Unicode 15.0's, as
        /// (first, last, classes) runs (`CharacterClassChanges.swift`).
        var changesSince15: [(UInt32, UInt32, UInt8)] {
            switch self {
            case .v15_1: return Self.changesIn15_1
            case .v16_0: return Self.changesIn16_0
            }
        }

        /// The version as it appears in the cache file's name.
        var name: String { self == .v15_1 ? "15.1" : "16.0" }
    }

    private static let blockCount = 0x1100
    private let arena: TableArena
    private let blockIndex: UnsafeMutablePointer<UInt16>  // blockCount entries
    private let blocks: UnsafeMutablePointer<UInt8>  // distinct blocks × 256
    /// Block 0 (U+0000–U+00FF), for the ASCII fast path.
    private let latin: UnsafeMutablePointer<UInt8>
    /// For each run of 16 code points in U+0800–U+FFFF (the three-byte
    /// characters, indexed by `value >> 4`): their classes when all 16 are
    /// scalars with the same, non-empty classes (runs of CJK ideographs,
    /// kana, Hangul), else 0; derived from the blocks at start-up.
    @usableFromInline let threeByteRunClasses: UnsafePointer<UInt8>

    private static func layout(distinctBlocks: Int) -> (size: Int, index: Int, blocks: Int) {
        var a = ArenaLayout()
        let index = a.reserve(UInt16.self, blockCount)
        let blocks = a.reserve(UInt8.self, distinctBlocks * 256)
        return (a.size, index, blocks)
    }

    private init(_ version: UnicodeVersion) {
        // The name carries the source with its version, the version the table
        // follows and this table's format: bump the `v` whenever
        // `characterClasses(of:)`, the changes or the layout change.
        let cacheURL = VocabularyCache.directory?.appendingPathComponent(
            "tokenkit/unicode-classes-\(UnicodeData.cacheKey)-as-\(version.name)-v2.bin")
        let (distinct, arena) = cacheURL.flatMap(Self.load) ?? Self.build(version, storingAt: cacheURL)
        let l = Self.layout(distinctBlocks: distinct)
        self.arena = arena
        blockIndex = arena.table(UInt16.self, at: l.index)
        blocks = arena.table(UInt8.self, at: l.blocks)
        latin = blocks + Int(blockIndex[0]) * 256
        let runs = UnsafeMutablePointer<UInt8>.allocate(capacity: 4_096)
        for run in 0..<4_096 {
            let first = UInt32(run) << 4
            let block = blocks + Int(blockIndex[Int(first >> 8)]) * 256 + Int(first & 0xFF)
            // Overlong forms (below U+0800) and surrogates are not characters:
            // the decoder, not this table, must see those.
            let valid = first >= 0x800 && !(0xD800...0xDFFF).contains(first)
            runs[run] = valid && (1..<16).allSatisfy { block[$0] == block[0] } ? block[0] : 0
        }
        threeByteRunClasses = UnsafePointer(runs)
    }

    deinit { threeByteRunClasses.deallocate() }

    private static func build(_ version: UnicodeVersion, storingAt url: URL?) -> (Int, TableArena) {
        var all = baseClasses()
        for (first, last, classes) in version.changesSince15 {
            for codePoint in first...last { all[Int(codePoint)] = classes }
        }
        var uniqueBlocks: [[UInt8]] = []
        var blockNumber: [[UInt8]: UInt16] = [:]
        var index = [UInt16](repeating: 0, count: blockCount)
        for high in 0..<blockCount {
            let block = Array(all[high << 8..<(high + 1) << 8])
            if let number = blockNumber[block] {
                index[high] = number
            } else {
                let number = UInt16(uniqueBlocks.count)
                uniqueBlocks.append(block)
                blockNumber[block] = number
                index[high] = number
            }
        }
        let l = layout(distinctBlocks: uniqueBlocks.count)
        let arena = TableArena(size: l.size)
        index.withUnsafeBufferPointer { arena.table(UInt16.self, at: l.index).update(from: $0.baseAddress!, count: blockCount) }
        for (number, contents) in uniqueBlocks.enumerated() {
            contents.withUnsafeBufferPointer {
                (arena.table(UInt8.self, at: l.blocks) + number * 256).update(from: $0.baseAddress!, count: 256)
            }
        }
        if let url {
            let header: [UInt64] = [UInt64(uniqueBlocks.count), arena.checksum()]
            header.withUnsafeBytes { h in
                VocabularyCache.writeAtomically(url, [(h.baseAddress!, h.count), (UnsafeRawPointer(arena.base), arena.size)])
            }
        }
        return (uniqueBlocks.count, arena)
    }

    /// The Unicode 15.0 classes of every code point, from the build's source.
    static func baseClasses() -> [UInt8] {
        (0..<UInt32(blockCount << 8)).map { UnicodeData.characterClasses(of: $0).rawValue }
    }

    /// The stored table, if the file is whole: every block number in range, checksum matching.
    private static func load(_ url: URL) -> (Int, TableArena)? {
        guard let file = try? MappedFile(path: url.path, readAhead: true), file.count >= 16 else { return nil }
        let distinct = file.base.load(as: UInt64.self)
        guard distinct > 0, distinct <= UInt64(blockCount) else { return nil }
        let l = layout(distinctBlocks: Int(distinct))
        var reader = VocabularyCache.ArenaReader(file: file, offset: 16)
        guard let arena = reader.next(size: l.size, checksum: file.base.load(fromByteOffset: 8, as: UInt64.self)),
            reader.offset == file.count
        else { return nil }
        let index = arena.table(UInt16.self, at: l.index)
        for i in 0..<blockCount where UInt64(index[i]) >= distinct { return nil }
        return (Int(distinct), arena)
    }

    /// The classes of an ASCII byte (`byte < 0x80`).
    @usableFromInline @inline(__always)
    func classes(ascii byte: UInt32) -> CharacterClass {
        CharacterClass(rawValue: latin[Int(byte)])
    }

    /// The classes of one code point (0 for values outside Unicode's range).
    @inline(__always)
    public func classes(of codePoint: UInt32) -> CharacterClass {
        guard codePoint < 0x110000 else { return [] }
        let block = Int(blockIndex[Int(codePoint >> 8)])
        return CharacterClass(rawValue: blocks[block &* 256 &+ Int(codePoint & 0xFF)])
    }
}
