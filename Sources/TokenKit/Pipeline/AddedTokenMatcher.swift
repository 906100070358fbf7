import Foundation

/// Added tokens that are cut out of the text before anything else, wherever
/// they occur, even when special tokens are plain text: Hugging Face's
/// non-special `added_tokens`, GGUF's user-defined tokens (type 4). Matching is
/// leftmost-longest, as Hugging Face's Aho-Corasick search does.
struct AddedTokenMatcher: Sendable {
    /// One added token and how it treats the whitespace around it.
    struct Entry: Sendable {
        var text: [UInt8]
        var id: Int
        /// Whitespace before the token is taken with it (not encoded).
        var stripLeft = false
        /// Whitespace after the token is taken with it.
        var stripRight = false
        /// Only matches when not inside a word.
        var singleWord = false
    }

    /// A match: the token's bytes and the span it takes out of the text
    /// (wider than the token when it strips whitespace).
    struct Match {
        let id: UInt32
        let start: Int, end: Int
        let takenStart: Int, takenEnd: Int
    }

    private var children: [UInt64: Int32] = [:]  // node << 8 | byte → child node
    private var terminal: [Int32: Int] = [:]  // node → index into entries
    private var startsToken = [Bool](repeating: false, count: 256)
    /// The byte every added token starts with, when they share one (`<` in
    /// Llama's and Qwen's): the search then skips to it with `memchr`
    /// instead of testing each byte. Qwen3's tokenizer.json on 10 MB of
    /// Debian English: the byte loop was 11% of a count (`perf`).
    private var onlyFirstByte: UInt8? = nil
    private(set) var entries: [Entry] = []

    init(_ entries: [Entry]) {
        var nodes: Int32 = 1
        for entry in entries where !entry.text.isEmpty {
            var node: Int32 = 0
            for b in entry.text {
                let key = UInt64(node) << 8 | UInt64(b)
                if let child = children[key] {
                    node = child
                } else {
                    children[key] = nodes
                    node = nodes
                    nodes += 1
                }
            }
            if terminal[node] == nil {
                terminal[node] = self.entries.count
                self.entries.append(entry)
            }
            startsToken[Int(entry.text[0])] = true
        }
        let firstBytes = startsToken.indices.filter { startsToken[$0] }
        onlyFirstByte = firstBytes.count == 1 ? UInt8(firstBytes[0]) : nil
    }

    var isEmpty: Bool { entries.isEmpty }

    /// The first added token in `base[from..<to]`, the longest one where several start together.
    func firstMatch(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Match? {
        var i = from
        if let first = onlyFirstByte {
            while i < to, let found = memchr(base + i, Int32(first), to - i) {
                i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if let m = longest(base, at: i, from: from, to: to) { return m }
                i += 1
            }
            return nil
        }
        while i < to {
            if startsToken[Int(base[i])], let m = longest(base, at: i, from: from, to: to) { return m }
            i += 1
        }
        return nil
    }

    private func longest(_ base: UnsafePointer<UInt8>, at i: Int, from: Int, to: Int) -> Match? {
        var node: Int32 = 0
        var best: (Int, Int)? = nil  // (entry, end)
        var j = i
        while j < to, let child = children[UInt64(node) << 8 | UInt64(base[j])] {
            node = child
            j += 1
            if let e = terminal[node] { best = (e, j) }
        }
        guard let (index, end) = best else { return nil }
        let entry = entries[index]
        let cursor = UTF8Cursor(base: base, end: to, table: .shared)
        if entry.singleWord {
            let wordClasses: CharacterClass = [.letter, .number]
            if end < to, !cursor.character(at: end).classes.isDisjoint(with: wordClasses) { return nil }
            if i > from, let before = Self.characterStart(before: i, base, from),
                !cursor.character(at: before).classes.isDisjoint(with: wordClasses)
            {
                return nil
            }
        }
        var takenStart = i, takenEnd = end
        if entry.stripLeft {
            while takenStart > from, let s = Self.characterStart(before: takenStart, base, from),
                cursor.character(at: s).classes.contains(.whitespace)
            { takenStart = s }
        }
        if entry.stripRight {
            while takenEnd < to {
                let c = cursor.character(at: takenEnd)
                guard c.classes.contains(.whitespace) else { break }
                takenEnd += c.length
            }
        }
        return Match(id: UInt32(entry.id), start: i, end: end, takenStart: takenStart, takenEnd: takenEnd)
    }

    private static func characterStart(before i: Int, _ base: UnsafePointer<UInt8>, _ from: Int) -> Int? {
        guard i > from else { return nil }
        var s = i - 1
        while s > from && base[s] & 0xC0 == 0x80 && i - s < 4 { s -= 1 }
        return s
    }
}
