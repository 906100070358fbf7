import TestSupport
import Foundation

/// Runs a built tool the way a user does and captures what it prints.
struct ToolRunner {
    struct Output {
        let stdout: String
        let stderr: String
        let status: Int32
        var stdoutBytes: Data

        /// `--json` output as a dictionary.
        /// Standard output as a JSON object; when it is not one, the error
        /// quotes the output, so a failure shows what the tool printed.
        func json() throws -> [String: Any] {
            do {
                return try JSONSerialization.jsonObject(with: stdoutBytes) as? [String: Any] ?? [:]
            } catch {
                let text = String(decoding: stdoutBytes, as: UTF8.self)
                throw ChildProcessError(
                    message: "standard output is not JSON (\(error)); exit \(status); \(stdoutBytes.count) bytes: "
                        + "\(text.prefix(400)) … \(text.suffix(400))")
            }
        }
    }

    /// The build products folder: where the test runner itself lives
    /// (`.build/<config>/`), or `$CONTEXTKIT_BIN_DIR`.
    static let productsDirectory: URL = {
        if let dir = ProcessInfo.processInfo.environment["CONTEXTKIT_BIN_DIR"] { return URL(fileURLWithPath: dir) }
        var url = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        if !FileManager.default.fileExists(atPath: url.path) { url = Bundle.main.bundleURL }
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("tokcount").path) { return url }
        }
        return Bundle.main.bundleURL.deletingLastPathComponent()
    }()

    let tool: String

    func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:], in directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = Self.productsDirectory.appendingPathComponent(tool)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env["XDG_CONFIG_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("no-config").path
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }
        let scratch = try TempDir()
        let out = scratch.url.appendingPathComponent("out"), err = scratch.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let stdin {
            let input = scratch.url.appendingPathComponent("in")
            try stdin.write(to: input)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        let outData = try Data(contentsOf: out)
        return Output(
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self),
            status: process.terminationStatus, stdoutBytes: outData)
    }
}
