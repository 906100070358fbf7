import Foundation
import Testing
import TestSupport

/// Numbers from options and summary files are checked before they are used:
/// a number near 2^63 once trapped (`--reserve`, `--merge`), one once
/// exhausted the thread table (`-j`), and a summary that contradicted itself
/// was added into a total as if it had been counted.
@Suite struct CheckedNumberTests {
    let tokcount = ToolRunner(tool: "tokcount")
    let ctxkit = ToolRunner(tool: "ctxkit")

    func text() throws -> TempDir {
        let dir = try TempDir()
        try dir.write("a.txt", "The rain had stopped by the time Mira reached the pier.\n")
        return dir
    }

    @Test(arguments: [
        ["--reserve", "9223372036854775807"], ["--window", "9223372036854775807"], ["--window", "99999999999999M"],
        ["--truncate", "9223372036854775807"]
    ])
    func aTokenCountPastTwoToTheFortyIsAUsageErrorNotATrap(option: [String]) throws {
        let dir = try text()
        let result = try tokcount.run(option + [dir.path("a.txt")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("\(option[0]) wants a whole number from"), "\(result.stderr)")
        #expect(result.stderr.contains("1,099,511,627,776"), "\(result.stderr)")
    }

    @Test func aReserveThatLeavesNoRoomInTheWindowIsRefusedWithWhatToDo() throws {
        let dir = try text()
        let result = try tokcount.run(["--reserve", "200000", dir.path("a.txt")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("a reserve of 200,000 tokens leaves no room in gpt-4o's window of 128,000"), "\(result.stderr)")
        #expect(result.stderr.contains("larger --window"), "\(result.stderr)")
        // The control: a reserve below the window counts.
        #expect(try tokcount.run(["--reserve", "127000", dir.path("a.txt")]).status == 0)
    }

    @Test func ctxkitPlanRefusesAReservePastTwoToTheForty() throws {
        let dir = try text()
        let result = try ctxkit.run(["plan", dir.path("a.txt"), "--reserve", "9223372036854775807"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--reserve wants a whole number from 0 to 1,099,511,627,776"), "\(result.stderr)")
    }

    @Test func aHugeJobCountIsCappedAtFourThreadsPerCoreWithANote() throws {
        let dir = try text()
        let result = try tokcount.run(["-j", "9223372036854775807", "--json", dir.path("a.txt")])
        #expect(result.status == 0, "\(result.stderr)")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(result.stderr.contains("is more than 4 threads for each of the \(cores) cores; using \(4 * cores)"), "\(result.stderr)")
        let inputs = try result.json()["inputs"] as? [[String: Any]]
        #expect(inputs?.first?["tokens"] as? Int == 12)
        // The control: a count within the cap says nothing.
        #expect(try tokcount.run(["-j", "2", dir.path("a.txt")]).stderr.isEmpty)
    }

    /// A summary line of two counted records, as `--jsonl --summary` writes it, with `change` applied.
    func summaryLine(_ change: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        let dir = try TempDir()
        try dir.write("r.jsonl", "{\"text\":\"hello world\"}\n{\"text\":\"a b c d e\"}\n")
        let made = try tokcount.run(["--jsonl", "--summary", dir.path("r.jsonl")])
        var object = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        change(&object)
        return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func histogram(bucket: Int, count: Int) -> [String: Any] {
        var counts = Array(repeating: 0, count: 22)
        counts[bucket] = count
        return ["edges": [0] + (0...20).map { 1 << $0 }, "counts": counts]
    }

    @Test func mergeRefusesCountsThatWouldPassIntMaxNamingTheLineAndKeepsTheRest() throws {
        let good = try summaryLine()
        let huge = try summaryLine {
            $0["tokens"] = 9_223_372_036_854_775_000
            $0["characters"] = 9_223_372_036_854_775_000
            $0["bytes"] = 9_223_372_036_854_775_000
            $0["histogram"] = Self.histogram(bucket: 21, count: 2)
        }
        let dir = try TempDir()
        try dir.write("parts.jsonl", [good, huge, huge].joined(separator: "\n") + "\n")
        let result = try tokcount.run(["--merge", dir.path("parts.jsonl")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("parts.jsonl: line 3: \"tokens\""), "\(result.stderr)")
        #expect(result.stderr.contains("passes 9223372036854775807"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        // The first two lines are still merged.
        let merged = try result.json()
        #expect(merged["records"] as? Int == 4)
    }

    @Test(arguments: [
        ("records", "\"records\" is 5 but the histogram's counts add up to 500000"),
        ("fitting", "\"fitting\" is 3, more than its 2 records"),
        ("tokens", "\"tokens\" is 1000, more than the 10 its histogram's buckets hold at most"),
        ("bytes", "3 bytes cannot hold 20 characters")
    ])
    func mergeRefusesASummaryThatContradictsItself(field: String, message: String) throws {
        let good = try summaryLine()
        let bad = try summaryLine {
            switch field {
            case "records":
                $0["records"] = 5
                $0["histogram"] = Self.histogram(bucket: 3, count: 500_000)
            case "fitting": $0["fitting"] = 3
            case "tokens": $0["tokens"] = 1000
            default: $0["bytes"] = 3
            }
        }
        let dir = try TempDir()
        try dir.write("parts.jsonl", good + "\n" + bad + "\n")
        let result = try tokcount.run(["--merge", dir.path("parts.jsonl")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("parts.jsonl: line 2: the summary contradicts itself: \(message)"), "\(result.stderr)")
        #expect(try result.json()["records"] as? Int == 2)
    }
}
