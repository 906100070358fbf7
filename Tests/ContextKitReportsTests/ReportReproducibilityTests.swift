import Foundation
import TestSupport
import Testing
import ContextKit
@testable import ContextKitReports

/// The committed reports are exactly what `ctxkit report` writes today:
/// a stale number in reports/ fails this test.
@Suite("Reports are reproducible")
struct ReportReproducibilityTests {
    @Test("regenerating reports/ gives the committed bytes")
    func committedReportsAreCurrent() throws {
        let gguf = try MeasurementPaths.requireGGUF()
        let writer = try ReportWriter(root: TestRepository.root, gguf: gguf)
        let files = try writer.files()
        #expect(
            files.map(\.name) == [
                "density.md", "density.csv", "density.svg",
                "transcript-growth.md", "transcript-growth.csv", "transcript-growth.svg",
                "schema-overhead.md", "schema-overhead.csv", "schema-overhead.svg"
            ])
        let reports = TestRepository.root.appendingPathComponent("reports")
        for file in files {
            let committed = try? String(contentsOf: reports.appendingPathComponent(file.name), encoding: .utf8)
            #expect(committed == file.contents, "reports/\(file.name) is stale: run `swift run ctxkit report` and commit the result")
            // Same input, same bytes: nothing machine-specific such as an absolute path.
            #expect(!file.contents.contains(TestRepository.root.path) && !file.contents.contains(gguf.path), "\(file.name) names an absolute path")
        }
    }
}
