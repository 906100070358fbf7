import ContextKit
import Foundation
import Render
import ToolSupport

/// Reading one whole input as text, for the modes that need all of it at once.
enum WholeInput {
    static func text(_ s: TokcountCommand.Settings, mode: String) throws -> (path: String, text: String) {
        guard s.paths.count == 1 else { throw UsageError(tool: "tokcount", "\(mode) reads one input; \(s.paths.count) were given") }
        let path = s.paths[0]
        let bytes = try read(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let bad = bytes.withUnsafeBufferPointer { TextStats(scanning: $0).firstInvalidUTF8 } ?? 0
            throw InputError(path: display(path), reason: "not valid UTF-8 (the first bad byte is at offset \(NumberFormat.grouped(bad))); \(mode) works on text")
        }
        return (display(path), text)
    }

    /// How `path` is named in messages.
    static func display(_ path: String) -> String { path == "-" ? "standard input" : path }

    /// The whole file, or standard input for `-`.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard FileManager.default.fileExists(atPath: path) else { throw InputError(path: path, reason: "No such file or directory") }
        do { return Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw InputError(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
