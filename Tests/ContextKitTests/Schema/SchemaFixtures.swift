import Foundation
import TestSupport

/// Files of the package (examples) found from this test file's location.
enum SchemaFixtures {

    static func example(_ name: String) throws -> String {
        try String(contentsOf: TestRepository.root.appendingPathComponent("examples").appendingPathComponent(name), encoding: .utf8)
    }
}
