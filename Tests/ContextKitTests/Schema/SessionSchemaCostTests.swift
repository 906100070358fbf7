import Testing
@testable import ContextKit
import ContextKitJSON

/// One session's definitions priced together, and a tool priced the same
/// whether it comes from Swift source, an OpenAI `tools` entry or a JSON
/// Schema with a name and description.
@Suite struct SessionSchemaCostTests {
    /// examples/weather-tools.json's tool, written as an app would in Swift.
    static let weatherSwift = """
        struct CurrentWeather: Tool {
            let name = "get_current_weather"
            let description = "Get the current weather in a given location"
            @Generable struct Arguments {
                @Guide(description: "The city and state, e.g. San Francisco, CA")
                var location: String
                @Guide(description: "The unit of temperature to return", .anyOf(["celsius", "fahrenheit"]))
                var unit: String?
            }
            func call(arguments: Arguments) async throws -> String { "" }
        }
        """

    /// The same tool as one JSON Schema with its name and description beside the keywords.
    static let weatherSchema = """
        {"name": "get_current_weather", "description": "Get the current weather in a given location",
         "type": "object",
         "properties": {
           "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
           "unit": {"type": "string", "description": "The unit of temperature to return", "enum": ["celsius", "fahrenheit"]}},
         "required": ["location"]}
        """

    private func tools(_ text: String, _ fileName: String) throws -> SchemaDocument {
        try SchemaDocument.load(text, fileName: fileName)
    }

    @Test func aJSONSchemaWithNameAndDescriptionIsReadAsATool() throws {
        let document = try tools(Self.weatherSchema, "weather.json")
        #expect(document.isToolList)
        #expect(document.entries[0].name == "get_current_weather")
        #expect(document.entries[0].schema["name"] == nil, "the name is the tool's, not a schema keyword")
        #expect(document.entries[0].function?["parameters"]?["properties"]?["unit"] != nil)
    }

    /// For OpenAI the Cookbook's method is exact, so the three spellings of one tool must agree to the token.
    @Test func oneToolFromSwiftFromToolsJSONAndFromASchemaCostsTheSameForGPT4o() throws {
        let settings = try SchemaCostTests.openAISettings("o200k_base", .gpt4o)
        let fromJSON = SchemaCost(settings: settings).report(for: try tools(try SchemaFixtures.example("weather-tools.json"), "weather-tools.json"))
        let fromSwift = SchemaCost(settings: settings).report(for: try tools(Self.weatherSwift, "Weather.swift"))
        let fromSchema = SchemaCost(settings: settings).report(for: try tools(Self.weatherSchema, "weather.json"))
        #expect(fromJSON.totalTokens > 0)
        #expect(fromSwift.totalTokens == fromJSON.totalTokens)
        #expect(fromSchema.totalTokens == fromJSON.totalTokens)
    }

    /// `tokcount --chat` prices a request's tools through `ConversationCounter`;
    /// the session pricing must give the same number (one home for the formula).
    @Test func theSessionsToolsCostWhatAChatRequestsToolsCost() throws {
        let profile = try ProfileCatalog.builtIn().profile(named: "gpt-4o")
        let counter = try ConversationCounter(profile: profile)
        let json = try JSONParser.parse(try SchemaFixtures.example("weather-tools.json"))
        let chat = try counter.count(Conversation(messages: [ChatMessage(role: .user, content: "hi")], tools: json.elements ?? []))
        let settings = SchemaCostSettings(profile: profile, tokenizer: counter.tokenizer)
        let session = SchemaCost(settings: settings).session([("weather-tools.json", try tools(try SchemaFixtures.example("weather-tools.json"), "weather-tools.json"))])
        #expect(session.toolsTokens == chat.tools)
    }

    @Test func severalToolsAndAResponseSchemaAddUpAndEachToolIsWhatDroppingItSaves() throws {
        let settings = try SchemaCostTests.appleSettings()
        let swift = try SchemaDocument.loadAll(
            Self.weatherSwift + """

                struct GetTime: Tool {
                    let name = "getTime"
                    let description = "The time now"
                    @Generable struct Arguments { var zone: String }
                }
                """, fileName: "Tools.swift")
        let summary = try SchemaDocument.load(try SchemaFixtures.example("Summary.swift"), fileName: "Summary.swift")
        let session = SchemaCost(settings: settings).session([("Tools.swift", swift[0]), ("Summary.swift", summary)])
        #expect(session.tools.map(\.name) == ["get_current_weather", "getTime"])
        #expect(session.toolFramingTokens == 12, "6 per tool, the nearest measured analogue")
        // Apple's tools are priced one by one (compact JSON + framing), so the list is the sum.
        #expect(session.tools.map(\.tokens).reduce(0, +) == session.toolsTokens)
        let alone = SchemaCost(settings: settings).report(for: summary).totalTokens
        #expect(session.responseSchemaTokens == alone)
        #expect(session.totalTokens == session.toolsTokens + alone)
        #expect(session.toolsWithoutDescriptions < session.toolsTokens)
        #expect(session.responseSchema?.report.schemaOutOfPrompt != nil, "Apple's switch applies to the response schema")
    }

    @Test func aSessionBudgetCountsToolsAsFixedCost() {
        let budget = TokenBudget(window: 4096, requestOverhead: 22, instructions: 100, schema: 119, reserve: 500, tools: 300)
        #expect(budget.fixed == 22 + 100 + 300 + 119)
        #expect(budget.room == 4096 - 541 - 500)
        #expect(budget.arithmetic.contains { $0.label == "− tools" && $0.value == "300" })
        #expect(!TokenBudget(window: 4096).arithmetic.contains { $0.label == "− tools" })
    }
}

/// The session budget an app calls: the same inputs as `schema-cost FILE FILE...`, one call.
@Suite struct SessionBudgetTests {
    @Test func oneCallGivesTheSessionsFixedCostAndTheRoomLeft() throws {
        let apple = try ProfileCatalog.builtIn().profile(named: "apple-on-device")
        let summary = try SchemaFixtures.example("Summary.swift")
        let weather = try SchemaFixtures.example("tools/WeatherTool.swift")
        let instructions = "You answer questions about the weather."
        let (budget, cost) = try TokenBudget.session(
            profile: apple, instructions: instructions,
            files: [("WeatherTool.swift", weather), ("Summary.swift", summary)])
        #expect(cost.tools.map(\.name) == ["getWeather"])
        #expect(cost.responseSchema?.name == "Summary")
        #expect(budget.tools == cost.toolsTokens && budget.schema == cost.responseSchemaTokens)
        let settings = SchemaCostSettings(profile: apple, tokenizer: try apple.tokenizer.load())
        #expect(budget.instructions == settings.tokens(instructions))
        #expect(budget.requestOverhead == apple.overheads.request(messages: 2))
        #expect(budget.fixed == budget.requestOverhead + budget.instructions + cost.toolsTokens + cost.responseSchemaTokens)
        #expect(budget.room == apple.contextWindow - budget.fixed - TokenBudget.defaultReserve(for: apple))
        #expect(budget.isEstimate)
    }

    @Test func aFileThatCannotBePricedIsThrownWithWhere() throws {
        let apple = try ProfileCatalog.builtIn().profile(named: "apple-on-device")
        #expect {
            _ = try TokenBudget.session(profile: apple, files: [("T.swift", "struct T: Tool {\n  let description = d\n}\n")])
        } throws: { error in
            guard case let .invalidTool(_, line, column, _, _) = error as? SchemaError else { return false }
            return line == 2 && column == 21
        }
    }
}
