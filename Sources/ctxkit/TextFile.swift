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
        do {
            return try InputFile.text(
                path, folderHint: "give one text file",
                whyText: "a summary needs text: convert a text in another encoding first (iconv -f ENCODING -t UTF-8)")
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
