import Foundation
import TestSupport
import Testing
import TokenKit

/// `tokcount --jsonl`, `--summary` and `--merge`, run as a pipeline runs them.
@Suite struct JSONLCLITests {
    let tokcount = ToolRunner(tool: "tokcount")

    func o200k(_ text: String) throws -> Int { try Tokenizer.named("o200k_base").count(text) }

    /// Each output line as a JSON object.
    func records(_ output: ToolRunner.Output) throws -> [[String: Any]] {
        try output.stdout.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw ChildProcessError(message: "not a JSON object: \(line)")
            }
            return object
        }
    }

    static let texts = [
        "Hello, world!", "Всеобщая декларация прав человека", "人人生而自由，在尊严和权利上一律平等。",
        "", "tabs\tand\nnew lines", String(repeating: "long text ", count: 3000), "emoji 👩‍👩‍👧‍👦 and <|endoftext|>"
    ]

    func jsonl(_ texts: [String]) -> String {
        texts.enumerated().map { i, text in
            var line = ""
            JSONWriterShim.append(["id": i, "text": text], to: &line)
            return line + "\n"
        }.joined()
    }

    @Test(arguments: [1, 2, 4])
    func oneLinePerRecordInInputOrder(jobs: Int) throws {
        // Many records, so that batches run on several workers at once.
        let texts = (0..<3000).map { Self.texts[$0 % Self.texts.count] + " #\($0)" }
        let r = try tokcount.run(["--jsonl", "-j", "\(jobs)"], stdin: Data(jsonl(texts).utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        let out = try records(r)
        #expect(out.count == texts.count)
        var mismatches = 0
        for (i, (record, text)) in zip(out, texts).enumerated() {
            #expect(record["id"] as? Int == i)
            if record["tokens"] as? Int != (try o200k(text)) { mismatches += 1 }
            #expect(record["characters"] as? Int == text.unicodeScalars.count)
            #expect(record["bytes"] as? Int == text.utf8.count)
            #expect(record["fits"] as? Bool == true)
        }
        #expect(mismatches == 0)
        #expect(r.stdout.hasPrefix("{\"id\":0,\"tokens\":"))
    }

    @Test func fieldAndIDPathsIdsAndFits() throws {
        let input = #"{"meta":{"key":"a/1"},"turns":[{"content":"one two three"}]}"# + "\n"
        let r = try tokcount.run(["--jsonl", "--field", "turns.0.content", "--id-field", "meta.key", "--ids", "-e", "cl100k_base", "--window", "8"], stdin: Data(input.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        let ids = try Tokenizer.named("cl100k_base").encodeOrdinary("one two three")
        #expect(r.stdout == "{\"id\":\"a/1\",\"tokens\":3,\"characters\":13,\"bytes\":13,\"fits\":false,\"ids\":[\(ids.map(String.init).joined(separator: ","))]}\n")
    }

    /// Every kind of bad record gets its own error line; the others are counted; exit 1.
    @Test func badRecordsFailAloneAndTheRestGoOn() throws {
        var input = Data()
        let lines = [
            #"{"id":1,"text":"fine"}"#,  // 1
            #"{"id":2,"text":"cut short"#,  // 2 not JSON
            #"[1,2]"#,  // 3 not an object
            #"{"id":4}"#,  // 4 no text
            #"{"id":5,"text":5}"#,  // 5 not a string
            #"{"id":6,"text":"\ud800 lone"}"#,  // 6 lone high surrogate
            #"{"id":7,"text":"\udc00"}"#,  // 7 lone low surrogate
            #"{"id":8,"text":"\ud83d\ude00 pair"}"#,  // 8 an escaped pair: counted
            "",  // 9 blank: no record
            #"{"id":10,"text":"crlf"}"# + "\r"  // 10 CRLF
        ]
        for line in lines { input.append(contentsOf: Array(line.utf8) + [0x0A]) }
        input.append(contentsOf: Array(#"{"id":11,"text":"bad "#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8) + [0x0A])  // 11 invalid UTF-8
        input.append(contentsOf: Array(#"{"id":12,"text":"last, no line feed"}"#.utf8))
        let r = try tokcount.run(["--jsonl"], stdin: input)
        #expect(r.status == 1)
        let out = try records(r)
        #expect(out.count == 11)
        let errors = out.filter { $0["error"] != nil }
        #expect(errors.map { $0["line"] as? Int } == [2, 3, 4, 5, 6, 7, 11])
        let messages = errors.map { $0["error"] as? String ?? "" }
        #expect(messages[0].hasPrefix("not JSON: column 16 (byte offset 38)"))
        #expect(messages[1] == "the line is an array, not a JSON object")
        #expect(messages[2].hasPrefix("no field \"text\""))
        #expect(messages[3] == "field \"text\" is a number, not a string")
        #expect(messages[4].contains("lone high surrogate"))
        #expect(messages[5].contains("lone low surrogate"))
        #expect(messages[6].contains("not valid UTF-8"))
        #expect(errors[2]["id"] as? Int == 4)
        #expect(errors[0]["id"] == nil)
        let counted = out.filter { $0["error"] == nil }
        #expect(counted.map { $0["id"] as? Int } == [1, 8, 10, 12])
        #expect(counted[1]["tokens"] as? Int == (try o200k("😀 pair")))
        #expect(counted[2]["tokens"] as? Int == (try o200k("crlf")))
        #expect(r.stderr.contains("7 of 11 records could not be counted"))
    }

    @Test func aLineOverTheLimitIsRefusedAloneNamingItsLine() throws {
        let long = #"{"id":"big","text":""# + String(repeating: "word ", count: 2000) + "\"}"
        let input = #"{"id":"a","text":"before"}"# + "\n" + long + "\n" + #"{"id":"b","text":"after"}"# + "\n"
        let r = try tokcount.run(["--jsonl", "--max-record-bytes", "1000"], stdin: Data(input.utf8))
        #expect(r.status == 1)
        let out = try records(r)
        #expect(out.map { $0["id"] as? String } == ["a", nil, "b"])
        #expect(out[1]["line"] as? Int == 2)
        let message = out[1]["error"] as? String ?? ""
        #expect(message.contains("10,022 bytes, over the limit of 1,000"))
        #expect(message.contains("--max-record-bytes"))
    }

    @Test func anEmptyInputIsNoRecordsAndNoError() throws {
        let r = try tokcount.run(["--jsonl"], stdin: Data())
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        let s = try tokcount.run(["--jsonl", "--summary"], stdin: Data("\n\n".utf8))
        #expect(s.status == 0)
        let summary = try s.json()
        #expect(summary["records"] as? Int == 0)
        #expect(summary["failed"] as? Int == 0)
    }

    /// The dataset split three ways, each part summarised alone, the parts
    /// merged: the same line as one summary of the whole.
    @Test func mergedPartSummariesEqualOneSummaryOfTheWhole() throws {
        let texts = (0..<900).map { Self.texts[$0 % Self.texts.count] + String(repeating: " more", count: $0 % 13) }
        var lines = jsonl(texts).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("{not json", at: 450)
        let dir = try TempDir()
        let whole = try tokcount.run(["--jsonl", "--summary"], stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(whole.status == 1)
        #expect(whole.stderr.contains("standard input: line 451: not JSON"))
        var partFiles: [String] = []
        for k in 0..<3 {
            let part = lines[(k * lines.count / 3)..<((k + 1) * lines.count / 3)].joined(separator: "\n") + "\n"
            let file = try dir.write("part\(k).jsonl", part)
            let r = try tokcount.run(["--jsonl", "--summary", file])
            partFiles.append(try dir.write("part\(k).summary", r.stdout))
        }
        let merged = try tokcount.run(["--merge"] + partFiles.reversed())
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        let total = try merged.json()
        #expect(total["records"] as? Int == 900)
        #expect(total["failed"] as? Int == 1)
        #expect(total["tokens"] as? Int == (try texts.reduce(0) { $0 + (try o200k($1)) }))
        #expect((total["longest"] as? [Any])?.count == 10)
    }

    @Test func mergeRefusesWhatIsNoSummaryNamingFileAndLine() throws {
        let dir = try TempDir()
        let good = try tokcount.run(["--jsonl", "--summary"], stdin: Data(#"{"text":"a"}"#.utf8)).stdout
        let other = try tokcount.run(["--jsonl", "--summary", "-e", "cl100k_base"], stdin: Data(#"{"text":"a"}"#.utf8)).stdout
        let file = try dir.write("parts", good + "{\"records\":3}\n" + other)
        let r = try tokcount.run(["--merge", file])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(file): line 2: not a tokcount summary"))
        #expect(r.stderr.contains("\(file): line 3: made with other settings"))
        #expect(try r.json()["records"] as? Int == 1)
        let empty = try tokcount.run(["--merge"], stdin: Data())
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("no summary lines"))
    }

    /// 110 MB of records through a pipe, one of them a single 100 MB line:
    /// that one is refused alone (over the 64 MiB default), the others are
    /// counted, and the process stays small (it never holds the big line).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")), .timeLimit(.minutes(5)))
    func jsonlRecordsStreamInBoundedMemory() throws {
        let dir = try TempDir()
        let binary = ToolRunner.productsDirectory.appendingPathComponent("tokcount").path
        let rss = dir.path("rss")
        let producer =
            #"{ printf '{"id":"a","text":"before"}\n{"id":"huge","text":"'; head -c 100000000 /dev/zero | tr '\0' a; "#
            + #"printf '"}\n'; yes '{"id":"s","text":"lorem ipsum dolor sit amet, consectetur adipiscing elit"}' | head -n 150000; }"#
        let errors = dir.path("errors")
        let r = try ToolRunner.runProgram("/bin/sh", ["-c", "\(producer) | /usr/bin/time -o \(rss) -f %M \(binary) --jsonl --summary - 2>\(errors)"])
        #expect(r.status == 1)
        let stderr = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(stderr.contains("standard input: line 2: the line is 100,000,023 bytes, over the limit of 67,108,864 (at byte offset 27)"), "\(stderr)")
        let summary = try r.json()
        #expect(summary["records"] as? Int == 150_001)
        #expect(summary["failed"] as? Int == 1)
        #expect(summary["tokens"] as? Int == 1 + 150_000 * (try o200k("lorem ipsum dolor sit amet, consectetur adipiscing elit")))
        // /usr/bin/time says "Command exited with non-zero status 1" first: the size is the last line.
        let timeOutput = try String(contentsOfFile: rss, encoding: .utf8)
        let kilobytes = timeOutput.split(separator: "\n").last.flatMap { Int($0) } ?? .max
        #expect(kilobytes < 200_000, "peak RSS: \(timeOutput)")
    }

    @Test func optionsThatNeedJSONLSaySo() throws {
        let r = try tokcount.run(["--summary"], stdin: Data("x".utf8))
        #expect(r.status == 2)
        #expect(r.stderr.contains("add it"))
        let path = try tokcount.run(["--jsonl", "--field", "a..b"], stdin: Data())
        #expect(path.status == 2)
        #expect(path.stderr.contains("empty step"))
    }
}

/// Writes test records with JSONSerialization (sorted keys), a writer other than the one under test.
enum JSONWriterShim {
    static func append(_ object: [String: Any], to out: inout String) {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        out += String(decoding: data, as: UTF8.self)
    }
}
