/// GPT-2's byte-level alphabet: byte-level BPE vocabularies (GGUF `gpt2`,
/// Hugging Face `ByteLevel`) write each byte of a token as one printable
/// character, so that token strings never hold spaces or control bytes.
/// Printable Latin-1 bytes stand for themselves; the other 68 bytes are shifted
/// to U+0100...U+0143 in byte order. TokenKit merges raw bytes, so token strings
/// are mapped back once, when the vocabulary is read.
enum ByteLevelAlphabet {
    /// The character that stands for each byte.
    static let characters: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 256)
        var shifted: UInt32 = 256
        for b in 0..<256 {
            if standsForItself(b) {
                table[b] = UInt32(b)
            } else {
                table[b] = shifted
                shifted += 1
            }
        }
        return table
    }()

    /// The byte each character below U+0144 stands for, or -1.
    static let bytes: [Int16] = {
        var table = [Int16](repeating: -1, count: 0x144)
        for (b, c) in characters.enumerated() { table[Int(c)] = Int16(b) }
        return table
    }()

    private static func standsForItself(_ b: Int) -> Bool {
        (0x21...0x7E).contains(b) || (0xA1...0xAC).contains(b) || (0xAE...0xFF).contains(b)
    }

    /// Appends the bytes a token string stands for; false (and nothing appended)
    /// if a character is outside the alphabet, which marks a token written as
    /// plain text (an added token inside the vocabulary).
    static func decode(_ token: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        let start = out.count
        var i = 0
        let n = token.count
        while i < n {
            let b0 = UInt32(token[i])
            var c: UInt32
            if b0 < 0x80 {
                c = b0; i += 1
            } else if b0 & 0xE0 == 0xC0, i + 1 < n {
                c = (b0 & 0x1F) << 6 | (UInt32(token[i + 1]) & 0x3F); i += 2
            } else {
                out.removeSubrange(start...)
                return false
            }
            guard c < 0x144, bytes[Int(c)] >= 0 else {
                out.removeSubrange(start...)
                return false
            }
            out.append(UInt8(bytes[Int(c)]))
        }
        return true
    }
}
