import Foundation

/// The repository the tests run in, and the shared reference data beside it.
public enum TestRepository {
    /// The repository root (this file is Tests/TestSupport/TestRepository.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path inside the repository (`"corpora/prose/en.txt"`).
    public static func path(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// `Tests/Fixtures`: the peers' outputs and the scripts that made them.
    public static let fixtures: URL = root.appendingPathComponent("Tests/Fixtures")

    /// `shared/` beside the repository, or `$CONTEXTKIT_SHARED`.
    public static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["CONTEXTKIT_SHARED"] { return URL(fileURLWithPath: path) }
        return root.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    /// The test venv's Python with the peers (tiktoken, pyspark, …), made by
    /// `scripts/python-env`: `$CONTEXTKIT_PYTHON`, else the venv in the cache.
    public static let python: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let candidates = [
            environment["CONTEXTKIT_PYTHON"],
            (environment["CONTEXTKIT_CACHE"] ?? (NSHomeDirectory() + "/.cache/contextkit")) + "/venv/bin/python",
        ].compactMap { $0 }
        return candidates.map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Under CI every suite must run: a missing peer or server is a failure, not a skip.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
}
