import Foundation
import TestSupport

/// The test venv's Python with the peers (tiktoken, bpe-openai), made by
/// `scripts/python-env`. `scripts/test` creates it before the tests run.
enum PythonPeer {
    static let python: URL? = TestRepository.python

    /// Runs a repository script with the venv's Python, `input` on its
    /// standard input; returns its standard output.
    static func run(script: String, arguments: [String], input: Data? = nil) throws -> Data {
        guard let python else { throw PeerMissing() }
        let process = Process()
        process.executableURL = python
        process.arguments = [TestRepository.root.appendingPathComponent(script).path] + arguments
        let output = Pipe()
        process.standardOutput = output
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        try process.run()
        if let input {
            // Written from another thread: the script answers line by line, and
            // a full output pipe would otherwise stop it before it reads the rest.
            let writer = stdin.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(input)
                try? writer.close()
            }
        }
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
