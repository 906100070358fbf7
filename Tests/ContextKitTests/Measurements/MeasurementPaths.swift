import Foundation
import Testing

/// Where the measurement tests find the repository and the shared data.
enum MeasurementPaths {
    /// The repository root (this file is Tests/ContextKitTests/Measurements/MeasurementPaths.swift).
    static let repository: URL = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `shared/data` beside the repository (or under `$CONTEXTKIT_SHARED`).
    static let sharedData: URL = {
        if let path = ProcessInfo.processInfo.environment["CONTEXTKIT_SHARED"] {
            return URL(fileURLWithPath: path).appendingPathComponent("data")
        }
        return repository.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The shared data directory; without it the test is cancelled (skipped),
    /// except under CI, where a missing data set is a failure.
    static func requireSharedData(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        if FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("udhr").path) { return sharedData }
        let message = "the shared data (\(sharedData.path)/udhr) is missing"
        if isCI {
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
