import Foundation

/// `scripts/llama-server` (llama.cpp's server with SmolLM2-135M-Instruct), driven from tests.
public enum LlamaServer {
    static let script = TestRepository.root.appendingPathComponent("scripts/llama-server").path

    public static var isInstalled: Bool { (try? run(["path"]).status) == 0 }

    /// Run when installed; under CI always, so a missing server fails.
    public static var shouldRun: Bool { TestRepository.isCI || isInstalled }

    /// The SmolLM2 GGUF the server loads.
    public static func modelPath() throws -> URL {
        let (status, output) = try run(["path"])
        guard status == 0, let line = output.split(separator: "\n").first(where: { $0.hasPrefix("model=") }) else {
            throw ChildProcessError(message: "llama-server is not installed: \(output)")
        }
        return URL(fileURLWithPath: String(line.dropFirst(6)))
    }

    /// One server at a time in the whole test run: each answers with both
    /// cores, and two at once starve each other and every other test.
    private static let oneAtATime = AsyncLock()

    /// Runs `body` against a server of its own with a `window`-token context
    /// (on a free port, started and stopped off the cooperative pool), after
    /// any other test's server has stopped.
    public static func withServer<T: Sendable>(window: Int, _ body: (URL) async throws -> T) async throws -> T {
        await oneAtATime.acquire()
        defer { oneAtATime.release() }
        let (url, port) = try await offThePool { try start(window: window) }
        let result: Result<T, any Error>
        do { result = .success(try await body(url)) } catch { result = .failure(error) }
        _ = try? await offThePool { stop(port: port) }
        return try result.get()
    }

    /// Starts a server with a `window`-token context on a free port; returns
    /// its URL and port (for `stop`). A port of its own, so runs from several
    /// checkouts, or a server someone started by hand, never meet.
    static func start(window: Int) throws -> (url: URL, port: Int) {
        let port = try ChildProcess.freePort()
        let (status, output) = try run(["start", "--ctx", String(window), "--port", String(port)])
        guard status == 0, let line = output.split(separator: "\n").last(where: { $0.hasPrefix("url=") }),
            let url = URL(string: String(line.dropFirst(4)))
        else {
            throw ChildProcessError(message: "llama-server did not start: \(output)")
        }
        return (url, port)
    }

    static func stop(port: Int) { _ = try? run(["stop", "--port", String(port)]) }

    @discardableResult
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ChildProcess.run(script, arguments)
    }
}
