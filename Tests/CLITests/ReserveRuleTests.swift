import Foundation
import Testing
import TestSupport

/// One reserve rule (`TokenBudget.reserve(given:profileReserve:window:)`):
/// for the same profile and text, `tokcount`, `ctxkit probe`, `ctxkit plan`
/// and `schema-cost` keep the same tokens for the answer, and the three that
/// measure a text report the same room for it. A tool that went back to its
/// own default (tokcount and probe once kept 0, plan 512) fails here.
@Suite struct ReserveRuleTests {
    static let tokcount = ToolRunner(tool: "tokcount")
    static let ctxkit = ToolRunner(tool: "ctxkit")
    static let schemaCost = ToolRunner(tool: "schema-cost")
    static let summarySchema = TestRepository.root.appendingPathComponent("examples/Summary.json").path

    /// Reserve and room as each tool reports them in `--json`.
    struct Answers {
        var reserves: [String: Int] = [:]
        var rooms: [String: Int] = [:]
        var overheads: [String: Int] = [:]
    }

    static func answers(_ options: [String], file: String, schema: String) throws -> Answers {
        var answers = Answers()
        let count = try tokcount.run(["--json", file] + options)
        try #require(count.status == 0, "\(count.stderr)")
        let fit = try #require(((count.json()["inputs"] as? [[String: Any]])?.first)?["fit"] as? [String: Any])
        answers.reserves["tokcount"] = fit["reserve"] as? Int
        answers.rooms["tokcount"] = fit["available"] as? Int

        let probe = try ctxkit.run(["probe", "--where", file, "--json"] + options)
        try #require(probe.status == 0, "\(probe.stderr)")
        let where_ = try probe.json()
        let probeReserve = try #require(where_["reserve"] as? Int)
        answers.reserves["probe"] = probeReserve
        answers.rooms["probe"] = try #require(where_["window"] as? Int) - #require(where_["overhead"] as? Int) - probeReserve

        let plan = try ctxkit.run(["plan", file, "--json"] + options)
        try #require(plan.status == 0, "\(plan.stderr)")
        let budget = try #require(plan.json()["budget"] as? [String: Any])
        answers.reserves["plan"] = budget["reserve"] as? Int
        answers.overheads["plan"] = budget["requestOverhead"] as? Int
        answers.rooms["plan"] = budget["room"] as? Int

        let priced = try schemaCost.run(["--json", schema] + options)
        try #require(priced.status == 0, "\(priced.stderr)")
        let schemaBudget = try #require((priced.json()["whatIf"] as? [String: Any])?["budget"] as? [String: Any])
        answers.reserves["schema-cost"] = schemaBudget["responseReserve"] as? Int
        answers.overheads["schema-cost"] = schemaBudget["requestOverhead"] as? Int
        return answers
    }

    /// Profiles with a 1,000-token window, one without a reserve of its own and one with 200.
    static let smallProfiles =
        #"{"profiles": [{"name": "small", "contextWindow": 1000, "tokenizer": {"encoding": "cl100k_base"}}, "#
        + #"{"name": "small-reserved", "contextWindow": 1000, "defaultReserve": 200, "tokenizer": {"encoding": "cl100k_base"}}]}"#

    @Test(arguments: [
        (["-m", "gpt-4o"], 512),
        (["-m", "apple-on-device"], 512),
        (["-m", "small"], 250),
        (["-m", "small-reserved"], 200),
        (["-m", "apple-on-device", "--reserve", "300"], 300),
        (["-m", "gpt-4", "--reserve", "0"], 0)
    ])
    func everyToolKeepsTheSameReserveAndRoom(options: [String], reserve: Int) throws {
        let scratch = try TempDir()
        let file = try scratch.write("note.txt", "The reserve keeps room for the answer in every tool.\n")
        let options = options + ["--profiles", try scratch.write("profiles.json", Self.smallProfiles)]
        let answers = try Self.answers(options, file: file, schema: Self.summarySchema)
        #expect(Set(answers.reserves.values) == [reserve] && answers.reserves.count == 4, "reserves: \(answers.reserves)")
        let rooms = Set(answers.rooms.values)
        #expect(answers.rooms.count == 3 && rooms.count == 1, "rooms differ: \(answers.rooms)")
        // One request, one message: schema-cost charges the overhead plan and tokcount do.
        #expect(answers.overheads.count == 2 && Set(answers.overheads.values).count == 1, "overheads differ: \(answers.overheads)")
    }

    @Test func textOutputSaysWhichRuleSetTheReserve() throws {
        let scratch = try TempDir()
        let file = try scratch.write("note.txt", "A short note.\n")
        let byDefault = try Self.tokcount.run(["-m", "gpt-4o", file])
        #expect(byDefault.stdout.contains("512 reserved for the answer (the default: 512, at most a quarter of the window; --reserve N to change)"))
        let given = try Self.ctxkit.run(["probe", "--where", file, "-m", "gpt-4o", "--reserve", "100"])
        #expect(given.stdout.contains("− 100 reserve (given with --reserve)"))
        let priced = try Self.schemaCost.run(["-m", "gpt-4o", Self.summarySchema])
        #expect(priced.stdout.contains("(the answer reserve is the default: 512, at most a quarter of the window; --reserve N to change)"))
    }
}
