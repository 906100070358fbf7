import Foundation

/// The one reader of a whole input named on a command line, for the commands
/// that need all of it at once (`ctxkit plan` and `summarise`, `schema-cost`,
/// `tokcount --chat`, `--truncate`, `--offsets`, `--tokens` on a file): a file,
/// or standard input for `-`, refused with the same words everywhere. Inputs
/// counted as they stream are read by `FileByteSource` instead.
package enum InputFile {
    /// How `path` is named in messages: `standard input` for `-`.
    package static func display(_ path: String) -> String { path == "-" ? "standard input" : path }

    /// The bytes of `path` (`-`: standard input).
    ///
    /// - Parameter folderHint: what to give instead when `path` is a folder
    ///   ("give one text file").
    /// - Throws: `InputError` naming the path: no such file, a folder, or
    ///   unreadable.
    package static func bytes(_ path: String, folderHint: String) throws(InputError) -> [UInt8] {
        if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw InputError(path: path, reason: "no such file") }
        guard !isDirectory.boolValue else { throw InputError(path: path, reason: "is a folder; \(folderHint)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError(path: path, reason: "cannot be read (permissions?)") }
        return [UInt8](data)
    }

    /// The bytes of `path`, which must be UTF-8 text.
    ///
    /// - Parameters:
    ///   - folderHint: what to give instead of a folder.
    ///   - whyText: why the command needs text, said after the offset of the
    ///     first byte that is not UTF-8.
    /// - Throws: `InputError`, as `bytes(_:folderHint:)` does, and for bytes
    ///   that are not UTF-8 (with the first bad byte's offset).
    package static func text(_ path: String, folderHint: String, whyText: String) throws(InputError) -> [UInt8] {
        let bytes = try bytes(path, folderHint: folderHint)
        if let offset = bytes.withUnsafeBufferPointer({ TextStats(scanning: $0).firstInvalidUTF8 }) {
            throw InputError(path: display(path), reason: "is not UTF-8 text (the first byte that is not: offset \(offset)); \(whyText)")
        }
        return bytes
    }
}
