import Foundation
import TestSupport
import Testing

/// Where the measurement tests find the repository and the shared data.
enum MeasurementPaths {
    /// `data/` of the shared reference data beside the repository.
    static let sharedData: URL = TestRepository.shared.appendingPathComponent("data")

    /// The shared data directory; without it the test is cancelled (skipped),
    /// except under CI, where a missing data set is a failure.
    static func requireSharedData(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        if FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("udhr").path) { return sharedData }
        let message = "the shared data (\(sharedData.path)/udhr) is missing"
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
