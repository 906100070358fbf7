import Foundation
import Testing
import TestSupport

/// `plan`, `summarise` and `probe` refuse the same things the same way: a
/// server nothing answers at is an error with exit status 5 (`plan --url`
/// once exited 0 with a plan for gpt-4o's window), and bytes that are not
/// UTF-8 are refused by `plan` as by `summarise` (`plan` planned 2 MB of
/// random bytes without a word).
@Suite struct PlanSummariseRefusalTests {
    let ctxkit = ToolRunner(tool: "ctxkit")

    func document() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("doc.txt", String(repeating: "The rain had stopped by the time Mira reached the pier. ", count: 40))
        return dir
    }

    @Test(arguments: [
        ["plan", "doc.txt"], ["summarise", "doc.txt", "--backend", "openai"],
        ["summarise", "doc.txt", "--backend", "openai", "-m", "gpt-4o"], ["probe"]
    ])
    func aServerNothingAnswersAtIsAnErrorWithItsOwnStatus(command: [String]) throws {
        let dir = try document()
        let url = "http://127.0.0.1:\(try ChildProcess.freePort())"
        let out = try ctxkit.run(command + ["--url", url], in: dir.url)
        #expect(out.status == 5, "\(out.stdout)\(out.stderr)")
        #expect(out.stderr.contains("--url \(url): cannot reach \(url)"), "\(out.stderr)")
        #expect(out.stderr.contains("check that the server is running and the URL is right"), "\(out.stderr)")
        #expect(out.stdout.isEmpty, "\(out.stdout)")
    }

    /// One `--url` parser for every command, and `$OPENAI_BASE_URL` held to
    /// it: probe took any string `URL(string:)` accepted, and transcript had
    /// words of its own.
    @Test(arguments: [
        ["plan", "doc.txt"], ["summarise", "doc.txt", "--backend", "openai"], ["probe"], ["transcript"]
    ])
    func aURLThatIsNotHTTPIsAUsageErrorInEveryCommand(command: [String]) throws {
        let dir = try document()
        for url in ["ftp://127.0.0.1:8080", "127.0.0.1:8080", "http://"] {
            let out = try ctxkit.run(command + ["--url", url], in: dir.url)
            #expect(out.status == 2, "\(url): \(out.stdout)\(out.stderr)")
            #expect(out.stderr.hasPrefix("ctxkit \(command[0]): --url wants an http:// or https:// URL, not '\(url)'"), "\(out.stderr)")
        }
        let environment = try ctxkit.run(
            ["summarise", "doc.txt", "--backend", "openai"], environment: ["OPENAI_BASE_URL": "localhost:8080"], in: dir.url)
        #expect(environment.status == 2, "\(environment.stderr)")
        #expect(environment.stderr.contains("$OPENAI_BASE_URL wants an http:// or https:// URL, not 'localhost:8080'; set it to one, or give --url"), "\(environment.stderr)")
    }

    @Test(arguments: ["plan", "summarise"])
    func bytesThatAreNotUTF8AreRefusedAlikeByPlanAndSummarise(command: String) throws {
        let dir = try TempDir()
        var bytes = Array("A text that begins as UTF-8 ".utf8)
        var generator = SystemRandomNumberGenerator()
        bytes += (0..<2_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0xFF]
        try dir.write("random.bin", Data(bytes))
        let out = try ctxkit.run([command, "random.bin"], in: dir.url)
        #expect(out.status == 1, "\(out.stderr)")
        #expect(out.stderr.hasPrefix("ctxkit \(command): random.bin: is not UTF-8 text (the first byte that is not: offset "), "\(out.stderr)")
        #expect(out.stderr.contains("iconv"), "\(out.stderr)")
        #expect(out.stdout.isEmpty)
        // The control: the same command reads UTF-8 text.
        try dir.write("text.txt", "Grüße aus Köln. ")
        #expect(try ctxkit.run([command, "text.txt"], in: dir.url).status == 0)
    }
}
