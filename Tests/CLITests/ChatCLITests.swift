import Foundation
import TestSupport
import Testing
import TokenKit

/// `tokcount --chat`, `--truncate` and `--offsets`, run as a user runs them.
@Suite struct ChatCLITests {
    let tokcount = ToolRunner(tool: "tokcount")
    static let jargon = #"""
        {"messages": [
          {"role": "system", "content": "You are a helpful, pattern-following assistant that translates corporate jargon into plain English."},
          {"role": "system", "name": "example_user", "content": "New synergies will help drive top-line growth."},
          {"role": "system", "name": "example_assistant", "content": "Things working well together will increase revenue."},
          {"role": "system", "name": "example_user", "content": "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage."},
          {"role": "system", "name": "example_assistant", "content": "Let's talk later when we're less busy about how to do better."},
          {"role": "user", "content": "This late pivot means we don't have time to boil the ocean for the client deliverable."}
        ]}
        """#

    @Test func theCookbookExampleInJSON() throws {
        let dir = try TempDir()
        let file = try dir.write("jargon.json", Self.jargon)
        let r = try tokcount.run(["--chat", file, "-m", "gpt-4o", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let c = try #require((try r.json()["conversations"] as? [[String: Any]])?.first)
        #expect(c["tokens"] as? Int == 124)
        #expect(c["overhead"] as? Int == 3 && c["tools"] as? Int == 0)
        let messages = try #require(c["messages"] as? [[String: Any]])
        #expect(messages.count == 6 && messages.map { $0["role"] as? String } == ["system", "system", "system", "system", "system", "user"])
        #expect(messages.reduce(0) { $0 + ($1["tokens"] as? Int ?? 0) } == 121)
        let fit = try #require(c["fit"] as? [String: Any])
        #expect(fit["used"] as? Int == 124 + 512 && fit["reserve"] as? Int == 512 && fit["fits"] as? Bool == true)
    }

    @Test func textOutputShowsEachMessageAndTheFit() throws {
        let r = try tokcount.run(["--chat", "-", "-m", "gpt-4"], stdin: Data(Self.jargon.utf8))
        #expect(r.status == 0)
        #expect(r.stdout.contains("total") && r.stdout.contains("129"))
        #expect(r.stdout.contains("641 of 8,192 tokens with 512 reserved for the answer (the default: 512, at most a quarter of the window; --reserve N to change)"))
    }

    @Test func aBadConversationFailsAloneAndTheOthersAreCounted() throws {
        let dir = try TempDir()
        let good = try dir.write("good.json", Self.jargon)
        let bad = try dir.write("bad.json", "[\n {\"role\": \"user\", \"content\": \"x\"},\n {\"role\": \"user\" \"content\": \"y\"}\n]")
        let role = try dir.write("role.json", #"[{"role": "robot", "content": "x"}]"#)
        let r = try tokcount.run(["--chat", bad, "--chat", good, "--chat", role, "-m", "gpt-4o", "--json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("\(bad): not valid JSON") && r.stderr.contains("line 3"))
        #expect(r.stderr.contains("\(role): messages[0]: unknown role \"robot\""))
        let c = try #require(try r.json()["conversations"] as? [[String: Any]])
        #expect(c.map { $0["status"] as? String } == ["failed", "counted", "failed"])
        #expect(c[1]["tokens"] as? Int == 124)
        let missing = try tokcount.run(["--chat", dir.url.appendingPathComponent("none.json").path])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"))
    }

    @Test func checkExitsThreeWhenTheConversationDoesNotFit() throws {
        let r = try tokcount.run(["--chat", "-", "-m", "gpt-4", "--window", "130", "--reserve", "10", "--check"], stdin: Data(Self.jargon.utf8))
        #expect(r.status == 3)
        #expect(r.stdout.contains("overflows by 9"))
        let fits = try tokcount.run(["--chat", "-", "-m", "gpt-4", "--check"], stdin: Data(Self.jargon.utf8))
        #expect(fits.status == 0)
    }

    // MARK: --truncate

    @Test func truncateCutsAndSaysSo() throws {
        let text = "The lighthouse keeper wound the clockwork every four hours, as his father had done."
        let tokenizer = try Tokenizer.named("o200k_base")
        let cut = try tokcount.run(["--truncate", "5", "-"], stdin: Data(text.utf8))
        #expect(cut.status == 4)
        #expect(text.hasPrefix(cut.stdout) && tokenizer.count(cut.stdout) <= 5 && cut.stdout.count < text.count)
        #expect(cut.stderr.contains("cut to 5 tokens"))
        let whole = try tokcount.run(["--truncate", "1000", "-"], stdin: Data(text.utf8))
        #expect(whole.status == 0 && whole.stdout == text && whole.stderr.isEmpty)
        let zero = try tokcount.run(["--truncate", "0", "-"], stdin: Data(text.utf8))
        #expect(zero.status == 4 && zero.stdout.isEmpty)
        let negative = try tokcount.run(["--truncate", "-3", "-"], stdin: Data(text.utf8))
        #expect(negative.status == 2)
        let huge = try tokcount.run(["--truncate", "999999999999", "-"], stdin: Data(text.utf8))
        #expect(huge.status == 0 && huge.stdout == text)
        let lines = try tokcount.run(["--truncate", "8", "--truncate-at", "line", "--json", "-"], stdin: Data("one two three\nfour five six\nseven eight nine\n".utf8))
        #expect(lines.status == 4)
        #expect(try lines.json()["text"] as? String == "one two three\nfour five six\n")
    }

    @Test func truncateAConversationDropsTheOldestNonSystemMessages() throws {
        var messages = [#"{"role": "system", "content": "Be brief."}"#]
        for k in 0..<6 { messages.append("{\"role\": \"\(k % 2 == 0 ? "user" : "assistant")\", \"content\": \"\(String(repeating: "turn \(k) words ", count: 10))\"}") }
        let body = "[" + messages.joined(separator: ",") + "]"
        let r = try tokcount.run(["--chat", "-", "-m", "gpt-4o", "--truncate", "100"], stdin: Data(body.utf8))
        #expect(r.status == 4, "\(r.stderr)")
        #expect(r.stderr.contains("dropped messages[1] (user)"))
        let left = try #require(try r.json()["messages"] as? [[String: Any]])
        #expect(left.first?["role"] as? String == "system")
        let recount = try tokcount.run(["--chat", "-", "-m", "gpt-4o", "--json"], stdin: r.stdoutBytes)
        let total = (try recount.json()["conversations"] as? [[String: Any]])?.first?["tokens"] as? Int
        #expect(total.map { $0 <= 100 } == true)
    }

    // MARK: --offsets

    @Test func offsetsGiveBytesAndCharacters() throws {
        let r = try tokcount.run(["--offsets", "--json", "-e", "cl100k_base", "-"], stdin: Data("café 🚢".utf8))
        #expect(r.status == 0)
        let tokens = try #require(try r.json()["tokens"] as? [[String: Any]])
        let ids = try Tokenizer.named("cl100k_base").encodeOrdinary("café 🚢")
        #expect(tokens.map { $0["id"] as? Int } == ids)
        #expect(tokens[2]["bytes"] as? [Int] == [5, 8] && tokens[2]["characters"] as? [Int] == [4, 6])  // " " and the first bytes of 🚢
        #expect((tokens.last?["bytes"] as? [Int])?.last == 10)
        #expect((tokens.last?["characters"] as? [Int])?.last == 6)
        let text = try tokcount.run(["--offsets", "-e", "cl100k_base", "-"], stdin: Data("hi there".utf8))
        let hi = try Tokenizer.named("cl100k_base").encodeOrdinary("hi there")
        #expect(text.stdout == "id\tbytes\tcharacters\ttext\n\(hi[0])\t0..<2\t0..<2\t\"hi\"\n\(hi[1])\t2..<8\t2..<8\t\" there\"\n")
    }
}
