import Foundation
import Testing
import TestSupport

/// `ctxkit report`, `density` and `transcript` as a user runs them.
@Suite("ctxkit report, density, transcript")
struct ReportCLITests {
    static let ctxkit = ToolRunner(tool: "ctxkit")
    static let isCI = TestRepository.isCI
    static let reportNames = ["density", "transcript-growth", "schema-overhead"].flatMap { name in ["md", "csv", "svg"].map { "\(name).\($0)" } }

    /// Skips (outside CI) or fails (under CI=true) when something the test needs is missing.
    static func require(_ condition: Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard !condition else { return }
        if isCI {
            Issue.record(Comment(rawValue: "\(what); under CI=true this is a failure"), sourceLocation: sourceLocation)
            throw Missing(description: what)
        }
        try Test.cancel(Comment(rawValue: "\(what); skipped outside CI"), sourceLocation: sourceLocation)
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    @Test("ctxkit report regenerates the committed reports byte for byte, and --check finds a stale one")
    func reportIsReproducible() throws {
        try Self.require(
            FileManager.default.fileExists(atPath: TestRepository.gguf.path),
            "the reference data (\(TestRepository.gguf.path)) is missing: run scripts/reference-data")
        let scratch = try TempDir()
        let written = try Self.ctxkit.run(["report", "--root", TestRepository.root.path, "--gguf", TestRepository.gguf.path, "--out", scratch.url.path])
        #expect(written.status == 0, "\(written.stderr)")
        for name in Self.reportNames {
            let fresh = try Data(contentsOf: scratch.url.appendingPathComponent(name))
            let committed = try? Data(contentsOf: TestRepository.root.appendingPathComponent("reports").appendingPathComponent(name))
            #expect(committed == fresh, "reports/\(name) differs from what ctxkit report writes: run it and commit the result")
        }
        try scratch.write("density.csv", "stale\n")
        let check = try Self.ctxkit.run(["report", "--root", TestRepository.root.path, "--gguf", TestRepository.gguf.path, "--out", scratch.url.path, "--check"])
        #expect(check.status == 1)
        #expect(check.stderr.contains("stale: \(scratch.url.appendingPathComponent("density.csv").path)"))
        #expect(!check.stderr.contains("density.md"))
    }

    @Test("ctxkit report without the open models' vocabularies says what is missing and how to get them")
    func reportNeedsGGUF() throws {
        let scratch = try TempDir()
        let run = try Self.ctxkit.run(["report", "--root", TestRepository.root.path, "--gguf", scratch.url.path, "--out", scratch.path("out")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("ggml-vocab-llama-bpe.gguf") && run.stderr.contains("scripts/reference-data"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out")))
    }

    @Test("ctxkit report outside the repository says the UDHR texts are missing")
    func reportNeedsRepository() throws {
        let scratch = try TempDir()
        try scratch.write("corpora/prose/en.txt", "The lamp was lit at dusk.\n")
        try scratch.write("corpora/prose/en.json", #"{"language": "English", "tag": "en", "script": "Latn"}"#)
        let run = try Self.ctxkit.run(["report", "--root", scratch.url.path, "--gguf", scratch.url.path, "--out", scratch.path("out")])
        #expect(run.status == 1)
        #expect(run.stderr.contains("UDHR"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out")))
    }

    @Test("ctxkit density measures a corpus with the tokenizers given")
    func density() throws {
        let scratch = try TempDir()
        for (tag, language, text) in [("en", "English", "The lamp was lit at dusk.\n"), ("ja", "Japanese", "夕暮れに灯りがともった。\n")] {
            try scratch.write("prose/\(tag).txt", text)
            try scratch.write("prose/\(tag).json", #"{"language": "\#(language)", "tag": "\#(tag)", "script": "Zyyy"}"#)
        }
        let csv = try Self.ctxkit.run(["density", "--corpus", scratch.url.path, "-e", "o200k,cl100k_base", "--no-udhr", "--csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("tokenizer,tag,language,script,characters,bytes,tokens,chars_per_token") == true)
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("o200k,en,English,Zyyy,26,26,") && lines[1].contains(",1.000,"))
        #expect(lines[3].hasPrefix("cl100k,en,"))
        let table = try Self.ctxkit.run(["density", "--corpus", scratch.path("prose"), "-e", "o200k", "--no-udhr"])
        #expect(table.status == 0)
        #expect(table.stdout.contains("o200k\nlanguage") && table.stdout.contains("Japanese"))
        let bad = try Self.ctxkit.run(["density", "--corpus", scratch.url.path, "-e", "no-such-tokenizer"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("no-such-tokenizer") && bad.stderr.contains("o200k_base"))
    }

    @Test("ctxkit transcript finds the overflow turn of 700-token documents with 150-token answers")
    func transcript() throws {
        let run = try Self.ctxkit.run(["transcript", "-i", "50", "-d", "700", "-a", "150"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("apple-on-device: 4,096-token window, 22 tokens per request"))
        #expect(run.stdout.contains("Reused session: overflows at turn 5: 4,172 sent + 150 answer = 4,322 of 4,096 tokens"))
        #expect(run.stdout.contains("Fresh session per request: every turn fits"))
        let csv = try Self.ctxkit.run(["transcript", "-d", "700", "-a", "150", "-n", "3", "--window", "8192", "-m", "gpt-4", "--csv"])
        #expect(
            csv.stdout == """
                turn,messages,reused_sent,reused_window,reused_cumulative,fresh_sent,fresh_window,fresh_cumulative,window
                1,1,706,856,706,706,856,706,8192
                2,3,1562,1712,2268,706,856,1412,8192
                3,5,2418,2568,4686,706,856,2118,8192

                """)
        let scratch = try TempDir()
        let document = try scratch.write("doc.txt", "The harbour sensor logged the water level every ten minutes.")
        let fromFile = try Self.ctxkit.run(["transcript", "-d", document, "-a", "20", "-n", "2", "-m", "gpt-4", "--csv"])
        #expect(fromFile.stdout.contains("\n1,1,17,37,"))  // 11 tokens of text + 3 per request + 3 per message
        let bad = try Self.ctxkit.run(["transcript", "-d", "no-such-file.txt"])
        #expect(bad.status == 2 && bad.stderr.contains("neither a number of tokens nor an existing file"))
    }

    @Test(
        "ctxkit transcript --url shows a real server's prompt_tokens growing turn by turn until it refuses",
        .enabled(if: LlamaServer.shouldRun, "llama-server is not installed (scripts/llama-server install)"),
        .timeLimit(.minutes(30)))
    func liveServer() async throws {
        // Small sizes: SmolLM2 on two busy cores reads a prompt at roughly 15 tokens a second.
        let run = try await LlamaServer.withServer(window: 512) { server in
            try await offThePool {
                try Self.ctxkit.run(["transcript", "--url", server.absoluteString, "-m", "gpt-4", "-i", "20", "-d", "100", "-a", "20", "--csv"])
            }
        }
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count >= 3, "\(run.stdout)")
        let measured = rows.compactMap { Int($0[3]) }
        let predicted = rows.compactMap { Int($0[2]) }
        // Each request resends the transcript: the server's count climbs every turn.
        #expect(measured.count >= 3 && zip(measured, measured.dropFirst()).allSatisfy { $0 < $1 }, "\(measured)")
        // SmolLM2's tokenizer is not cl100k, but the two agree on the size of English prose to within a third.
        for (m, p) in zip(measured, predicted) {
            #expect(Double(m) > Double(p) * 0.67 && Double(m) < Double(p) * 1.5, "measured \(m), predicted \(p)")
        }
        // 512 tokens run out before 64 turns: the last turn is the server's refusal (no answer, a message).
        #expect(rows.last.map { $0[5] == "" && $0[7] != "\"\"" } == true, "\(run.stdout)")
        #expect(run.stderr.contains("turn 1: predicted"))
    }
}
