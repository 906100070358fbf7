import Foundation
import TestSupport
import Testing

/// The PySpark examples of `examples/spark/`, run for real in local mode with
/// the built tokcount: 20,400 UDHR paragraphs in 387 languages (made at test
/// time by `make_dataset.py`, with one line that is not JSON), counted by
/// `count_tokens.py` (RDD.pipe through `tokcount --jsonl`) and by
/// `summarise_tokens.py` (`--summary` per partition, `--merge` on the
/// driver), compared with tiktoken record by record (`reference_counts.py`).
///
/// Needs the venv's pyspark and a Java runtime (17 or later); under CI a
/// missing one fails the test, elsewhere it says what to install and passes.
@Suite(.serialized) struct SparkJobTests {
    static let records = 20_400
    static let malformedAt = 777
    let tokcount = ToolRunner.productsDirectory.appendingPathComponent("tokcount").path
    let spark = TestRepository.path("examples/spark")

    /// The Python that has pyspark, or why there is none.
    static func prerequisites() -> Result<URL, ChildProcessError> {
        guard let python = TestRepository.python else {
            return .failure(ChildProcessError(message: "no test Python: run scripts/python-env (scripts/test does), or set CONTEXTKIT_PYTHON"))
        }
        let java = try? ChildProcess.run("/usr/bin/env", ["java", "-version"])
        guard java?.status == 0 else {
            return .failure(
                ChildProcessError(message: "no Java runtime (`java -version` fails): PySpark needs Java 17 or later; on Debian: apt-get install openjdk-17-jre-headless"))
        }
        let pyspark = try? ChildProcess.run(python.path, ["-c", "import pyspark"])
        guard pyspark?.status == 0 else {
            return .failure(ChildProcessError(message: "pyspark is not installed in \(python.path): run scripts/python-env (it is pinned in scripts/requirements-test.txt)"))
        }
        return .success(python)
    }

    /// Runs a script of examples/spark with Spark on the loopback only; throws with its output when it fails.
    func run(_ python: URL, _ script: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(
            "/usr/bin/env",
            [
                "SPARK_LOCAL_IP=127.0.0.1", "PYSPARK_PYTHON=\(python.path)",
                python.path, spark.appendingPathComponent(script).path
            ] + arguments)
        guard result.status == 0 else { throw ChildProcessError(message: "\(script) exited \(result.status):\n\(result.output.suffix(3000))") }
        return result.output
    }

    func lines(_ url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    @Test func aDatasetCountedOnSparkEqualsTiktokenRecordByRecord() async throws {
        let python: URL
        switch Self.prerequisites() {
        case .success(let found): python = found
        case .failure(let missing):
            if TestRepository.isCI { Issue.record("the Spark test cannot run: \(missing.message)") } else { print("SparkJobTests: not run: \(missing.message)") }
            return
        }
        let dir = try TempDir()
        let dataset = dir.url.appendingPathComponent("udhr.jsonl").path
        let counted = dir.url.appendingPathComponent("counted.jsonl"), reference = dir.url.appendingPathComponent("reference.jsonl")
        let summary = dir.url.appendingPathComponent("summary.json")
        let (made, log, summaryLog) = try await offThePool { [self] in
            let made = try run(python, "make_dataset.py", [dataset, "--records", "\(Self.records)", "--malformed-at", "\(Self.malformedAt)"])
            _ = try run(python, "reference_counts.py", [dataset, "o200k_base", reference.path])
            let log = try run(
                python, "count_tokens.py",
                [
                    dataset, "--master", "local[2]", "--partitions", "3",
                    "--tokcount", tokcount, "--results", counted.path
                ])
            let summaryLog = try run(
                python, "summarise_tokens.py",
                [
                    dataset, "--master", "local[2]", "--partitions", "5",
                    "--tokcount", tokcount, "--results", summary.path
                ])
            return (made, log, summaryLog)
        }
        #expect(made.contains("20400 records in 387 languages"))

        // Per record: the same tokens as tiktoken, in the dataset's order; the malformed line alone fails.
        let expected = try lines(reference)
        let got = try lines(counted)
        #expect(expected.count == Self.records)
        let failures = got.filter { $0["error"] != nil }
        #expect(failures.count == 1)
        #expect((failures.first?["error"] as? String)?.hasPrefix("not JSON") == true)
        let results = got.filter { $0["error"] == nil }
        #expect(results.count == Self.records)
        var mismatches = 0
        for (r, e) in zip(results, expected) where r["id"] as? String != e["id"] as? String || r["tokens"] as? Int != e["tokens"] as? Int {
            mismatches += 1
        }
        #expect(mismatches == 0, "\(mismatches) of \(Self.records) records differ from tiktoken")
        let total = expected.reduce(0) { $0 + ($1["tokens"] as? Int ?? 0) }
        #expect(results.reduce(0) { $0 + ($1["tokens"] as? Int ?? 0) } == total)
        #expect(log.contains("count_tokens: \(Self.records) records counted, 1 failed, \(total) tokens, 3 partitions"), "\(log.suffix(2000))")

        // Five partitions' summaries merged: tiktoken's total, and exactly what one process says of the whole file.
        let merged = try JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: Any] ?? [:]
        let totals = merged["merged"] as? [String: Any] ?? [:]
        #expect((merged["parts"] as? [Any])?.count == 5)
        #expect(totals["records"] as? Int == Self.records)
        #expect(totals["failed"] as? Int == 1)
        #expect(totals["tokens"] as? Int == total)
        let whole = try ToolRunner(tool: "tokcount").run(["--jsonl", "--summary", dataset])
        #expect(try JSONSerialization.jsonObject(with: whole.stdoutBytes) as? NSDictionary == totals as NSDictionary)
        // Spark's progress bar may share the line (it ends in \r): print from the script's own words on.
        let countLine = log.range(of: "count_tokens: \(Self.records) records").map { String(log[$0.lowerBound...].prefix { $0 != "\n" }) }
        print("SparkJobTests: \(countLine ?? "")")
        print("SparkJobTests: \(summaryLog.split(separator: "\n").last { $0.hasPrefix("summarise_tokens:") } ?? "")")
        print("SparkJobTests: tiktoken o200k_base: \(Self.records) records, \(total) tokens, \(mismatches) mismatches")
    }
}
