import Foundation
import TestSupport
import Testing

/// `ctxkit plan` as a user runs it.
@Suite("ctxkit plan")
struct PlanCLITests {
    static let ctxkit = ToolRunner(tool: "ctxkit")

    /// No user profiles and no measured latency figures leak into a test.
    static func run(_ arguments: [String], stdin: Data? = nil) throws -> ToolRunner.Output {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("plan-tests-no-state").path
        return try ctxkit.run(["plan"] + arguments, stdin: stdin, environment: ["XDG_STATE_HOME": state], in: TestRepository.root)
    }

    /// A profile file with a window of `window` tokens, counted with cl100k_base.
    static func profile(window: Int, in scratch: TempDir) throws -> String {
        try scratch.write("profiles.json", #"{"profiles": [{"name": "tiny", "contextWindow": \#(window), "tokenizer": {"encoding": "cl100k_base"}}]}"#)
    }

    static func longText() -> String {
        (1...120).map { n in
            (n % 10 == 1 ? "## Part \(n / 10 + 1)\n\n" : "")
                + (1...6).map { "Paragraph \(n) sentence \($0) tells how the lamp turned through the night and the keeper wound it." }.joined(separator: " ")
                + "\n\n"
        }.joined()
    }

    @Test("the budget arithmetic comes first, then the chunks and the calls; Apple counts are marked ≈")
    func humanOutput() throws {
        let run = try Self.run(["corpora/prose/en.txt", "-m", "apple-on-device"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout
        let order = [
            "context window", "− request overhead", "− instructions", "− output schema", "− response reserve", "= room for text", "Text:", "first words", "Map-reduce plan", "time"
        ]
        let positions = order.map { out.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(out)")
        #expect(positions.compactMap { $0 }.sorted() == positions.compactMap { $0 }, "sections out of order:\n\(out)")
        #expect(out.contains("4,096") && out.contains("≈"))
        #expect(out.contains("1 chunk"))
        #expect(out.contains("estimate"))
    }

    @Test("--json: chunks tile the file, each within the room, and the budget parts add up")
    func jsonTilesTheInput() throws {
        let scratch = try TempDir()
        let path = try scratch.write("long.md", Self.longText())
        let run = try Self.run([path, "-m", "apple-on-device", "--schema", "examples/Summary.json", "--instructions", "Summarise the text.", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        let budget = try #require(json["budget"] as? [String: Int])
        let room = try #require(budget["room"])
        #expect(room == budget["window"]! - budget["requestOverhead"]! - budget["instructions"]! - budget["schema"]! - budget["reserve"]!)
        #expect(budget["schema"]! > 100 && budget["instructions"]! > 0)
        let chunks = try #require(json["chunks"] as? [[String: Any]])
        #expect(chunks.count > 2)
        let bytes = Array(Self.longText().utf8)
        var end = 0
        for chunk in chunks {
            let range = try #require(chunk["bytes"] as? [String: Int])
            #expect(range["start"] == end)
            end = range["end"]!
            #expect((chunk["tokens"] as? Int ?? .max) <= room)
            #expect(chunk["characters"] is [String: Int])
            #expect(chunk["level"] is String)
        }
        #expect(end == bytes.count)
        let plan = try #require(json["plan"] as? [String: Any])
        let levels = try #require(plan["levels"] as? [[String: Any]])
        #expect((levels.first?["kind"] as? String) == "map")
        #expect((levels.last?["kind"] as? String) == "reduce")
        #expect((plan["summarySource"] as? String) == "expected from the schema")
        let time = try #require(json["time"] as? [String: Any])
        #expect((time["estimate"] as? Bool) == true && (time["measured"] as? Bool) == false)
        #expect((time["coldFirstToken"] as? Double) == 1.15)
    }

    @Test("empty input is an empty plan, not an error")
    func emptyInput() throws {
        let run = try Self.run(["-", "-m", "apple-on-device", "--json"], stdin: Data())
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        #expect((json["chunks"] as? [Any])?.isEmpty == true)
        #expect(((json["plan"] as? [String: Any])?["calls"] as? Int) == 0)
        let text = try Self.run(["-", "-m", "apple-on-device"], stdin: Data())
        #expect(text.status == 0 && text.stdout.contains("Nothing to plan"))
    }

    @Test("a budget with no room prints the arithmetic")
    func noRoom() throws {
        let run = try Self.run(["corpora/prose/en.txt", "-m", "apple-on-device", "--reserve", "4080"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no room for text"))
        #expect(run.stderr.contains("context window") && run.stderr.contains("4,096") && run.stderr.contains("4,080") && run.stderr.contains("-6"))
    }

    @Test("a grapheme cluster larger than the room is reported; a long word is not")
    func oversizedGrapheme() throws {
        let scratch = try TempDir()
        let profiles = try Self.profile(window: 12, in: scratch)
        let family = try scratch.write("family.txt", "a 👨‍👩‍👧‍👦 b")
        let run = try Self.run([family, "--profiles", profiles, "-m", "tiny", "--reserve", "0"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("grapheme cluster") && run.stderr.contains("byte 2"))
        let word = try scratch.write("word.txt", String(repeating: "abcdefghij", count: 20))
        let ok = try Self.run([word, "--profiles", profiles, "-m", "tiny", "--reserve", "0", "--json", "--summary-tokens", "1"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let chunks = try #require(try ok.json()["chunks"] as? [[String: Any]])
        #expect(chunks.allSatisfy { ($0["tokens"] as? Int ?? .max) <= 12 })
    }

    @Test("--overlap repeats the end of each chunk and says where the new text starts")
    func overlap() throws {
        let scratch = try TempDir()
        let path = try scratch.write("long.txt", Self.longText())
        let run = try Self.run([path, "-m", "gpt-4", "--reserve", "7000", "--overlap", "50", "--summary-tokens", "200", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let chunks = try #require(try run.json()["chunks"] as? [[String: Any]])
        #expect(chunks.count > 2)
        var previousEnd = 0
        for (k, chunk) in chunks.enumerated() {
            let bytes = try #require(chunk["bytes"] as? [String: Int])
            if k > 0 {
                let newText = try #require(chunk["newText"] as? [String: Int])
                #expect(newText["byteStart"] == previousEnd)
                #expect(bytes["start"]! < previousEnd)
                #expect((chunk["overlapTokens"] as? Int ?? .max) <= 50)
            }
            previousEnd = bytes["end"]!
        }
    }

    @Test("latency figures can be overridden, and the estimate moves with them")
    func latencyOverrides() throws {
        let base = try Self.run(["corpora/prose/en.txt", "-m", "apple-on-device", "--json"]).json()
        let slow = try Self.run(["corpora/prose/en.txt", "-m", "apple-on-device", "--json", "--cold", "5", "--chars-per-second", "100"]).json()
        let a = try #require((base["time"] as? [String: Any])?["seconds"] as? Double)
        let b = try #require((slow["time"] as? [String: Any])?["seconds"] as? Double)
        #expect(b > a)
        #expect(((slow["time"] as? [String: Any])?["source"] as? String)?.contains("--cold") == true)
    }

    @Test("usage errors exit 2")
    func usage() throws {
        #expect(try Self.run([]).status == 2)
        #expect(try Self.run(["corpora/prose/en.txt", "-m", "no-such-model"]).status == 2)
        #expect(try Self.run(["corpora/prose/en.txt", "--reserve", "lots"]).status == 2)
        #expect(try Self.run(["no/such/file.txt"]).status == 1)
    }
}
