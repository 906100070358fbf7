import Foundation

/// A folder that is removed when the value goes away.
public final class TempDir {
    /// The folder.
    public let url: URL

    /// A new empty folder under the system's temporary folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("contextkit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes a file (creating folders) and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> String {
        try write(name, Data(contents.utf8))
    }

    /// Writes bytes to a file (creating folders) and returns its path.
    @discardableResult
    public func write(_ name: String, _ contents: Data) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: file)
        return file.path
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
