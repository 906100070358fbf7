import Foundation
import TestSupport
import Testing
import TokenKit

/// tokcount, run as a user runs it: the built binary, its output and exit status.
@Suite struct TokcountTests {
    let tokcount = ToolRunner(tool: "tokcount")
    let prose = "one two three four five\nsix seven eight nine ten\neleven twelve\n"  // 16 cl100k_base tokens

    func cl100k(_ text: String) throws -> Int { try Tokenizer.named("cl100k_base").count(text) }

    // MARK: One file

    @Test func aFileThatFits() throws {
        let dir = try TempDir()
        let file = try dir.write("notes.txt", prose)
        let r = try tokcount.run(["-m", "gpt-4", file])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix(file + "\n"))
        #expect(r.field("tokens") == "16  cl100k_base")
        #expect(r.field("characters") == "63")
        #expect(r.field("bytes") == "63")
        #expect(r.field("chars/token") == "3.94")
        #expect(r.field("lines") == "3")
        #expect(r.field("fit") == "534 of 8,192 tokens (7%), fits with 7,658 to spare")
        #expect(r.stdout.contains("gpt-4: 16 text + 6 request overhead + 512 reserved for the answer (the default: 512, at most a quarter of the window; --reserve N to change)"))
        #expect(r.stderr.isEmpty)
    }

    @Test func aFileThatOverflowsSaysWhereTheFirstTokenPastTheWindowStarts() throws {
        let dir = try TempDir()
        let file = try dir.write("notes.txt", prose)
        // Token 8 is " seven", at line 2, column 4.
        let r = try tokcount.run(["-e", "cl100k_base", "--window", "7", "--reserve", "0", "-m", "gpt-2", file])
        #expect(r.status == 0)
        #expect(r.stdout.contains("16 of 7 tokens (229%), overflows by 9 tokens: token 8 starts at line 2, column 4"))
    }

    @Test func reserveAndOverheadsComeOutOfTheWindow() throws {
        let dir = try TempDir()
        let file = try dir.write("notes.txt", prose)
        let r = try tokcount.run(["-m", "gpt-4", "--window", "30", "--reserve", "10", file])
        #expect(r.stdout.contains("32 of 30 tokens (107%), overflows by 2 tokens: token 15 starts at line 3, column 7"))
        #expect(r.stdout.contains("gpt-4: 16 text + 6 request overhead + 10 reserved for the answer (given with --reserve)"))
        let k = try tokcount.run(["-m", "gpt-4", "--window", "1k", file])
        #expect(k.field("fit") == "272 of 1,000 tokens (27%), fits with 728 to spare")
    }

    @Test func estimatedCountsAreMarkedAndExplained() throws {
        let dir = try TempDir()
        let file = try dir.write("notes.txt", prose)
        let r = try tokcount.run(["-m", "apple-on-device", file])
        // 16 cl100k_base tokens × 1.216 ≈ 19.
        #expect(r.field("tokens")?.hasPrefix("≈19  estimated for apple-on-device from cl100k_base (16 tokens): × 1.216") == true)
        #expect(r.stdout.contains("±15%"))
        #expect(r.stdout.contains("≈553 of 4,096 tokens (14%), fits with ≈3,543 to spare"))
        let json = try tokcount.run(["-m", "apple-on-device", "--json", file]).json()
        let profile = json["profile"] as! [String: Any]
        #expect(profile["estimated"] as? Bool == true)
        #expect(((profile["estimate"] as! [String: Any])["method"] as! String).contains("47,428"))
    }

    @Test func anEmptyFileIsZeroTokens() throws {
        let dir = try TempDir()
        let r = try tokcount.run(["--json", try dir.write("empty.txt", "")])
        let input = (try r.json()["inputs"] as! [[String: Any]])[0]
        #expect(r.status == 0 && input["tokens"] as? Int == 0 && input["bytes"] as? Int == 0)
    }

    // MARK: Many inputs

    @Test func aFolderIsWalkedSkippingGitBinariesAndIgnoredFiles() throws {
        let dir = try TempDir()
        try dir.write(".git/HEAD", "ref: refs/heads/main\n")
        try dir.write(".gitignore", "build/\n*.log\n!keep.log\n")
        try dir.write("a.txt", "alpha beta\n")
        try dir.write("sub/b.md", "gamma delta epsilon\n")
        try dir.write("sub/.gitignore", "secret.txt\n")
        try dir.write("sub/secret.txt", "hidden\n")
        try dir.write("build/out.txt", "ignored\n")
        try dir.write("debug.log", "ignored\n")
        try dir.write("keep.log", "kept\n")
        try dir.write("image.bin", Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01]))
        let r = try tokcount.run(["--json", dir.url.path])
        #expect(r.status == 0)
        let inputs = try r.json()["inputs"] as! [[String: Any]]
        let names = inputs.map { ($0["path"] as! String).replacingOccurrences(of: dir.url.path + "/", with: "") }
        #expect(names == [".gitignore", "a.txt", "image.bin", "keep.log", "sub/.gitignore", "sub/b.md"])
        let image = inputs[2]
        #expect(image["status"] as? String == "skipped")
        #expect((image["reason"] as! String).contains("NUL byte at offset 4"))
        let total = try r.json()["total"] as! [String: Any]
        #expect(total["counted"] as? Int == 5 && total["skipped"] as? Int == 1)
    }

    /// Hundreds of small files (cut anywhere, even inside a character), a
    /// subfolder, a link to a file (counted) and to a folder (not followed),
    /// and one file large enough to be mapped: the total is the sum of each
    /// file counted on its own, with one or two workers.
    @Test func aFolderOfManyFilesTotalsItsFilesCountedOneByOne() throws {
        let dir = try TempDir()
        let words = ["the", "quick", "brown", "fox", "日本語", "don't", "42", "!!", "\n", "  ", "über", "😀"]
        var n: UInt64 = 7
        var text: [UInt8] = []
        while text.count < 400_000 {
            n = n &* 6364136223846793005 &+ 1442695040888963407
            text += Array((words[Int(n >> 33) % words.count] + " ").utf8)
        }
        let tokenizer = try Tokenizer.named("cl100k_base")
        var expected = 0
        var files = 0
        var start = 0
        while start < text.count {
            n = n &* 6364136223846793005 &+ 1442695040888963407
            let end = min(text.count, start + 1 + Int(n >> 40) % 1500)
            let part = Array(text[start..<end])
            try dir.write("\(files % 3 == 0 ? "sub/" : "")part-\(files).txt", Data(part))
            expected += part.withUnsafeBufferPointer { tokenizer.count(utf8: $0) }
            files += 1
            start = end
        }
        let big = Array(text.prefix(300_000)) + Array(text.prefix(300_000)) + Array(text.prefix(500_000))
        try dir.write("big.txt", Data(big))
        expected += 2 * big.withUnsafeBufferPointer { tokenizer.count(utf8: $0) }
        try FileManager.default.createSymbolicLink(atPath: dir.url.path + "/link.txt", withDestinationPath: dir.url.path + "/big.txt")
        try FileManager.default.createSymbolicLink(atPath: dir.url.path + "/linked-folder", withDestinationPath: dir.url.path + "/sub")
        for jobs in ["1", "2"] {
            let r = try tokcount.run(["--json", "-j", jobs, "-e", "cl100k_base", dir.url.path])
            #expect(r.status == 0)
            let total = try r.json()["total"] as! [String: Any]
            #expect(total["counted"] as? Int == files + 2, "-j \(jobs)")
            #expect(total["tokenizerTokens"] as? Int == expected, "-j \(jobs)")
        }
    }

    /// What a folder walk lists, and in what order: names sorted, subfolders
    /// in their place, `.git` and links to folders left out, a FIFO not read,
    /// and a dangling link reported in its place among the names (it was
    /// listed after every file), the files all still counted.
    @Test func aFolderIsWalkedInNameOrderAndADanglingLinkIsReportedNotFatal() throws {
        let dir = try TempDir()
        let root = dir.url.path
        for name in ["b.txt", "a b.txt", "ä.txt", "sub/c.txt", "sub/deeper/d.txt", ".git/HEAD", "A.txt"] { _ = try dir.write(name, "\(name)\n") }
        try FileManager.default.createSymbolicLink(atPath: root + "/z-gone.txt", withDestinationPath: root + "/nowhere.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/linked-sub", withDestinationPath: root + "/sub")
        #expect(mkfifo(root + "/fifo", 0o600) == 0)
        let r = try tokcount.run(["--json", "-e", "cl100k_base", root + "/"])
        let inputs = try r.json()["inputs"] as! [[String: Any]]
        let names = inputs.map { ($0["path"] as! String).replacingOccurrences(of: root + "/", with: "") }
        #expect(names == ["A.txt", "a b.txt", "b.txt", "sub/c.txt", "sub/deeper/d.txt", "z-gone.txt", "ä.txt"])
        #expect(inputs.map { $0["status"] as? String } == ["counted", "counted", "counted", "counted", "counted", "failed", "counted"])
        #expect((inputs[5]["reason"] as? String)?.contains("No such file or directory") == true)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("z-gone.txt: No such file or directory"))
    }

    @Test func withoutGitTheGitignoreIsNotConsulted() throws {
        let dir = try TempDir()
        try dir.write(".gitignore", "*.log\n")
        try dir.write("debug.log", "counted\n")
        let r = try tokcount.run(["--json", dir.url.path])
        #expect((try r.json()["inputs"] as! [[String: Any]]).count == 2)
        let withGit = try TempDir()
        try withGit.write(".git/HEAD", "x")
        try withGit.write(".gitignore", "*.log\n")
        try withGit.write("debug.log", "ignored\n")
        #expect((try tokcount.run(["--json", withGit.url.path]).json()["inputs"] as! [[String: Any]]).count == 1)
        #expect((try tokcount.run(["--json", "--no-ignore", withGit.url.path]).json()["inputs"] as! [[String: Any]]).count == 2)
    }

    @Test func severalFilesGiveOneRowEachAndATotal() throws {
        let dir = try TempDir()
        let a = try dir.write("a.txt", "short\n")
        let b = try dir.write("b.txt", prose)
        let r = try tokcount.run(["-m", "gpt-4", a, b])
        let lines = r.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines[0] == ["tokens", "chars", "bytes", "chars/tok", "window", "path"])
        #expect(lines[1] == ["2", "6", "6", "3.00", "6%", a])
        #expect(lines[2] == ["16", "63", "63", "3.94", "7%", b])
        #expect(lines[3] == ["18", "69", "69", "3.83", "7%", "total", "(2", "inputs)"])
        #expect(r.stdout.contains("all 2 in one request: 539 of 8,192 tokens (7%), fits with 7,653 to spare"))
    }

    @Test func sortByTokens() throws {
        let dir = try TempDir()
        let small = try dir.write("small.txt", "hi\n")
        let big = try dir.write("big.txt", prose)
        let mid = try dir.write("mid.txt", "a few more words\n")
        let inputs = try tokcount.run(["--json", "--sort", "tokens", small, big, mid]).json()["inputs"] as! [[String: Any]]
        #expect(inputs.map { $0["path"] as! String } == [big, mid, small])
    }

    @Test func theTotalSaysWhichFileHoldsTheFirstTokenPastTheWindow() throws {
        let dir = try TempDir()
        let a = try dir.write("a.txt", prose)
        let b = try dir.write("b.txt", prose)
        let r = try tokcount.run(["-m", "gpt-2", "-e", "cl100k_base", "--window", "20", "--reserve", "0", "--json", a, b])
        let fit = (try r.json()["total"] as! [String: Any])["fit"] as! [String: Any]
        let past = fit["firstTokenPast"] as! [String: Any]
        #expect(past["path"] as? String == b && past["token"] as? Int == 21 && past["tokenInInput"] as? Int == 5)
        #expect(past["line"] as? Int == 1 && past["column"] as? Int == 19)
    }

    @Test func standardInputByDashOrPipe() throws {
        let piped = try tokcount.run(["--json"], stdin: Data(prose.utf8))
        let dashed = try tokcount.run(["--json", "-"], stdin: Data(prose.utf8))
        for r in [piped, dashed] {
            let input = (try r.json()["inputs"] as! [[String: Any]])[0]
            #expect(r.status == 0 && input["path"] as? String == "-")
            let expected = try Tokenizer.named("o200k_base").count(prose)
            #expect(input["tokenizerTokens"] as? Int == expected)
        }
        let text = try tokcount.run(["-e", "cl100k_base", "-"], stdin: Data(prose.utf8))
        #expect(text.stdout.hasPrefix("(standard input)\n") && text.field("tokens") == "16  cl100k_base")
    }

    // MARK: Options

    @Test func encodingByNameOrTiktokenFile() throws {
        let dir = try TempDir()
        let file = try dir.write("t.txt", prose)
        let byName = try tokcount.run(["--json", "-e", "r50k_base", file]).json()
        let vocab = TestRepository.path("Sources/TokenKit/Resources/cl100k_base.tiktoken").path
        let byFile = try tokcount.run(["--json", "-e", vocab, file]).json()
        let r50k = try Tokenizer.named("r50k_base").count(prose)
        #expect(((byName["inputs"] as! [[String: Any]])[0]["tokens"] as? Int) == r50k)
        #expect(((byFile["inputs"] as! [[String: Any]])[0]["tokens"] as? Int) == 16)
        // TokenKit recognises the shipped vocabulary by its checksum and names it.
        #expect((byFile["profile"] as! [String: Any])["tokenizer"] as? String == "cl100k_base")
    }

    @Test func encodingFromAModelFile() throws {
        let gguf = TestRepository.gguf.appendingPathComponent("ggml-vocab-llama-spm.gguf")
        let text = String(repeating: prose, count: 50)
        let r = try tokcount.run(["--json", "-e", gguf.path], stdin: Data(text.utf8))
        let expected = try Tokenizer.load(contentsOf: gguf).count(text)
        #expect(r.status == 0)
        #expect((try r.json()["inputs"] as! [[String: Any]])[0]["tokens"] as? Int == expected)
    }

    @Test func unknownEncodingOrModelIsAUsageError() throws {
        let e = try tokcount.run(["-e", "cl200k", "x"])
        #expect(e.status == 2 && e.stderr.contains("-e/--encoding: unknown encoding 'cl200k'") && e.stderr.contains("o200k_base"))
        let m = try tokcount.run(["-m", "gpt-9-nano", "x"])
        #expect(m.status == 2 && m.stderr.contains("unknown model profile 'gpt-9-nano'; nearest: ") && m.stderr.contains("--list-models"), "\(m.stderr)")
    }

    @Test func userProfilesFromAFileAndFromTheConfigFolder() throws {
        let dir = try TempDir()
        let file = try dir.write("t.txt", prose)
        let profiles = try dir.write("p.json", #"{"profiles": [{"name": "tiny", "contextWindow": 10, "tokenizer": {"encoding": "cl100k_base"}}]}"#)
        let r = try tokcount.run(["--profiles", profiles, "-m", "tiny", "--check", file])
        #expect(r.status == 3 && r.stdout.contains("18 of 10 tokens"))
        try dir.write("config/contextkit/profiles.json", #"{"default": "tiny", "profiles": [{"name": "tiny", "contextWindow": 100, "tokenizer": {"encoding": "cl100k_base"}}]}"#)
        let fromConfig = try tokcount.run([file], environment: ["XDG_CONFIG_HOME": dir.path("config")])
        #expect(fromConfig.stdout.contains("41 of 100 tokens") && fromConfig.stdout.contains("tiny: 16 text + 25 reserved for the answer"))
        let bad = try tokcount.run(["--profiles", try dir.write("bad.json", "{"), file])
        #expect(bad.status == 2 && bad.stderr.contains("bad.json"))
    }

    @Test func listModels() throws {
        let r = try tokcount.run(["--list-models"])
        #expect(r.status == 0)
        for name in ["apple-on-device", "gpt-4o", "gpt-4o-mini", "gpt-4", "gpt-3.5-turbo", "gpt-4.1", "gpt-5", "gpt-oss-20b"] { #expect(r.stdout.contains(name)) }
        #expect(r.stdout.contains("o200k_harmony"))
        #expect(r.stdout.contains("≈ cl100k_base"))
    }

    @Test func idsAndDecodeRoundTrip() throws {
        let dir = try TempDir()
        let text = "Grüße, 世界! <|endoftext|>\n"
        let file = try dir.write("t.txt", text)
        let ids = try tokcount.run(["--ids", "-e", "cl100k_base", file])
        let expected = try Tokenizer.named("cl100k_base").encodeOrdinary(text)
        #expect(ids.stdout == expected.map(String.init).joined(separator: " ") + "\n")
        let back = try tokcount.run(["--decode", "-e", "cl100k_base", "-"], stdin: Data(ids.stdout.utf8))
        #expect(back.stdout == text && back.status == 0)
        let json = try tokcount.run(["--decode", "-e", "cl100k_base"], stdin: Data("[9906, 1917]".utf8))
        #expect(json.stdout == "Hello world")
        let bad = try tokcount.run(["--decode", "-e", "cl100k_base"], stdin: Data("12 abc".utf8))
        #expect(bad.status == 1 && bad.stderr.contains("'abc' is not a token id"))
        let unknown = try tokcount.run(["--decode", "-e", "cl100k_base"], stdin: Data("99999999".utf8))
        #expect(unknown.status == 1 && unknown.stderr.contains("token id 99999999 is not in this vocabulary"))
    }

    @Test func piecesShowEachTokensText() throws {
        let r = try tokcount.run(["--pieces", "-e", "cl100k_base"], stdin: Data("Hello world\n日".utf8))
        #expect(r.stdout == "9906\t\"Hello\"\n1917\t\" world\"\n198\t\"\\n\"\n9080\t\"日\"\n")
        let json = try tokcount.run(["--pieces", "--json", "-e", "cl100k_base"], stdin: Data("Hello world".utf8)).json()
        let input = (json["inputs"] as! [[String: Any]])[0]
        #expect(input["ids"] as? [Int] == [9906, 1917])
        #expect((input["pieces"] as! [[String: Any]]).map { $0["text"] as! String } == ["Hello", " world"])
    }

    @Test func specialTokenStrings() throws {
        let text = Data("a <|endoftext|> b".utf8)
        let plain = try tokcount.run(["--json", "-e", "cl100k_base"], stdin: text)
        let input = (try plain.json()["inputs"] as! [[String: Any]])[0]
        #expect(input["tokens"] as? Int == 8 && input["specialTokenStrings"] as? Int == 1)
        #expect(plain.stderr.contains("counted as plain text"))
        let allowed = try tokcount.run(["--json", "-e", "cl100k_base", "--special", "allow"], stdin: text)
        let allowedInput = (try allowed.json()["inputs"] as! [[String: Any]])[0]
        #expect(allowedInput["tokens"] as? Int == 4)
        #expect(allowed.stderr.isEmpty)
        let refused = try tokcount.run(["-e", "cl100k_base", "--special", "error"], stdin: text)
        #expect(refused.status == 1 && refused.stderr.contains("special token <|endoftext|>"))
        let wrong = try tokcount.run(["--special", "maybe"], stdin: text)
        #expect(wrong.status == 2 && wrong.stderr.contains("--special must be one of text, allow, error, not 'maybe'"))
    }

    @Test func checkExitsThreeOnOverflow() throws {
        let dir = try TempDir()
        let file = try dir.write("t.txt", prose)
        #expect(try tokcount.run(["--check", "-m", "gpt-4", file]).status == 0)
        #expect(try tokcount.run(["--check", "--window", "10", file]).status == 3)
        #expect(try tokcount.run(["--window", "10", file]).status == 0)
    }

    @Test func helpAndVersion() throws {
        let help = try tokcount.run(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: tokcount [OPTIONS] [FILE|DIR|-]..."))
        for option in ["--encoding", "--model", "--window", "--reserve", "--json", "--ids", "--pieces", "--decode", "--special", "--check", "--sort", "--binary", "Exit status"] {
            #expect(help.stdout.contains(option))
        }
        let version = try tokcount.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("tokcount 0."))
    }

    // MARK: Exit codes and bad input

    @Test func usageErrorsNameTheBadArgumentAndExitTwo() throws {
        let cases: [([String], String)] = [
            (["--frobnicate"], "unknown option '--frobnicate'"),
            (["-q"], "unknown option '-q'"),
            (["--window", "lots"], "--window wants a whole number from 1 to 1,099,511,627,776, not 'lots'"),
            (["--reserve", "-5"], "--reserve wants a whole number"),
            (["--encoding"], "--encoding needs a value"),
            (["--jsn"], "did you mean '--json'?"),
            (["--decode", "--ids"], "--decode turns ids into text")
        ]
        for (args, message) in cases {
            let r = try tokcount.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("Try 'tokcount --help'"))
        }
    }

    @Test func aMissingPathFailsButTheOthersAreStillCounted() throws {
        let dir = try TempDir()
        let file = try dir.write("t.txt", prose)
        let r = try tokcount.run(["-m", "gpt-4", dir.path("missing.txt"), file])
        #expect(r.status == 1)
        #expect(r.stderr.contains("tokcount: \(dir.path("missing.txt")): No such file or directory"))
        #expect(r.stdout.contains("16 ") && r.stdout.contains(file))
        #expect(r.stdout.contains("failed  \(dir.path("missing.txt")) (No such file or directory)"))
    }

    /// The order is the order given, failures included: `missing` was listed
    /// last, after every counted input, in text, JSON and on standard error.
    @Test func aFailedPathIsReportedWhereItWasGivenInTextAndJSON() throws {
        let dir = try TempDir()
        let a = try dir.write("a.txt", prose), b = try dir.write("b.txt", "bee\n")
        try dir.write("folder/1.txt", "one\n")
        try FileManager.default.createSymbolicLink(atPath: dir.path("folder/2.txt"), withDestinationPath: "nowhere")
        try dir.write("folder/3.txt", "three\n")
        let missing = dir.path("missing"), folder = dir.path("folder")
        let arguments = [a, missing, b, folder, "/dev/zero"]
        let expected = [a, missing, b, "\(folder)/1.txt", "\(folder)/2.txt", "\(folder)/3.txt", "/dev/zero"]

        let json = try tokcount.run(["--json"] + arguments)
        #expect(json.status == 1, "\(json.stderr)")
        let inputs = try #require(try json.json()["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["path"] as? String } == expected)
        #expect(inputs.map { $0["status"] as? String } == ["counted", "failed", "counted", "counted", "failed", "counted", "failed"])

        let text = try tokcount.run(arguments)
        #expect(text.status == 1, "\(text.stderr)")
        let shown = text.stdout.split(separator: "\n").compactMap { line in expected.first { line.hasSuffix("  \($0)") || line.contains("  \($0) (") } }
        #expect(shown == expected, "\(text.stdout)")
        #expect(
            text.stderr.split(separator: "\n").compactMap { line in [missing, "\(folder)/2.txt", "/dev/zero"].first { line.hasPrefix("tokcount: \($0):") } }
                == [missing, "\(folder)/2.txt", "/dev/zero"], "\(text.stderr)")
    }

    @Test func anUnreadableFileNamesThePathAndTheReason() throws {
        let dir = try TempDir()
        if getuid() != 0 {
            let file = try dir.write("secret.txt", "x")
            chmod(file, 0)
            let r = try tokcount.run([file])
            #expect(r.status == 1 && r.stderr.contains("\(file): Permission denied"))
        }
        // A read that fails after the open (root can open anything).
        let r = try tokcount.run(["/proc/self/mem"])
        #expect(r.status == 1 && r.stderr.contains("/proc/self/mem: Input/output error"))
        let loop = dir.path("loop")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let l = try tokcount.run([loop])
        #expect(l.status == 1 && l.stderr.contains("\(loop): Too many levels of symbolic links"))
    }

    @Test func invalidUTF8IsCountedAsBytesWithAWarning() throws {
        let dir = try TempDir()
        let bytes = Array("valid text ".utf8) + [0xFF, 0xFE] + Array(" more".utf8)
        let file = try dir.write("bad.txt", Data(bytes))
        let r = try tokcount.run(["--json", "-e", "cl100k_base", file])
        #expect(r.status == 0)
        #expect(r.stderr.contains("\(file): invalid UTF-8 at byte offset 11"))
        let input = (try r.json()["inputs"] as! [[String: Any]])[0]
        let expected = try bytes.withUnsafeBufferPointer { try Tokenizer.named("cl100k_base").tokens(utf8: $0).count }
        #expect(input["tokens"] as? Int == expected && input["firstInvalidUTF8Offset"] as? Int == 11)
    }

    @Test func aBinaryFileNamedDirectlyIsRefusedUnlessAsked() throws {
        let dir = try TempDir()
        let file = try dir.write("data.bin", Data([0x41, 0x42, 0x00, 0x43]))
        let refused = try tokcount.run([file])
        #expect(refused.status == 1 && refused.stderr.contains("\(file): binary file (NUL byte at offset 2); use --binary to count it anyway"))
        let counted = try tokcount.run(["--binary", "--json", file])
        let inputs = try counted.json()["inputs"] as! [[String: Any]]
        #expect(counted.status == 0 && inputs[0]["bytes"] as? Int == 4)
    }

    // MARK: JSON, parallelism, terminal

    @Test func jsonIsOneDocumentWithTheDocumentedSchema() throws {
        let dir = try TempDir()
        let file = try dir.write("t.txt", prose)
        let r = try tokcount.run(["--json", "-m", "gpt-4", "--window", "10", "--reserve", "0", file])
        let json = try r.json()
        #expect(Array(json.keys).sorted() == ["exitCode", "inputs", "profile", "schemaVersion", "special", "tool", "total", "version", "warnings"])
        #expect(json["schemaVersion"] as? Int == 1)
        let input = (json["inputs"] as! [[String: Any]])[0]
        for key in [
            "path", "status", "reason", "tokens", "estimated", "errorBar", "tokenizerTokens", "characters", "bytes", "lines",
            "charactersPerToken", "cjkCharacters", "firstInvalidUTF8Offset", "specialTokenStrings", "fit"
        ] {
            #expect(input.keys.contains(key), "\(key)")
        }
        let fit = input["fit"] as! [String: Any]
        #expect(fit["fits"] as? Bool == false && fit["used"] as? Int == 22 && fit["available"] as? Int == 4)
        let past = fit["firstTokenPast"] as! [String: Any]
        #expect(past["token"] as? Int == 5 && past["line"] as? Int == 1 && past["column"] as? Int == 19 && past["byteOffset"] as? Int == 18)
        let totalPast = ((json["total"] as! [String: Any])["fit"] as! [String: Any])["firstTokenPast"] as! [String: Any]
        #expect(totalPast["path"] as? String == file && totalPast["token"] as? Int == 5)
        #expect(r.stderr.isEmpty)
    }

    /// A few megabytes counted by one thread and by four: the same numbers.
    @Test func parallelCountsEqualSingleThreadCounts() throws {
        let dir = try TempDir()
        var text = ""
        var n: UInt64 = 1
        let words = ["the", "quick", "brown", "fox", "日本語", "don't", "42", "!!", "\n", "\r\n", "  ", "über", "/", "😀"]
        while text.utf8.count < 6 << 20 {
            n = n &* 6364136223846793005 &+ 1442695040888963407
            text += words[Int(n >> 33) % words.count] + (n & 1 == 0 ? " " : "")
        }
        let file = try dir.write("big.txt", text)
        let one = try tokcount.run(["--json", "-j", "1", "-m", "apple-on-device", file]).json()
        let four = try tokcount.run(["--json", "-j", "4", "-m", "apple-on-device", file]).json()
        #expect(NSDictionary(dictionary: one).isEqual(to: four))
        let expected = try Tokenizer.named("cl100k_base").count(text)
        #expect((one["inputs"] as! [[String: Any]])[0]["tokenizerTokens"] as? Int == expected)
    }

    /// 300 MB through a pipe with a peak resident size far below that: the
    /// input is streamed, never held whole.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func bigInputsAreStreamedInBoundedMemory() throws {
        let (input, kilobytes) = try Self.countPipedMeasuringMemory("yes 'lorem ipsum dolor sit amet, consectetur adipiscing elit' | head -c 300000000", encoding: "r50k_base")
        #expect(input["bytes"] as? Int == 300_000_000)
        #expect(input["tokenizerTokens"] as? Int == 112_500_000)  // 5,357,142 lines of 21 tokens and 9 more, as tiktoken counts them
        #expect(kilobytes < 200_000, "peak RSS \(kilobytes) KB")
    }

    /// `tokcount -e ENCODING --json -` on what the shell pipeline `producer`
    /// writes, under /usr/bin/time: the input's JSON row and the peak
    /// resident size in kilobytes.
    static func countPipedMeasuringMemory(_ producer: String, encoding: String) throws -> (input: [String: Any], kilobytes: Int) {
        let dir = try TempDir()
        let binary = ToolRunner.productsDirectory.appendingPathComponent("tokcount").path
        let rss = dir.path("rss")
        let r = try ToolRunner.runProgram("/bin/sh", ["-c", "\(producer) | /usr/bin/time -o \(rss) -f %M \(binary) -e \(encoding) --json -"])
        let json = try r.json()
        let input = try #require((json["inputs"] as? [[String: Any]])?.first)
        let kilobytes = Int(try String(contentsOfFile: rss, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        return (input, kilobytes)
    }

    /// 64 MiB of one letter through a pipe: one pre-tokenizer piece as long as
    /// the input, which no chunk can end inside. It is held once, plus 4 bytes
    /// per token (8 letters each) and a bit per byte, over the ~60 MB the
    /// process needs anyway, also when it overflows the window and the first
    /// token past it is looked for.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")), .timeLimit(.minutes(5)))
    func oneGiantPieceIsHeldOnce() throws {
        let (input, kilobytes) = try Self.countPipedMeasuringMemory("head -c 67108864 /dev/zero | tr '\\0' a", encoding: "cl100k_base")
        #expect(input["bytes"] as? Int == 67_108_864)
        #expect(input["tokenizerTokens"] as? Int == 8_388_608)  // "aaaaaaaa" is one token, as tiktoken counts it
        #expect(kilobytes < 200_000, "peak RSS \(kilobytes) KB")
    }

    /// A run without a break longer than the memory that can be had (600 MB
    /// of one letter after two short lines, under a 1.2 GB address-space
    /// limit): that input fails alone, naming the line where the run starts
    /// and the sizes, exit 1, and the next file is still counted.
    @Test(.timeLimit(.minutes(5)))
    func aRunLongerThanMemoryFailsAloneNamingItsLine() throws {
        let dir = try TempDir()
        let small = try dir.write("small.txt", "hello world\n")
        let binary = ToolRunner.productsDirectory.appendingPathComponent("tokcount").path
        let script =
            "ulimit -v 1200000; { printf 'one\\ntwo\\n'; head -c 629145600 /dev/zero | tr '\\0' a; } | \(binary) -e cl100k_base --window 1000m --json - \(small) 2>\(dir.path("err"))"
        let r = try ToolRunner.runProgram("/bin/sh", ["-c", script])
        #expect(r.status == 1)
        let stderr = try String(contentsOfFile: dir.path("err"), encoding: .utf8)
        #expect(stderr.hasPrefix("tokcount: -: line 3: a single run of "), "\(stderr)")
        let inputs = try #require(try r.json()["inputs"] as? [[String: Any]])
        #expect(inputs[0]["status"] as? String == "failed")
        let reason = inputs[0]["reason"] as? String ?? ""
        #expect(reason.hasPrefix("line 3: a single run of ") && reason.contains(" bytes without a break") && reason.contains("more than can be had"), "\(reason)")
        #expect(inputs[1]["status"] as? String == "counted" && inputs[1]["tokens"] as? Int == 3)
    }

    /// Under a pseudo-terminal (`script`), a slow run shows the progress bar on
    /// standard error and colours; a pipe shows neither; NO_COLOR turns colour off.
    /// The slow run is standard input that pauses for a second: the bar waits
    /// half a second before it draws, and a release build counts the whole
    /// file in less.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressBarAndColourOnlyOnATerminal() throws {
        let dir = try TempDir()
        let file = try dir.write("big.txt", String(repeating: "lorem ipsum dolor sit amet\n", count: 1_500_000))
        let binary = ToolRunner.productsDirectory.appendingPathComponent("tokcount").path
        let command = "\(binary) -j 1 -e r50k_base --window 10 \(file)"
        let slow = try ToolRunner.runProgram("/usr/bin/script", ["-qec", "{ head -c 1000 \(file); sleep 1; } | \(binary) -j 1 -e r50k_base --window 10", "/dev/null"])
        #expect(slow.stdout.contains("\u{1B}[2K["), "no progress bar: \(slow.stdout.prefix(300))")
        let tty = try ToolRunner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(tty.stdout.contains("\u{1B}[31moverflows"))
        let noColor = try ToolRunner.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}[31m"))
        let piped = try tokcount.run(["-j", "1", "-e", "r50k_base", "--window", "10", file])
        #expect(piped.stderr.isEmpty && !piped.stdout.contains("\u{1B}"))
    }
}

extension ToolRunner.Output {
    /// The value of a `  label  value` line of the one-input report.
    func field(_ label: String) -> String? {
        for line in stdout.split(separator: "\n") where line.hasPrefix("  " + label + " ") {
            return line.dropFirst(2 + label.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}

extension ToolRunner {
    /// Runs any program (here `script`, to give the tool a terminal, or `sh`
    /// for a pipeline), its standard error merged into its output.
    ///
    /// Through `env --default-signal=PIPE`: children inherit an ignored
    /// SIGPIPE, and then `yes | head` or `tr` ahead of a reader that stops
    /// early print "Broken pipe" into the output the tests parse. The test
    /// process itself no longer ignores it (`LocalHTTPServer` once did, and
    /// these tests failed depending on test order), but whatever starts the
    /// tests may.
    static func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=PIPE", path] + arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env["TERM"] = "xterm"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(stdout: String(decoding: data, as: UTF8.self), stderr: "", status: process.terminationStatus, stdoutBytes: data)
    }
}
