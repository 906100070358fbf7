import Foundation
import TestSupport
import Testing

/// Runs the built `schema-cost` on the package's examples and on bad inputs.
@Suite struct SchemaCostCLITests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable next to the test bundle (SwiftPM builds every product
    /// into the same folder), or `SCHEMA_COST` when set.
    static func executable() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["SCHEMA_COST"] { return URL(fileURLWithPath: path) }
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(), Bundle.main.bundleURL]
        candidates += candidates.map { $0.deletingLastPathComponent() }
        for folder in candidates {
            let url = folder.appendingPathComponent("schema-cost")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "schema-cost next to \(candidates.map(\.path))"])
    }

    /// Runs with a deadline, so a schema that loops shows up as a failure, not a hung test run.
    static func run(_ arguments: [String], stdin: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = TestRepository.root
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let deadline = DispatchTime.now() + .seconds(120)
        let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: deadline, execute: killer)
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// A file with `contents` in a fresh temporary folder.
    static func file(_ name: String, _ contents: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-cost-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func json(_ run: Run) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    // MARK: Every input format

    @Test func summaryJSONOnAppleIsAnEstimateWithTheDearestFieldFirst() throws {
        let run = try Self.run(["examples/Summary.json"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Apple GenerationSchema JSON, type Summary"))
        #expect(run.stdout.contains("cl100k_base counts 90"))
        #expect(run.stdout.contains("total             ≈ 115"))
        #expect(run.stdout.contains("2.8% of the window"))
        let table = try #require(run.stdout.components(separatedBy: "Cost per field").last)
        let points = try #require(table.range(of: "points")), headline = try #require(table.range(of: "headline"))
        #expect(points.lowerBound < headline.lowerBound)
        #expect(run.stdout.contains("includeSchemaInPrompt: false"))
        #expect(run.stdout.contains("meaning collapses"))
    }

    @Test func summarySwiftCostsTheSameAsSummaryJSON() throws {
        let swift = try Self.json(try Self.run(["--json", "examples/Summary.swift"]))
        let json = try Self.json(try Self.run(["--json", "examples/Summary.json"]))
        #expect(swift["format"] as? String == "swift")
        #expect(json["format"] as? String == "apple")
        #expect(swift["schemaText"] as? String == json["schemaText"] as? String)
        #expect(swift["totalTokens"] as? Int == 115)
        #expect(json["totalTokens"] as? Int == 115)
        #expect(json["tokenizerTokens"] as? Int == 90)
        #expect(json["framingTokens"] as? Int == 6)
    }

    @Test func bareJSONSchemaIsDetected() throws {
        let path = try Self.file("bare.json", #"{"type":"object","properties":{"name":{"type":"string","description":"Full name"}},"required":["name"]}"#)
        let report = try Self.json(try Self.run(["--json", path]))
        #expect(report["format"] as? String == "json-schema")
        #expect((report["fields"] as? [[String: Any]])?.first?["path"] as? String == "name")
    }

    @Test func responseFormatOnGPT4o() throws {
        let report = try Self.json(try Self.run(["--json", "-m", "gpt-4o", "examples/Summary.response_format.json"]))
        #expect(report["format"] as? String == "response-format")
        #expect(report["estimate"] is NSNull)
        #expect((report["notes"] as? [String])?.contains { $0.contains("does not publish") } == true)
    }

    /// The OpenAI Cookbook's weather tool: 101 prompt tokens with its two
    /// messages on gpt-4o, of which the messages are 33 (3 + 2 × 3 + 24 of text).
    @Test func toolsOnGPT4oUseThePublishedConstants() throws {
        let report = try Self.json(try Self.run(["--json", "-m", "gpt-4o", "examples/weather-tools.json"]))
        #expect(report["format"] as? String == "tools")
        #expect(report["totalTokens"] as? Int == 68)
        #expect(report["framingTokens"] as? Int == 31)
    }

    @Test func formatCanBeForced() throws {
        let run = try Self.run(["--json", "--format", "json-schema", "examples/Summary.json"])
        #expect(try Self.json(run)["format"] as? String == "json-schema")
    }

    @Test func standardInputIsRead() throws {
        let run = try Self.run(["-"], stdin: try String(contentsOf: TestRepository.root.appendingPathComponent("examples/Summary.json"), encoding: .utf8))
        #expect(run.status == 0 && run.stdout.contains("≈ 115"))
    }

    @Test func grammarRuntimeCostsNothing() throws {
        let report = try Self.json(try Self.run(["--json", "--runtime", "grammar", "examples/Summary.json"]))
        #expect(report["totalTokens"] as? Int == 0)
    }

    @Test func instructionsAndReserveShrinkTheInputBudget() throws {
        let instructions = try Self.file("instructions.txt", "Summarise the text. No preamble.")
        let report = try Self.json(try Self.run(["--json", "-i", instructions, "-r", "300", "examples/Summary.json"]))
        let budget = try #require((report["whatIf"] as? [String: Any])?["budget"] as? [String: Any])
        let used = try #require(budget["instructions"] as? Int)
        #expect(used > 0)
        #expect(budget["inputLeft"] as? Int == 4096 - 22 - used - 115 - 300)
    }

    // MARK: Bad input, each with its own exit status

    @Test func invalidJSONGivesLineAndColumn() throws {
        let path = try Self.file("invalid.json", "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a\": {\"type\": \"string\",}\n  }\n}\n")
        let run = try Self.run([path])
        #expect(run.status == 10)
        #expect(run.stderr.contains("line 4, column 28"))
        #expect(run.stdout.isEmpty)
    }

    @Test func danglingReference() throws {
        let path = try Self.file("dangling.json", ##"{"type":"object","properties":{"home":{"$ref":"#/$defs/Address"}}}"##)
        let run = try Self.run([path])
        #expect(run.status == 11)
        #expect(run.stderr.contains("dangling $ref \"#/$defs/Address\" at #/properties/home"))
    }

    @Test func cyclicReferenceEndsWithAMessageNotALoop() throws {
        let path = try Self.file("cyclic.json", ##"{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}"##)
        let run = try Self.run([path])
        #expect(run.status == 12)
        #expect(run.stderr.contains("#/$defs/A -> #/$defs/B -> #/$defs/A"))
    }

    @Test func swiftWithoutGenerableType() throws {
        let path = try Self.file("Plain.swift", "struct Plain {\n    var a: String\n}\n")
        let run = try Self.run([path])
        #expect(run.status == 13)
        #expect(run.stderr.contains("no @Generable struct or enum"))
    }

    @Test func unsupportedSwiftIsNamedWithItsLine() throws {
        let path = try Self.file("Dict.swift", "@Generable\nstruct A {\n    var map: [String: Int]\n}\n")
        let run = try Self.run([path])
        #expect(run.status == 14)
        #expect(run.stderr.contains("line 3: unsupported dictionary type"))
    }

    @Test func validJSONThatIsNotASchema() throws {
        let run = try Self.run(["--format", "tools", "examples/Summary.json"])
        #expect(run.status == 15)
    }

    @Test func missingFileUsageAndCheck() throws {
        #expect(try Self.run(["no-such-file.json"]).status == 1)
        #expect(try Self.run([]).status == 2)
        #expect(try Self.run(["-m", "no-such-model", "examples/Summary.json"]).status == 2)
        #expect(try Self.run(["-t", "Nope", "examples/Summary.swift"]).status == 2)
        #expect(try Self.run(["--check", "-r", "4000", "examples/Summary.json"]).status == 3)
        #expect(try Self.run(["--check", "-r", "1000", "examples/Summary.json"]).status == 0)
    }

    @Test func helpListsTheExitStatuses() throws {
        let run = try Self.run(["--help"])
        #expect(run.status == 0)
        for code in ["10", "11", "12", "13", "14", "15", "16"] {
            #expect(run.stdout.contains("  \(code)  "))
        }
    }

    // MARK: Tools from Swift source

    @Test func aSwiftToolIsPricedAsAToolWithoutResponseSchemaWhatIfs() throws {
        let run = try Self.run(["examples/tools/WeatherTool.swift"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 tool (getWeather)"))
        #expect(run.stdout.contains("tool definitions"))
        #expect(run.stdout.contains("getWeather (function)"))
        #expect(run.stdout.contains("no measurement exists for tools"))
        #expect(!run.stdout.contains("includeSchemaInPrompt"))
    }

    @Test func aToolWhoseNameIsNotALiteralExits16WithLineAndColumn() throws {
        let path = try Self.file(
            "Bad.swift", "struct T: Tool {\n    let name = prefix + \"x\"\n    let description = \"d\"\n    @Generable struct Arguments { var a: String }\n}\n")
        let run = try Self.run([path])
        #expect(run.status == 16)
        #expect(run.stderr.contains("Bad.swift: 2:16: tool T: its `name` is not a string literal"))
    }

    // MARK: One session from several files

    @Test func severalFilesGiveOneSessionWithEachToolTheResponseSchemaAndTheTotal() throws {
        let run = try Self.run(["examples/tools/WeatherTool.swift", "examples/tools/FindContactsTool.swift", "examples/Summary.swift"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Session: 2 tools, 1 response schema"))
        #expect(run.stdout.contains("tool getWeather"))
        #expect(run.stdout.contains("tool FindContacts"))
        #expect(run.stdout.contains("response schema Summary"))
        #expect(run.stdout.contains("% of the window, every request"))
        #expect(run.stdout.contains("drop tool getWeather"))
        #expect(run.stdout.contains("no tool descriptions"))
        // The switch exists for the response schema only, and says so.
        #expect(run.stdout.contains("response schema with includeSchemaInPrompt: false"))
        #expect(!run.stdout.contains("\n  includeSchemaInPrompt"))
    }

    @Test func theSessionTotalIsTheToolListPlusTheResponseSchema() throws {
        let run = try Self.run(["--json", "-m", "gpt-4o", "examples/weather-tools.json", "examples/tools/WeatherTool.swift", "examples/Summary.json"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let tools = try #require(json?["toolsTokens"] as? Int)
        let schema = try #require((json?["responseSchema"] as? [String: Any])?["tokens"] as? Int)
        #expect(json?["totalTokens"] as? Int == tools + schema)
        #expect((json?["tools"] as? [[String: Any]])?.count == 2)
        // OpenAI's published list end (12) is paid once, so the tools cost more together than dropped one by one says.
        let each = (json?["tools"] as? [[String: Any]])?.compactMap { $0["tokens"] as? Int } ?? []
        #expect(each.reduce(0, +) == tools - 12)
        #expect((json?["whatIf"] as? [String: Any])?["responseSchemaOutOfPrompt"] is NSNull)
    }

    @Test func aBadFileInASessionIsNamedAndTheOthersArePricedWithStatus1() throws {
        let bad = try Self.file("Bad.swift", "struct T: Tool {\n    let description = \"d\"\n    struct Arguments { var a: String }\n}\n")
        let run = try Self.run([bad, "examples/tools/WeatherTool.swift", "no-such-file.swift"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("Bad.swift: 3:5: tool T: its `struct Arguments` is not @Generable"))
        #expect(run.stderr.contains("no-such-file.swift: no such file"))
        #expect(run.stdout.contains("tool getWeather"))
    }

    @Test func jsonThatIsNotASchemaExits15() throws {
        let hello = try Self.run(["-"], stdin: #"{"hello":"world"}"#)
        #expect(hello.status == 15)
        #expect(hello.stderr.contains("has no JSON Schema keyword"))
        let required = try Self.run(["-"], stdin: #"{"type":"object","required":"a"}"#)
        #expect(required.status == 15)
        #expect(required.stderr.contains("#/required must be an array of property names, not a string"))
    }

    @Test func typeNamesTheSessionsResponseSchemaAcrossFiles() throws {
        let run = try Self.run(["-t", "Summary", "examples/tools/WeatherTool.swift", "examples/Summary.swift"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("tool getWeather") && run.stdout.contains("response schema Summary"))
        #expect(try Self.run(["-t", "Nope", "examples/tools/WeatherTool.swift", "examples/Summary.swift"]).status == 2)
    }
}
