import ContextKit
import Foundation
import ToolSupport

/// `--ids` and `--pieces`: the tokenisation itself.
enum TokenListing {
    /// Ids space-separated (continuing a line started by an earlier chunk), or
    /// one `id<TAB>"piece"` line per token.
    static func render(_ tokens: [Token], in text: UnsafeBufferPointer<UInt8>, tokenizer: Tokenizer, pieces: Bool, continuing: Bool) -> String {
        if !pieces {
            let ids = tokens.map { String($0.id) }.joined(separator: " ")
            return (continuing && !ids.isEmpty ? " " : "") + ids
        }
        var out = ""
        for token in tokens {
            out += "\(token.id)\t\(quoted(UnsafeBufferPointer(rebasing: text[token.bytes])))\n"
        }
        return out
    }

    /// A token's text for JSON (bytes that are not UTF-8 become U+FFFD).
    static func text(of token: Token, in text: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[token.bytes]), as: UTF8.self)
    }

    /// The bytes as a quoted, escaped string: `"Hello"`, `" world\n"`, and
    /// `\xE4` for a byte that is only part of a character.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var out = "\""
        var i = 0
        while i < bytes.count {
            let (scalar, length) = decodeOne(bytes, at: i)
            if length == 0 {
                out += String(format: "\\x%02X", bytes[i])
                i += 1
                continue
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                    out += String(format: "\\u{%X}", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            i += length
        }
        return out + "\""
    }

    private static func decodeOne(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        var iterator = bytes[i...].makeIterator()
        var decoder = UTF8()
        switch decoder.decode(&iterator) {
        case .scalarValue(let s):
            return (s, s.utf8.count)
        default:
            return ("\0", 0)
        }
    }
}

/// `--decode`: token ids in, text out.
enum IDDecoder {
    static func run(_ s: TokcountCommand.Settings) -> ExitCode {
        var failed = false
        for path in s.paths {
            do {
                let data = try WholeInput.read(path)
                let ids = try parseIDs(String(decoding: data, as: UTF8.self), path: InputFile.display(path))
                let bytes = try s.tokenizer.decodeBytes(ids)
                bytes.withUnsafeBytes { Output.out(bytes: $0) }
            } catch let error as TokenKitError {
                Output.err("tokcount: \(InputFile.display(path)): \(error)\n")
                failed = true
            } catch {
                Output.err("tokcount: \(error)\n")
                failed = true
            }
        }
        return failed ? .inputFailed : .ok
    }

    /// Ids separated by whitespace, commas or brackets (`[1, 2]` from JSON works too).
    static func parseIDs(_ text: String, path: String) throws -> [Int] {
        var ids: [Int] = []
        for word in text.split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "[" || $0 == "]" }) {
            guard let id = Int(word), id >= 0 else {
                throw InputError(path: path, reason: "'\(word.prefix(40))' is not a token id; --decode reads whole numbers separated by spaces or commas")
            }
            ids.append(id)
        }
        return ids
    }
}
