import Foundation
import TestSupport

/// The test venv's Python with the peers (tiktoken, bpe-openai), made by
/// `scripts/python-env`. `scripts/test` creates it before the tests run.
enum PythonPeer {
    static let python: URL? = TestRepository.python

    /// Runs a repository script with the venv's Python; returns its standard output.
    static func run(script: String, arguments: [String]) throws -> Data {
        guard let python else { throw PeerMissing() }
        let process = Process()
        process.executableURL = python
        process.arguments = [TestRepository.root.appendingPathComponent(script).path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ScriptFailed(status: process.terminationStatus) }
        return data
    }

    struct PeerMissing: Error, CustomStringConvertible {
        var description: String { "the Python test environment is missing: run scripts/python-env (scripts/test does)" }
    }

    struct ScriptFailed: Error { let status: Int32 }
}
