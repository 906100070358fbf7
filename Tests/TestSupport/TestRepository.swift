import Foundation

/// The repository the tests run in, and the reference data they compare against.
public enum TestRepository {
    /// The repository root (this file is Tests/TestSupport/TestRepository.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path inside the repository (`"corpora/prose/en.txt"`).
    public static func path(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// `Tests/Fixtures`: the peers' outputs and the scripts that made them.
    public static let fixtures: URL = root.appendingPathComponent("Tests/Fixtures")

    /// The UDHR in 388 languages, one UTF-8 file each (`Tests/Fixtures/udhr`, public domain).
    public static let udhr: URL = fixtures.appendingPathComponent("udhr")

    /// The reference data too large for the repository, as `scripts/reference-data`
    /// lays it out: `gguf/` (llama.cpp's vocabularies and test vectors) and `hf/`
    /// (tokenizer.json files). `$CONTEXTKIT_REFERENCE_DATA`, else `reference-data`
    /// in ContextKit's cache, where `scripts/test` puts it.
    public static let referenceData: URL = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CONTEXTKIT_REFERENCE_DATA"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: (environment["CONTEXTKIT_CACHE"] ?? (NSHomeDirectory() + "/.cache/contextkit")) + "/reference-data")
    }()

    /// `gguf/` of the reference data.
    public static let gguf: URL = referenceData.appendingPathComponent("gguf")

    /// `hf/` of the reference data.
    public static let huggingFace: URL = referenceData.appendingPathComponent("hf")

    /// The test venv's Python with the peers (tiktoken, pyspark, …), made by
    /// `scripts/python-env`: `$CONTEXTKIT_PYTHON`, else the venv in the cache.
    public static let python: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let candidates = [
            environment["CONTEXTKIT_PYTHON"],
            (environment["CONTEXTKIT_CACHE"] ?? (NSHomeDirectory() + "/.cache/contextkit")) + "/venv/bin/python"
        ].compactMap { $0 }
        return candidates.map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Under CI every suite must run: a missing peer or server is a failure, not a skip.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
}
