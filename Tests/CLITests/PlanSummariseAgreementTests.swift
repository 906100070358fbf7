import Foundation
import Testing
import TestSupport
import Summariser

/// `ctxkit plan` forecasts the map calls `ctxkit summarise` makes for the
/// same file, profile, instructions, schema, source frame and reserve: the
/// instructions, schema and frame are the summariser's own, handed to plan as a user would.
@Suite struct PlanSummariseAgreementTests {
    static let ctxkit = ToolRunner(tool: "ctxkit")

    /// Both tools' `--json` for `file`, with `extra` options on both.
    static func both(_ file: String, _ extra: [String], in scratch: TempDir) throws -> (plan: [String: Any], summarise: [String: Any]) {
        let schema = try scratch.write("Summary.schema.json", Summary.schema.compactJSON)
        let instructions = try scratch.write("map-instructions.txt", SummaryEngine.Configuration.defaultMapInstructions)
        let state = ["XDG_STATE_HOME": scratch.path("state")]
        let plan = try ctxkit.run(["plan", file, "--schema", schema, "--instructions", instructions, "--source-frame", "--json"] + extra, environment: state)
        try #require(plan.status == 0, "\(plan.stderr)")
        let summarise = try ctxkit.run(["summarise", file, "--json"] + extra, environment: state)
        try #require(summarise.status == 0, "\(summarise.stderr)")
        return (try plan.json(), try summarise.json())
    }

    static func mapCalls(plan json: [String: Any]) -> Int? {
        ((json["plan"] as? [String: Any])?["levels"] as? [[String: Any]])?.first?["calls"].flatMap { $0 as? [Any] }?.count
    }

    static func mapCalls(summarise json: [String: Any]) -> Int? {
        (json["calls"] as? [[String: Any]])?.filter { $0["stage"] as? String == "map" }.count
    }

    @Test(arguments: [["-m", "apple-on-device"], ["-m", "gpt-2"], ["-m", "apple-on-device", "--reserve", "900"]])
    func summariseMakesTheMapCallsPlanForecasts(options: [String]) throws {
        let scratch = try TempDir()
        let file = try scratch.write("doc.md", PlanCLITests.longText())
        let (plan, summarise) = try Self.both(file, options, in: scratch)
        let planned = try #require(Self.mapCalls(plan: plan))
        try #require(planned > 1, "the text needs several calls")
        #expect(Self.mapCalls(summarise: summarise) == planned)
    }

    @Test func summariseMapsThePlannedByteRanges() throws {
        let scratch = try TempDir()
        let file = try scratch.write("doc.md", PlanCLITests.longText())
        let (plan, summarise) = try Self.both(file, ["-m", "apple-on-device"], in: scratch)
        let planned = (plan["chunks"] as? [[String: Any]] ?? []).compactMap { $0["bytes"] as? [String: Int] }.map { [$0["start"], $0["end"]] }
        let mapped = ((summarise["levels"] as? [[String: Any]])?.first?["chunks"] as? [[String: Any]] ?? []).compactMap { $0["bytes"] as? [Int] }
        #expect(mapped == planned.map { $0.compactMap { $0 } })
    }
}
