import ContextKit
import Foundation
import ToolSupport

/// The one reader of the text `ctxkit plan` and `ctxkit summarise` work on,
/// so both refuse the same files with the same words: `plan` once planned
/// 2 MB of random bytes without a word while `summarise` refused them.
enum TextFile {
    /// The bytes of `path` (`-`: standard input), which must be UTF-8 text.
    ///
    /// - Throws: `CommandFailure` (exit 1) naming the path and what is wrong:
    ///   missing, a folder, unreadable, or not UTF-8 (with the first bad byte's offset).
    static func read(_ path: String) throws -> [UInt8] {
        let bytes: [UInt8]
        if path == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw CommandFailure("\(path): no such file") }
            guard !isDirectory.boolValue else { throw CommandFailure("\(path): is a folder; give one text file") }
            guard let data = FileManager.default.contents(atPath: path) else { throw CommandFailure("\(path): cannot be read (permissions?)") }
            bytes = [UInt8](data)
        }
        if let offset = bytes.withUnsafeBufferPointer({ TextStats(scanning: $0).firstInvalidUTF8 }) {
            throw CommandFailure(
                "\(path == "-" ? "standard input" : path): is not UTF-8 text (the first byte that is not: offset \(offset)); "
                    + "a summary needs text: convert a text in another encoding first (iconv -f ENCODING -t UTF-8)")
        }
        return bytes
    }
}
