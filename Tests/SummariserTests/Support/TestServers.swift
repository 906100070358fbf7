import Foundation
import TestSupport

/// Helper processes for tests that talk to a server.
enum TestServers {

    /// The scripted fake (`scripts/fake-openai-server.py`), started once per
    /// test process. It exits when this process does (its stdin closes).
    static let fake: Result<URL, any Error> = Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestRepository.root.appendingPathComponent("scripts/fake-openai-server.py").path]
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        keepAlive.append(input)
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("url="), let url = URL(string: String(text.dropFirst(4))) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the fake server did not start: \(text)"])
        }
        return url
    }

    nonisolated(unsafe) static var keepAlive: [Pipe] = []

    static func fakeURL() throws -> URL { try fake.get() }
}
