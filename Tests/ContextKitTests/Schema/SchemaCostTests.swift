import Testing
@testable import ContextKit
import ContextKitJSON

@Suite struct SchemaCostTests {
    /// Apple's on-device model as the field notes measure it: 4,096 tokens,
    /// 22 per session, 6 of schema framing; counts estimated from cl100k_base.
    static func appleSettings(reserve: Int = 0) throws -> SchemaCostSettings {
        SchemaCostSettings(
            profileName: "apple-on-device", tokenizer: try Tokenizer.named("cl100k_base"),
            estimate: TokenEstimate(method: "test", factor: 1.216, errorBar: 0.15), method: "≈ cl100k_base × 1.216",
            outputSchemas: .jsonText(style: .compact(escapingSlashes: true), framingTokens: 6),
            tools: .jsonText(style: .compact(escapingSlashes: true), framingTokens: 6), framingSource: "field notes",
            contextWindow: 4096, requestOverhead: 22, responseReserve: reserve, canLeaveSchemaOutOfPrompt: true)
    }

    static func openAISettings(_ encoding: String, _ constants: OpenAIToolConstants) throws -> SchemaCostSettings {
        SchemaCostSettings(
            profileName: "gpt", tokenizer: try Tokenizer.named(encoding), method: "\(encoding), exact",
            outputSchemas: .jsonText(style: .compact(escapingSlashes: false), framingTokens: 0),
            tools: .openAIFunctions(constants), framingSource: "cookbook", contextWindow: 128_000, requestOverhead: 3)
    }

    private func summary() throws -> SchemaDocument {
        try SchemaDocument.load(try SchemaFixtures.example("Summary.json"))
    }

    // MARK: Apple

    @Test func summaryCompactJSONIs90Cl100kTokens() throws {
        let report = SchemaCost(settings: try Self.appleSettings()).report(for: try summary())
        #expect(report.schemaText.hasPrefix(#"{"title":"Summary","type":"object","description":"A short summary of a piece of text","properties":{"#))
        #expect(!report.schemaText.contains(" " + "\"") && !report.schemaText.contains("\n"))
        #expect(report.rawSchemaTokens == 90)
    }

    /// The field notes measured 113 tokens for the compact JSON and 119 charged
    /// in a session. The estimate must land inside its own error bar of both.
    @Test func summaryEstimateAgainstTheMeasured113And119() throws {
        let report = SchemaCost(settings: try Self.appleSettings()).report(for: try summary())
        #expect(report.schemaTokens == 109)  // 90 × 1.216 = 109.4
        #expect(report.framingTokens == 6)
        #expect(report.totalTokens == 115)
        #expect(abs(Double(report.schemaTokens - 113)) / 113 < 0.15)
        #expect(abs(Double(report.totalTokens - 119)) / 119 < 0.15)
        #expect(report.isEstimate && report.relativeError == 0.15)
        #expect(abs(report.windowShare - 115.0 / 4096) < 1e-9)
    }

    @Test func builtInAppleProfileStaysWithinItsErrorBarOf119() throws {
        let profile = try ProfileCatalog.builtIn().profile(named: "apple-on-device")
        let settings = SchemaCostSettings(profile: profile, tokenizer: try profile.tokenizer.load())
        let report = SchemaCost(settings: settings).report(for: try summary())
        let bar = try #require(report.relativeError)
        #expect(abs(Double(report.totalTokens - 119)) / 119 <= bar)
        #expect(report.schemaOutOfPrompt != nil)
    }

    @Test func swiftSourceAndJSONCostTheSame() throws {
        let settings = try Self.appleSettings()
        let fromSwift = SchemaCost(settings: settings).report(for: try SchemaDocument.load(try SchemaFixtures.example("Summary.swift"), fileName: "Summary.swift"))
        let fromJSON = SchemaCost(settings: settings).report(for: try summary())
        #expect(fromSwift.schemaText == fromJSON.schemaText)
        #expect(fromSwift.totalTokens == fromJSON.totalTokens)
        #expect(fromSwift.format == .swift)
    }

    @Test func breakdownIsSortedWithTheDearestFieldFirst() throws {
        let report = SchemaCost(settings: try Self.appleSettings()).report(for: try summary())
        #expect(report.fields.map(\.path).sorted() == ["Summary", "headline", "points"])
        #expect(report.fields.first?.path == "points")
        #expect(zip(report.fields, report.fields.dropFirst()).allSatisfy { $0.tokens >= $1.tokens })
        for field in report.fields {
            #expect(field.descriptionTokens > 0)
            #expect(field.descriptionTokens <= field.tokens)
            #expect(field.tokens < report.schemaTokens)
        }
        let type = try #require(report.fields.first { $0.kind == .type })
        #expect(type.description == "A short summary of a piece of text")
    }

    @Test func whatIfs() throws {
        let report = SchemaCost(settings: try Self.appleSettings(reserve: 500)).report(for: try summary(), instructionsTokens: 10)
        #expect(report.withoutDescriptions.totalTokens < report.totalTokens)
        #expect(report.withoutDescriptions.savedTokens == report.totalTokens - report.withoutDescriptions.totalTokens)
        let off = try #require(report.schemaOutOfPrompt)
        #expect(off.totalTokens == 0 && off.savedTokens == report.totalTokens)
        #expect(off.warning?.contains("7 of 8") == true)
        #expect(report.budget == TokenBudget(window: 4096, requestOverhead: 22, instructions: 10, schema: 115, reserve: 500, isEstimate: true))
        #expect(report.budget.room == 4096 - 22 - 10 - 115 - 500)
    }

    @Test func appleEncodingEscapesSlashes() throws {
        let document = try SchemaDocument.load(#"{"type":"object","properties":{"a":{"type":"string","description":"and/or"}},"x-order":["a"]}"#)
        let report = SchemaCost(settings: try Self.appleSettings()).report(for: document)
        #expect(report.schemaText.contains(#"and\/or"#))
    }

    @Test func propertiesNamedDescriptionSurviveTheNoDescriptionWhatIf() {
        let schema = OrderedJSON.object([
            JSONMember("description", .string("drop me")),
            JSONMember("properties", .object([JSONMember("description", .object([JSONMember("type", .string("string")), JSONMember("description", .string("drop"))]))]))
        ])
        #expect(
            SchemaFieldSite.strippingDescriptions(schema)
                == .object([JSONMember("properties", .object([JSONMember("description", .object([JSONMember("type", .string("string"))]))]))]))
    }

    @Test func nestedDefinitionsGetTheirOwnRows() throws {
        let source = """
            @Generable struct Trip {
                @Guide(description: "Where to")
                var stops: [Stop]
            }
            @Generable(description: "A place on the way")
            struct Stop {
                @Guide(description: "The place's name")
                var name: String
            }
            """
        let report = SchemaCost(settings: try Self.appleSettings()).report(for: try SchemaDocument.load(source, fileName: "Trip.swift"))
        #expect(Set(report.fields.map(\.path)) == ["stops", "Stop", "Stop.name"])
    }

    @Test func toolsUnderAppleAreCountedAsTheirJSON() throws {
        let document = try SchemaDocument.load(try SchemaFixtures.example("weather-tools.json"))
        let report = SchemaCost(settings: try Self.appleSettings()).report(for: document)
        #expect(report.schemaText.hasPrefix(#"{"name":"get_current_weather""#))
        #expect(report.framingTokens == 6)
        #expect(report.fields.contains { $0.kind == .function && $0.path == "get_current_weather" })
        #expect(report.fields.contains { $0.path == "get_current_weather.unit" })
        #expect(report.schemaOutOfPrompt == nil)
    }

    // MARK: OpenAI

    /// The cookbook's message counting (3 per message, 3 to prime the reply),
    /// only here to rebuild its published totals.
    private func cookbookMessageTokens(_ tokenizer: Tokenizer) -> Int {
        let messages = [
            ["role": "system", "content": "You are a helpful assistant that can answer to questions about the weather."],
            ["role": "user", "content": "What's the weather like in San Francisco?"]
        ]
        return messages.reduce(3) { total, message in
            total + 3 + tokenizer.count(message["role"]!) + tokenizer.count(message["content"]!)
        }
    }

    /// The OpenAI Cookbook's example: one weather tool and two messages are
    /// 101 prompt tokens on gpt-4o / gpt-4o-mini and 105 on gpt-3.5-turbo / gpt-4,
    /// as counted by its method and by the API.
    @Test(arguments: [("o200k_base", OpenAIToolConstants.gpt4o, 101), ("cl100k_base", OpenAIToolConstants.gpt4, 105)])
    func openAIToolCountMatchesThePublishedExample(encoding: String, constants: OpenAIToolConstants, published: Int) throws {
        let settings = try Self.openAISettings(encoding, constants)
        let report = SchemaCost(settings: settings).report(for: try SchemaDocument.load(try SchemaFixtures.example("weather-tools.json")))
        #expect(report.totalTokens + cookbookMessageTokens(settings.tokenizer) == published)
        #expect(!report.isEstimate)
        // Framing is the constants: start 7|10, properties 3, 2 keys × 3, enum −3 + 2 × 3, end 12.
        #expect(report.framingTokens == constants.functionStart + 3 + 6 + 3 + 12)
        #expect(report.fields.map(\.path).sorted() == ["get_current_weather", "get_current_weather.location", "get_current_weather.unit"])
    }

    @Test func cookbookDropsOneTrailingPeriod() {
        #expect(OpenAIToolCount.trimmedDescription("Get it.") == "Get it")
        #expect(OpenAIToolCount.trimmedDescription("Etc..") == "Etc.")
        #expect(OpenAIToolCount.typeText(.array([.string("string"), .string("null")])) == "['string', 'null']")
    }

    @Test func nestedToolParametersAreFlaggedAsALowerBound() throws {
        let text =
            #"[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","properties":{"p":{"type":"object","description":"x","properties":{"q":{"type":"string"}}}}}}}]"#
        let report = SchemaCost(settings: try Self.openAISettings("o200k_base", .gpt4o)).report(for: try SchemaDocument.load(text))
        #expect(report.notes.contains { $0.contains("lower bound") })
    }

    @Test func responseFormatUnderOpenAIIsTheCompactSchemaWithANote() throws {
        let profile = try ProfileCatalog.builtIn().profile(named: "gpt-4o")
        let settings = SchemaCostSettings(profile: profile, tokenizer: try profile.tokenizer.load())
        let report = SchemaCost(settings: settings).report(for: try SchemaDocument.load(try SchemaFixtures.example("Summary.response_format.json")))
        #expect(report.schemaText.hasPrefix(#"{"type":"object","properties":{"headline""#))
        #expect(report.framingTokens == 0)
        #expect(report.notes.contains { $0.contains("does not publish") })
    }

    // MARK: llama.cpp

    @Test func grammarOnlySchemasCostNothing() throws {
        var settings = try Self.appleSettings()
        settings.outputSchemas = .decodingOnly
        settings.canLeaveSchemaOutOfPrompt = false
        let report = SchemaCost(settings: settings).report(for: try summary())
        #expect(report.totalTokens == 0 && report.schemaText.isEmpty && report.fields.isEmpty)
        #expect(report.notes.contains { $0.contains("grammar") })
    }

    @Test func runtimeIsInferredFromTheProfileName() {
        func profile(_ name: String) -> ModelProfile { ModelProfile(name: name, contextWindow: 1, tokenizer: .encoding("cl100k_base")) }
        #expect(SchemaRuntime.inferred(for: profile("apple-on-device")) == .apple)
        #expect(SchemaRuntime.inferred(for: profile("gpt-4o")) == .openai)
        #expect(SchemaRuntime.inferred(for: profile("llama-3.2-3b")) == .grammar)
        #expect(SchemaRuntime.inferred(for: profile("custom")) == .json)
    }
}
