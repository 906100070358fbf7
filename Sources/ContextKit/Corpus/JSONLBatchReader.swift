#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line of a JSON Lines input, as the batch reader hands it out.
package struct JSONLLine: Sendable, Equatable {
    /// The line's number in its input, from 1 (blank lines count, so the
    /// number is what an editor shows).
    package let number: Int
    /// Bytes of the input before the line.
    package let byteOffset: Int
    /// The line's bytes in its batch, without the line feed or a carriage
    /// return before it; empty for a line that was too long.
    package let range: Range<Int>
    /// The line's length when it was longer than the limit and was skipped
    /// unread (its bytes are not in the batch).
    package let skippedBytes: Int?
}

/// Complete lines read from an input, with their bytes: the unit of work a
/// worker parses and counts, and after which output is flushed.
package struct JSONLBatch: Sendable {
    /// The lines' bytes; each line's `range` indexes into it.
    package let bytes: [UInt8]
    /// The lines, in input order; blank lines are left out.
    package let lines: [JSONLLine]
}

/// Splits a byte stream into JSON Lines batches in bounded memory: a block
/// plus the longest line allowed. A line longer than `maxLineBytes` is not
/// kept: its bytes are skipped up to the next line feed and it is handed out
/// as skipped, so one huge record fails alone and the others go on.
///
/// Lines end at a line feed; a carriage return before it (CRLF files) is
/// not part of the line, and the last line needs no line feed. Lines that
/// hold only JSON whitespace are left out (a trailing blank line is common
/// and is no record) unless they are too long: the limit is checked first,
/// so whether a line is refused never depends on how the input was read.
package struct JSONLBatchReader {
    private var source: ByteSource
    /// The longest line kept, in bytes (its line feed and carriage return not counted).
    package let maxLineBytes: Int
    /// A batch is handed out once it holds at least this many bytes of complete lines.
    package let blockSize: Int
    /// The start of the line not yet ended, carried into the next batch.
    private var carry: [UInt8] = []
    /// Input offset of `carry`'s first byte.
    private var carryOffset = 0
    /// The number of the line `carry` starts.
    private var lineNumber = 1
    /// The line being skipped for its length: its number, offset, bytes so
    /// far, and whether the last of them was a carriage return (not the line's
    /// if a line feed follows).
    private var skipping: (number: Int, offset: Int, bytes: Int, endsInCR: Bool)?
    private var finished = false
    private var block: [UInt8]

    /// A reader of `source`; `maxLineBytes` bounds the memory one line may take.
    package init(source: ByteSource, maxLineBytes: Int, blockSize: Int = 64 << 10) {
        self.source = source
        self.maxLineBytes = max(1, maxLineBytes)
        self.blockSize = max(1, blockSize)
        block = [UInt8](repeating: 0, count: self.blockSize)
    }

    /// The next batch, or nil at the end of the input. A batch holds at
    /// least one line; an empty input gives none.
    package mutating func next() throws -> JSONLBatch? {
        guard !finished else { return nil }
        var bytes = carry
        var bytesOffset = carryOffset  // input offset of bytes[0]
        carry = []
        var lines: [JSONLLine] = []
        var lineStart = 0  // where the line not yet ended starts in `bytes`
        var scanFrom = bytes.count  // the carried bytes hold no line feed
        while true {
            let n = try block.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 {
                finished = true
                if let s = skipping {
                    lines.append(JSONLLine(number: s.number, byteOffset: s.offset, range: 0..<0, skippedBytes: s.bytes - (s.endsInCR ? 1 : 0)))
                    skipping = nil
                } else if lineStart < bytes.count {
                    appendLine(&lines, bytes, lineStart..<bytes.count, offset: bytesOffset + lineStart)
                }
                return lines.isEmpty ? nil : JSONLBatch(bytes: bytes, lines: lines)
            }
            var from = 0
            if var s = skipping {
                // A line too long to keep: drop its bytes as they come, up to its line feed.
                guard let feed = block[0..<n].firstIndex(of: 0x0A) else {
                    s.bytes += n
                    s.endsInCR = block[n - 1] == 0x0D
                    skipping = s
                    continue
                }
                s.bytes += feed
                if feed > 0 { s.endsInCR = block[feed - 1] == 0x0D }
                skipping = nil
                lines.append(JSONLLine(number: s.number, byteOffset: s.offset, range: 0..<0, skippedBytes: s.bytes - (s.endsInCR ? 1 : 0)))
                lineNumber += 1
                from = feed + 1
                bytes.removeAll(keepingCapacity: true)
                bytesOffset = s.offset + s.bytes + 1
                lineStart = 0
                scanFrom = 0
            }
            bytes.append(contentsOf: block[from..<n])
            while let feed = bytes[scanFrom...].firstIndex(of: 0x0A) {
                appendLine(&lines, bytes, lineStart..<feed, offset: bytesOffset + lineStart)
                lineNumber += 1
                lineStart = feed + 1
                scanFrom = lineStart
            }
            scanFrom = bytes.count
            // One byte of slack: a carriage return before the feed is not the line's.
            if bytes.count - lineStart > maxLineBytes + 1 {
                skipping = (lineNumber, bytesOffset + lineStart, bytes.count - lineStart, bytes.last == 0x0D)
                bytes.removeSubrange(lineStart...)
                if !lines.isEmpty { return JSONLBatch(bytes: bytes, lines: lines) }
                continue
            }
            if !lines.isEmpty && lineStart >= blockSize {
                carry = Array(bytes[lineStart...])
                carryOffset = bytesOffset + lineStart
                bytes.removeSubrange(lineStart...)
                return JSONLBatch(bytes: bytes, lines: lines)
            }
        }
    }

    /// Adds the line at `range` unless it is blank; a CR before the feed is dropped.
    private func appendLine(_ lines: inout [JSONLLine], _ bytes: [UInt8], _ range: Range<Int>, offset: Int) {
        var end = range.upperBound
        if end > range.lowerBound && bytes[end - 1] == 0x0D { end -= 1 }
        if end - range.lowerBound > maxLineBytes {
            lines.append(JSONLLine(number: lineNumber, byteOffset: offset, range: range.lowerBound..<range.lowerBound, skippedBytes: end - range.lowerBound))
            return
        }
        if bytes[range.lowerBound..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        lines.append(JSONLLine(number: lineNumber, byteOffset: offset, range: range.lowerBound..<end, skippedBytes: nil))
    }
}
