import Foundation

/// Where the tests find the repository and the shared reference data.
enum TestPaths {
    /// The repository root (this file is Tests/TokenKitTests/Support/TestPaths.swift).
    static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `shared/` beside the repository, or `$CONTEXTKIT_SHARED`.
    static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["CONTEXTKIT_SHARED"] {
            return URL(fileURLWithPath: path)
        }
        return repository.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static let fixtures = repository.appendingPathComponent("Tests/Fixtures")

    /// Under CI every suite must run: a missing peer or data set is a failure, not a skip.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
}
