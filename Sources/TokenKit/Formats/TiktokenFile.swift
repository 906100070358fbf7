import Foundation

/// Reads tiktoken's `.tiktoken` format: one token a line, `base64-bytes rank`.
enum TiktokenFile {
    /// Parses the file's bytes; `path` only names the file in errors.
    ///
    /// Every line is checked: two fields, valid base64, a decimal rank, no
    /// repeated rank or byte string. A damaged file is refused, naming the line.
    static func parse(_ data: UnsafeRawBufferPointer, path: String) throws -> Vocabulary {
        var storage: [UInt8] = []
        storage.reserveCapacity(data.count * 3 / 4)
        var entries: [(offset: Int, length: Int, id: Int)] = []
        entries.reserveCapacity(data.count / 12)
        let bytes = data.bindMemory(to: UInt8.self)
        var lineStart = 0
        var lineNumber = 0
        while lineStart < bytes.count {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
            if lineEnd > lineStart {
                var space = lineStart
                while space < lineEnd && bytes[space] != 0x20 { space += 1 }
                guard space < lineEnd, space > lineStart else {
                    throw TokenKitError.malformedVocabulary(path: path, line: lineNumber, reason: "expected 'base64 rank'")
                }
                let offset = storage.count
                guard decodeBase64(bytes, lineStart..<space, into: &storage) else {
                    throw TokenKitError.malformedVocabulary(path: path, line: lineNumber, reason: "invalid base64")
                }
                var rank = 0
                var digits = 0
                for k in (space + 1)..<lineEnd {
                    let d = Int(bytes[k]) - 48
                    guard (0...9).contains(d), rank < 1 << 31 else {
                        throw TokenKitError.malformedVocabulary(path: path, line: lineNumber, reason: "the rank is not a whole number")
                    }
                    rank = rank * 10 + d
                    digits += 1
                }
                guard digits > 0 else {
                    throw TokenKitError.malformedVocabulary(path: path, line: lineNumber, reason: "missing rank")
                }
                entries.append((offset, storage.count - offset, rank))
            }
            lineStart = lineEnd + 1
        }
        guard !entries.isEmpty else {
            throw TokenKitError.malformedVocabulary(path: path, line: 1, reason: "the file has no tokens")
        }
        switch Vocabulary.build(storage: storage, entries: entries) {
        case .success(let vocabulary):
            return vocabulary
        case .failure(let duplicate):
            throw TokenKitError.malformedVocabulary(path: path, line: lineNumberOfEntry(duplicate.index, in: bytes), reason: duplicate.reason)
        }
    }

    /// Reads and parses a `.tiktoken` file.
    static func load(contentsOf url: URL) throws -> Vocabulary {
        let data = try readFile(url)
        return try data.withUnsafeBytes { try parse($0, path: url.path) }
    }

    static func readFile(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw TokenKitError.unreadableFile(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Entries are one per non-empty line, so the n-th entry's line is found by counting.
    private static func lineNumberOfEntry(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1, entry = -1, atLineStart = true
        for b in bytes {
            if atLineStart && b != 0x0A { entry += 1; if entry == index { return line } }
            atLineStart = b == 0x0A
            if b == 0x0A { line += 1 }
        }
        return line
    }

    private static let base64Values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(c)] = UInt8(i)
        }
        return table
    }()

    /// Appends the bytes of the base64 text `b[range]` to `out`; false when it is not base64.
    static func decodeBase64(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) -> Bool {
        guard range.count % 4 == 0 else { return false }
        var i = range.lowerBound
        while i < range.upperBound {
            let pad = (b[i + 3] == UInt8(ascii: "=") ? 1 : 0) + (b[i + 2] == UInt8(ascii: "=") ? 1 : 0)
            guard pad == 0 || i + 4 == range.upperBound else { return false }
            let v0 = base64Values[Int(b[i])], v1 = base64Values[Int(b[i + 1])]
            let v2 = pad >= 2 ? 0 : base64Values[Int(b[i + 2])]
            let v3 = pad >= 1 ? 0 : base64Values[Int(b[i + 3])]
            guard (v0 | v1 | v2 | v3) & 0xC0 == 0 else { return false }  // 0xFF marks a non-base64 byte
            let n = UInt32(v0) << 18 | UInt32(v1) << 12 | UInt32(v2) << 6 | UInt32(v3)
            out.append(UInt8(n >> 16))
            if pad < 2 { out.append(UInt8(n >> 8 & 0xFF)) }
            if pad < 1 { out.append(UInt8(n & 0xFF)) }
            i += 4
        }
        return true
    }
}
