import Foundation

/// A test server from `scripts/` (the fake OpenAI server, the hostile one),
/// started with python3 on 127.0.0.1. It prints one line that ends with its
/// URL, then serves until its standard input closes: when `stop()` is called,
/// or when the test process exits, so no server outlives its tests.
public final class ScriptServer: @unchecked Sendable {
    /// The base URL the server announced.
    public let url: URL
    private let process: Process
    private let input: Pipe

    /// Starts `scripts/<script>` with `arguments` and waits for the line
    /// `<announcement><URL>` on its standard output.
    ///
    /// - Throws: when python3 cannot be started, or the first line is not the announcement.
    public init(script: String, arguments: [String] = [], announcement: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestRepository.path("scripts/\(script)").path] + arguments
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix(announcement), let url = URL(string: String(text.dropFirst(announcement.count))) else {
            throw ChildProcessError(message: "scripts/\(script) did not start: \(text)")
        }
        self.url = url
    }

    /// Closes the server's standard input and waits for it to exit.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
