import Foundation

/// Paths of the test data.
enum Fixtures {
    /// The repository's root, from this file's place in it.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared` next to the repository.
    static let shared = repository.deletingLastPathComponent().appendingPathComponent("shared")
}
