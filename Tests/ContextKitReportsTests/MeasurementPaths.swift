import Foundation
import TestSupport
import Testing

/// Where the measurement tests find the reference data the reports need.
enum MeasurementPaths {
    /// The reference data's `gguf/` (the open models' vocabularies); without
    /// it the test is cancelled (skipped), except under CI, where missing
    /// reference data is a failure.
    static func requireGGUF(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        if FileManager.default.fileExists(atPath: TestRepository.gguf.path) { return TestRepository.gguf }
        let message = "the reference data (\(TestRepository.gguf.path)) is missing: run scripts/reference-data"
        if TestRepository.isCI {
            Issue.record(Comment(rawValue: message + "; under CI=true this is a failure"), sourceLocation: sourceLocation)
            throw MissingData(message: message)
        }
        try Test.cancel(Comment(rawValue: message + "; skipped outside CI"), sourceLocation: sourceLocation)
    }

    struct MissingData: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
