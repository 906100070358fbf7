import Testing
@testable import ContextKit
import ContextKitJSON

/// `Tool`s read from Swift source and priced as tools: name, description and
/// arguments schema, the tool framing, no response-schema what-ifs.
@Suite struct SwiftToolTests {
    private func documents(_ source: String, typeName: String? = nil) throws -> [SchemaDocument] {
        try SchemaDocument.loadAll(source, fileName: "Tools.swift", typeName: typeName)
    }

    private func refusal(_ source: String) -> SchemaError? {
        do {
            _ = try documents(source)
            return nil
        } catch {
            return error as? SchemaError
        }
    }

    static let weather = """
        import FoundationModels

        struct GetWeatherTool: Tool {
            let name = "getWeather"
            let description = "Get the current weather for a city"

            @Generable
            struct Arguments {
                @Guide(description: "The city, e.g. Lisbon")
                var city: String
            }

            func call(arguments: Arguments) async throws -> String { "sunny in \\(arguments.city)" }
        }
        """

    @Test func aToolWithALiteralNameIsPricedWithItsNameDescriptionAndArguments() throws {
        let all = try documents(Self.weather)
        #expect(all.count == 1)
        let tools = all[0]
        #expect(tools.isToolList)
        #expect(tools.entries.map(\.name) == ["getWeather"])
        #expect(tools.entries[0].description == "Get the current weather for a city")
        let function = try #require(tools.entries[0].function)
        #expect(function["name"] == .string("getWeather"))
        #expect(function["parameters"]?["title"] == .string("Arguments"))
        #expect(function["parameters"]?["properties"]?["city"]?["description"] == .string("The city, e.g. Lisbon"))

        let settings = try SchemaCostTests.appleSettings()
        let report = SchemaCost(settings: settings).report(for: tools)
        let sent = JSONWriter(style: .compact(escapingSlashes: true)).write(function)
        #expect(report.schemaText == sent)
        #expect(report.schemaTokens == settings.tokens(sent))
        #expect(report.framingTokens == 6)
        #expect(report.schemaOutOfPrompt == nil, "includeSchemaInPrompt does not apply to tools")
        #expect(report.fields.contains { $0.kind == .function && $0.path == "getWeather" })
    }

    @Test func aToolWithoutANameIsSentWithItsTypeName() throws {
        let source = """
            struct FindContacts: FoundationModels.Tool {
                var description: String { "Find contacts" }
                @Generable struct Arguments { var letter: String }
                func call(arguments: Arguments) async throws -> String { "" }
            }
            """
        let tools = try documents(source)[0]
        #expect(tools.entries.map(\.name) == ["FindContacts"])
        #expect(tools.entries[0].description == "Find contacts")
        #expect(tools.notes.contains { $0.contains("declares no `name`") })
    }

    @Test func nestedGenerableArgumentsLandUnderDefs() throws {
        let source = """
            struct Plan: Tool {
                let name = "plan"
                let description = "Plan a trip"
                @Generable struct Arguments {
                    var stops: [Stop]
                }
                @Generable struct Stop {
                    @Guide(description: "Where") var place: String
                }
                func call(arguments: Arguments) async throws -> String { "" }
            }
            """
        let schema = try documents(source)[0].entries[0].schema
        #expect(schema["properties"]?["stops"]?["items"]?["$ref"] == .string("#/$defs/Stop"))
        #expect(schema["$defs"]?["Stop"]?["properties"]?["place"]?["description"] == .string("Where"))
    }

    @Test func anyOfAndArrayCountsAreInTheArgumentsSchema() throws {
        let source = """
            struct Tagger: Tool {
                let name = "tag"
                let description = "Tag a note"
                @Generable struct Arguments {
                    @Guide(description: "Tone", .anyOf(["calm", "urgent"])) var tone: String
                    @Guide(.count(2...4)) var tags: [String]
                }
                func call(arguments: Arguments) async throws -> String { "" }
            }
            """
        let schema = try documents(source)[0].entries[0].schema
        #expect(schema["properties"]?["tone"]?["enum"] == .array([.string("calm"), .string("urgent")]))
        #expect(schema["properties"]?["tags"]?["minItems"] == .number("2"))
        #expect(schema["properties"]?["tags"]?["maxItems"] == .number("4"))
    }

    @Test func severalToolsInOneFileEachKeepTheirOwnArguments() throws {
        let source =
            Self.weather + """

                struct GetTimeTool: Tool {
                    let name = "getTime"
                    let description = "Get the time in a time zone"
                    @Generable struct Arguments { var zone: String }
                    func call(arguments: Arguments) async throws -> String { "" }
                }

                @Generable struct Answer { var text: String }
                """
        let all = try documents(source)
        #expect(all.count == 2, "the tools, then the response schema")
        #expect(all[0].entries.map(\.name) == ["getWeather", "getTime"])
        #expect(all[0].entries[1].schema["properties"]?["zone"] != nil)
        #expect(all[0].entries[0].schema["properties"]?["zone"] == nil)
        #expect(!all[1].isToolList)
        #expect(all[1].entries[0].name == "Answer")
    }

    @Test func aTypealiasedFileLevelArgumentsTypeIsNotAlsoTheResponseSchema() throws {
        let source = """
            @Generable struct SearchArguments { var query: String }
            struct Search: Tool {
                let name = "search"
                let description = "Search notes"
                typealias Arguments = SearchArguments
                func call(arguments: SearchArguments) async throws -> String { "" }
            }
            """
        let all = try documents(source)
        #expect(all.count == 1)
        #expect(all[0].entries[0].schema["title"] == .string("SearchArguments"))
    }

    // MARK: Refused, with where

    @Test func aNameThatIsNotALiteralIsRefusedWithItsLineAndColumn() {
        let error = refusal(
            """
            struct T: Tool {
                let name = Self.toolName
                let description = "d"
                @Generable struct Arguments { var a: String }
            }
            """)
        guard case let .invalidTool(tool, line, column, problem, _)? = error else {
            Issue.record("expected invalidTool, got \(String(describing: error))")
            return
        }
        #expect(tool == "T" && line == 2 && column == 16 && problem.contains("`name` is not a string literal"))
        #expect(error?.description.hasPrefix("2:16: tool T:") == true)
    }

    @Test func anInterpolatedOrInitialisedDescriptionIsRefused() {
        let interpolated = refusal(
            """
            struct T: Tool {
                let description = "for \\(user)"
                @Generable struct Arguments { var a: String }
            }
            """)
        guard case let .invalidTool(_, line, column, problem, _)? = interpolated else {
            Issue.record("expected invalidTool, got \(String(describing: interpolated))")
            return
        }
        #expect(line == 2 && column == 23 && problem.contains("`description` is not a string literal"))

        let initialised = refusal(
            """
            struct T: Tool {
                let description: String
                @Generable struct Arguments { var a: String }
            }
            """)
        guard case let .invalidTool(_, line2, _, problem2, _)? = initialised else {
            Issue.record("expected invalidTool, got \(String(describing: initialised))")
            return
        }
        #expect(line2 == 2 && problem2.contains("no value here"))
    }

    @Test func argumentsThatAreNotGenerableAreRefused() {
        let error = refusal(
            """
            struct T: Tool {
                let description = "d"
                struct Arguments { var a: String }
            }
            """)
        guard case let .invalidTool(_, line, column, problem, _)? = error else {
            Issue.record("expected invalidTool, got \(String(describing: error))")
            return
        }
        #expect(line == 3 && column == 5 && problem.contains("not @Generable"))
    }

    @Test func anArgumentsTypeFromElsewhereIsRefusedWhereItIsNamed() {
        let error = refusal(
            """
            struct T: Tool {
                let description = "d"
                func call(arguments: Elsewhere) async throws -> String { "" }
            }
            """)
        guard case let .invalidTool(_, line, column, problem, _)? = error else {
            Issue.record("expected invalidTool, got \(String(describing: error))")
            return
        }
        #expect(line == 3 && column == 26 && problem.contains("Elsewhere is not a @Generable type"))
    }

    @Test func sourceThatDoesNotParseSaysLineAndColumn() {
        let error = refusal("struct T: Tool {\n    let description = \"d\n}\n")
        guard case let .swiftSyntax(line, column, problem, _)? = error else {
            Issue.record("expected swiftSyntax, got \(String(describing: error))")
            return
        }
        #expect(line == 2 && column == 23 && problem.contains("unterminated string"))

        let cutOff = refusal("@Generable struct A {\n  var s: String\n")
        guard case let .swiftSyntax(line2, column2, problem2, _)? = cutOff else {
            Issue.record("expected swiftSyntax, got \(String(describing: cutOff))")
            return
        }
        #expect(line2 == 1 && column2 == 21 && problem2.contains("unterminated struct A"))
    }
}
