import Foundation

/// Files of the package (examples) found from this test file's location.
enum SchemaFixtures {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent()  // Schema
        .deletingLastPathComponent()  // ContextKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func example(_ name: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("examples").appendingPathComponent(name), encoding: .utf8)
    }
}
