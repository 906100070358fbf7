import Foundation
import TestSupport
import Testing

/// `ctxkit summarise` run as a user runs it.
@Suite struct SummariseCLITests {
    let ctxkit = ToolRunner(tool: "ctxkit")

    /// `pages` pages of the generated yearbook (scripts/make-long-document.py).
    static func document(pages: Int, in dir: TempDir) throws -> String {
        let path = dir.path("doc-\(pages).md")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestRepository.root.appendingPathComponent("scripts/make-long-document.py").path, "--pages", String(pages), "-o", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return path
    }

    @Test func theDefaultBackendSummarisesALongDocumentOffline() throws {
        let dir = try TempDir()
        let doc = try Self.document(pages: 8, in: dir)
        let out = try ctxkit.run(["summarise", doc, "--no-cache"])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("- ") })
        let text = try String(contentsOfFile: doc, encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        for point in lines.dropFirst() { #expect(text.contains(point.dropFirst(2)), "extractive points come from the text") }
        #expect(try ctxkit.run(["summarise", doc, "--no-cache"]).stdout == out.stdout, "the same text gives the same summary")
    }

    @Test func aPlainSummaryIsKeptAndReadBackUnlessNoCache() throws {
        let dir = try TempDir()
        let doc = try Self.document(pages: 3, in: dir)
        let environment = ["CONTEXTKIT_CACHE": dir.path("cache")]
        let folder = dir.url.appendingPathComponent("cache/summaries")
        let first = try ctxkit.run(["summarise", doc], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].count == 64 + 5, "one <sha-256>.json: \(files)")
        // A planted summary under the same key is what the next plain run prints: it was read, not made.
        let planted = #"{"headline":"Planted","points":["From the cache."]}"#
        try Data(planted.utf8).write(to: folder.appendingPathComponent(files[0]))
        #expect(try ctxkit.run(["summarise", doc], environment: environment).stdout == "Planted\n- From the cache.\n")
        #expect(try ctxkit.run(["summarise", doc, "--no-cache"], environment: environment).stdout == first.stdout)
        // --json reports a run's calls, so it always runs.
        let json = try ctxkit.run(["summarise", doc, "--json"], environment: environment)
        #expect((try json.json()["calls"] as? [Any])?.isEmpty == false)
        // Another text, or --no-cache, leaves no new file.
        let other = try dir.write("other.md", String(repeating: "A different text about tides and harbours. ", count: 20))
        _ = try ctxkit.run(["summarise", other, "--no-cache"], environment: environment)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
        _ = try ctxkit.run(["summarise", other], environment: environment)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
    }

    @Test func jsonHasTheSummaryThePlanAndTheMetrics() throws {
        let dir = try TempDir()
        let doc = try Self.document(pages: 8, in: dir)
        let out = try ctxkit.run(["summarise", doc, "--json", "-m", "apple-on-device"])
        #expect(out.status == 0, "\(out.stderr)")
        let json = try out.json()
        let summary = try #require(json["summary"] as? [String: Any])
        #expect((summary["points"] as? [String])?.count == 3)
        #expect(json["window"] as? Int == 4096)
        let levels = try #require(json["levels"] as? [[String: Any]])
        #expect(levels.count >= 2)
        #expect(levels[0]["stage"] as? String == "map")
        let chunks = levels.reduce(0) { $0 + (($1["chunks"] as? [Any])?.count ?? 0) }
        let calls = try #require(json["calls"] as? [[String: Any]])
        #expect(calls.count == chunks)
        for call in calls {
            #expect((call["timeToFirstToken"] as? Double ?? -1) >= 0)
            #expect((call["tokensSent"] as? Int ?? 0) > 0)
            #expect(call["copied"] as? Bool == false)
        }
        let totals = try #require(json["totals"] as? [String: Any])
        #expect(totals["calls"] as? Int == calls.count)
        #expect(totals["copiesDetected"] as? Int == 0)
        for level in levels {
            let budget = try #require(level["budget"] as? [String: Any])
            let room = try #require(budget["room"] as? Int)
            for chunk in level["chunks"] as? [[String: Any]] ?? [] { #expect((chunk["tokens"] as? Int ?? .max) <= room) }
        }
    }

    @Test func streamPrintsTheSameSummaryAndEachCall() throws {
        let dir = try TempDir()
        let doc = try Self.document(pages: 4, in: dir)
        let plain = try ctxkit.run(["summarise", doc])
        let streamed = try ctxkit.run(["summarise", doc, "--stream"])
        #expect(streamed.status == 0)
        #expect(streamed.stdout == plain.stdout)
        #expect(streamed.stderr.contains("call 1 map 0.1: first token"))
        #expect(streamed.stderr.contains("level 0 (map)"))
    }

    @Test func statsShowEveryCallAndTheTotals() throws {
        let dir = try TempDir()
        let doc = try Self.document(pages: 4, in: dir)
        let out = try ctxkit.run(["summarise", doc, "--stats"])
        #expect(out.status == 0)
        #expect(out.stdout.contains("first token"))
        #expect(out.stdout.contains("calls (0 failed)"))
        #expect(out.stdout.contains("copies detected 0, kept 0"))
    }

    @Test func shortInputIsItsOwnSummary() throws {
        let out = try ctxkit.run(["summarise", "-", "--json"], stdin: Data("The lamp was lit at dusk. The sea stayed calm.".utf8))
        #expect(out.status == 0)
        let json = try out.json()
        #expect(json["inputIsItsOwnSummary"] as? Bool == true)
        #expect((json["calls"] as? [Any])?.isEmpty == true)
        #expect((json["summary"] as? [String: Any])?["headline"] as? String == "The lamp was lit at dusk.")
    }

    @Test(arguments: [
        ([String](), 2, "give the text file"),
        (["x.md", "--json", "--stream"], 2, "choose one"),
        (["x.md", "--url", "http://localhost:1"], 2, "--url is for --backend openai"),
        (["x.md", "--backend", "magic"], 2, "must be one of extractive, openai"),
        (["x.md", "--greedy", "--top-k", "5"], 2, "choose one of --greedy"),
        (["/no/such/file.md"], 1, "no such file")
    ])
    func mistakesAreExplained(arguments: [String], status: Int32, message: String) throws {
        let out = try ctxkit.run(["summarise"] + arguments)
        #expect(out.status == status)
        #expect(out.stderr.contains(message), "\(out.stderr)")
    }

    @Test func anUnreachableServerSaysWhatToDo() throws {
        let dir = try TempDir()
        let doc = try Self.document(pages: 2, in: dir)
        let out = try ctxkit.run(["summarise", doc, "--backend", "openai", "--url", "http://127.0.0.1:1"])
        #expect(out.status == 5)
        #expect(out.stderr.contains("cannot reach http://127.0.0.1:1"))
        #expect(out.stderr.contains("check that the server is running"))
    }

    /// The server's base URL as users write it: bare, or with the API's `/v1`.
    @Test(arguments: ["", "/v1", "/v1/"])
    func theOpenAIBackendTalksToAServer(suffix: String) throws {
        let server = try ScriptServer(script: "fake-openai-server.py", announcement: "url=")
        defer { server.stop() }
        let url = server.url.absoluteString + suffix

        let dir = try TempDir()
        let doc = try Self.document(pages: 2, in: dir)
        let state = dir.path("state")
        let out = try ctxkit.run(
            ["summarise", doc, "--backend", "openai", "--url", url, "--server-model", "ok", "-m", "gpt-4o", "--json"],
            environment: ["XDG_STATE_HOME": state])
        #expect(out.status == 0, "\(out.stderr)")
        let json = try out.json()
        #expect((json["summary"] as? [String: Any])?["headline"] as? String == "Keepers tend the northern light")
        #expect(json["window"] as? Int == 2048, "the server's window (/props) wins over the profile's")
        let calls = try #require(json["calls"] as? [[String: Any]])
        #expect(calls.allSatisfy { $0["tokensSentReported"] as? Bool == true && $0["serverPromptMilliseconds"] as? Double == 210.5 })
        #expect(FileManager.default.fileExists(atPath: state + "/contextkit/latency/gpt-4o.json"), "latency saved for ctxkit plan")
        // The saved figures (written with ContextKitJSON) are what plan reads back.
        let plan = try ctxkit.run(["plan", doc, "-m", "gpt-4o", "--json"], environment: ["XDG_STATE_HOME": state])
        #expect(plan.status == 0, "\(plan.stderr)")
        let time = try #require(try plan.json()["time"] as? [String: Any])
        #expect(time["measured"] as? Bool == true)
        #expect((time["source"] as? String)?.hasPrefix("measured on openai ") == true, "\(time)")
    }
}
