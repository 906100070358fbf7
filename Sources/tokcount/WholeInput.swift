import ContextKit
import ToolSupport

/// Reading one whole input as text, for the modes that need all of it at once.
enum WholeInput {
    static func text(_ s: TokcountCommand.Settings, mode: String) throws -> (path: String, text: String) {
        guard s.paths.count == 1 else { throw UsageError(tool: "tokcount", "\(mode) reads one input; \(s.paths.count) were given") }
        let path = s.paths[0]
        let bytes = try InputFile.text(path, folderHint: "give one file", whyText: "\(mode) works on text")
        return (InputFile.display(path), String(decoding: bytes, as: UTF8.self))
    }

    /// The whole file, or standard input for `-`.
    static func read(_ path: String) throws -> [UInt8] {
        try InputFile.bytes(path, folderHint: "give one file")
    }
}
