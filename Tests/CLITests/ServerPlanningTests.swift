import Foundation
import Summariser
import Testing
import TestSupport

/// `ctxkit summarise --backend openai --url` with no `-m` plans for the model
/// the server runs: a real llama-server with SmolLM2 at 2,048 tokens charges
/// every call exactly the prompt tokens the plan gave it, and `ctxkit plan
/// --url` forecasts the same calls.
@Suite(.serialized) struct ServerPlanningTests {
    static let ctxkit = ToolRunner(tool: "ctxkit")

    /// About eight pages of the light-station yearbook: several 2,048-token windows of SmolLM2's tokens.
    static func document(in scratch: TempDir) throws -> String {
        let path = scratch.path("yearbook.md")
        let python = ProcessInfo.processInfo.environment["CONTEXTKIT_PYTHON"] ?? "/usr/bin/python3"
        let made = try ChildProcess.run(python, [TestRepository.path("scripts/make-long-document.py").path, "--pages", "8", "-o", path])
        try #require(made.status == 0, "\(made.output)")
        return path
    }

    @Test(
        "every call's planned prompt tokens are what the server charged: no overflow, no replan, no failure",
        .enabled(if: LlamaServer.shouldRun, "llama-server is not installed (scripts/llama-server install)"),
        .timeLimit(.minutes(40)))
    func summariseIsPlannedExactlyForTheServer() async throws {
        let scratch = try TempDir()
        let file = try Self.document(in: scratch)
        let schema = try scratch.write("Summary.schema.json", Summary.schema.compactJSON)
        let instructions = try scratch.write("map-instructions.txt", SummaryEngine.Configuration.defaultMapInstructions)
        let state = ["XDG_STATE_HOME": scratch.path("state")]
        let (summarise, plan) = try await LlamaServer.withServer(window: 2048) { server in
            try await offThePool {
                let url = server.absoluteString
                let summarise = try Self.ctxkit.run(["summarise", file, "--backend", "openai", "--url", url, "--greedy", "--seed", "1", "--json"], environment: state)
                let plan = try Self.ctxkit.run(["plan", file, "--url", url, "--schema", schema, "--instructions", instructions, "--source-frame", "--json"], environment: state)
                return (summarise, plan)
            }
        }
        try #require(summarise.status == 0, "\(summarise.stderr)")
        let run = try summarise.json()
        #expect((run["profileSource"] as? String)?.contains("from /props") == true, "\(run["profileSource"] ?? "none")")
        #expect(run["window"] as? Int == 2048)
        let calls = try #require(run["calls"] as? [[String: Any]])
        let maps = calls.filter { $0["stage"] as? String == "map" }
        #expect(maps.count >= 3, "the document needs several windows: \(maps.count) map calls")
        for call in calls {
            let planned = call["tokensPlanned"] as? Int, sent = call["tokensSent"] as? Int
            #expect(call["tokensSentReported"] as? Bool == true && call["tokensPlannedByBackend"] as? Bool == true, "\(call)")
            #expect(planned == sent, "call \(call["call"] ?? "?"): planned \(planned ?? -1), the server charged \(sent ?? -1)")
            #expect((sent ?? .max) <= 2048 - 512, "call \(call["call"] ?? "?") leaves the answer's 512 tokens free")
        }
        let totals = try #require(run["totals"] as? [String: Any])
        #expect(totals["replans"] as? Int == 0 && totals["failedCalls"] as? Int == 0, "\(totals)")

        try #require(plan.status == 0, "\(plan.stderr)")
        let forecast = try plan.json()
        #expect((forecast["profileSource"] as? String)?.contains("from /props") == true)
        let planned = ((forecast["plan"] as? [String: Any])?["levels"] as? [[String: Any]])?.first?["calls"] as? [Any]
        #expect(planned?.count == maps.count, "ctxkit plan forecasts \(planned?.count ?? 0) map calls; summarise made \(maps.count)")
        let plannedRanges = (forecast["chunks"] as? [[String: Any]] ?? []).compactMap { $0["bytes"] as? [String: Int] }.map { [$0["start"] ?? -1, $0["end"] ?? -1] }
        let mappedRanges = ((run["levels"] as? [[String: Any]])?.first?["chunks"] as? [[String: Any]] ?? []).compactMap { $0["bytes"] as? [Int] }
        #expect(plannedRanges == mappedRanges)
    }
}
