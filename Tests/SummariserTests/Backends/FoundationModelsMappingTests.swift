import Testing
import ContextKit
import ContextKitJSON
@testable import Summariser

/// The decisions of the Foundation Models backend, which Linux cannot build:
/// availability reasons, error mapping (both of Apple's error types), the
/// pieces of a request that are counted, and the schema given to Apple.
@Suite struct FoundationModelsMappingTests {
    typealias Mapping = FoundationModelsMapping

    // MARK: Availability

    @Test func eachAvailabilityReasonSaysWhatToDo() {
        #expect(Mapping.Status.available.availability == .available)
        let cases: [(Mapping.Status, BackendAvailability.Reason, UserMessage.Action)] = [
            (.deviceNotEligible, .deviceNotEligible, .hideFeature),
            (.appleIntelligenceNotEnabled, .notEnabled, .openSettings),
            (.modelNotReady, .modelNotReady, .tryLater),
            // A reason a later SDK adds: the model cannot answer now, nothing says it never will.
            (.unknownReason, .modelNotReady, .tryLater)
        ]
        for (status, reason, action) in cases {
            #expect(status.availability == .unavailable(reason))
            #expect(UserMessage(reason).action == action)
        }
    }

    // MARK: Errors

    @Test func theContextSizeErrorOf27KeepsBothCounts() {
        let failure = Mapping.Failure.contextSizeExceeded(tokenCount: 4_410, contextSize: 4_096, detail: "exceeded")
        #expect(failure.generationError == .contextOverflow(ContextOverflow(dialect: .apple, promptTokens: 4_410, contextWindow: 4_096)))
    }

    @Test func theContextSizeErrorOf26IsReadFromItsDescription() {
        let said = Mapping.Failure.contextSizeExceeded(
            tokenCount: nil, contextSize: nil,
            detail: "Content contains 4,098 tokens, which exceeds the maximum allowed context size of 4,096.")
        #expect(said.generationError == .contextOverflow(ContextOverflow(dialect: .apple, promptTokens: 4_098, contextWindow: 4_096)))
        let silent = Mapping.Failure.contextSizeExceeded(tokenCount: nil, contextSize: nil, detail: "too long")
        #expect(silent.generationError == .contextOverflow(ContextOverflow(dialect: .apple, promptTokens: nil, contextWindow: nil)))
    }

    @Test func aRateLimitOrABusySessionIsTryLater() {
        for failure in [Mapping.Failure.rateLimited("background limit"), .concurrentRequests("already responding")] {
            guard case .unavailable(.busy) = failure.generationError else {
                Issue.record("\(failure) → \(failure.generationError)")
                continue
            }
            let message = UserMessage(failure.generationError)
            #expect(message.action == .tryLater)
            #expect(message != UserMessage(.modelNotReady), "busy is not 'still downloading'")
        }
    }

    @Test func everyOtherFailureHasItsOwnCase() {
        let cases: [(Mapping.Failure, GenerationError)] = [
            (.guardrailViolation("g"), .guardrailViolation("g")),
            (.refusal(explanation: "no"), .refusal(explanation: "no")),
            (.decodingFailure("d"), .decodingFailure("d")),
            (.unsupportedGuide("u"), .unsupportedGuide("u")),
            (.unsupportedLanguageOrLocale("xx"), .unsupportedLanguage("xx")),
            (.assetsUnavailable("a"), .unavailable(.modelNotReady)),
            (.other("o"), .transport("o", status: nil))
        ]
        for (failure, error) in cases {
            #expect(failure.generationError == error)
        }
    }

    @Test func the27ContextSizeErrorReplansTheRun() async throws {
        // A backend that answers the first request as iOS 27 does when it is too long.
        let overflow = Mapping.Failure.contextSizeExceeded(tokenCount: 1_400, contextSize: 1_024, detail: "").generationError
        let backend = FakeBackend(behaviour: { n, _, prompt in
            if n == 0 { throw overflow }
            return Fakes.summaryJSON(for: prompt, request: n)
        })
        var profile = Fakes.profile
        profile.contextWindow = 1_024
        let engine = try SummaryEngine(backend: backend, configuration: .init(profile: profile, responseReserve: 150))
        let run = try await engine.summarise(Fakes.text(paragraphs: 20))
        #expect(run.replans.first?.reportedTokens == 1_400)
        #expect(run.replans.first.map { $0.roomAfter < $0.roomBefore } == true)
    }

    @Test func aRateLimitStopsTheRunWithTryLater() async throws {
        let busy = Mapping.Failure.rateLimited("background limit").generationError
        let backend = FakeBackend(behaviour: { _, _, _ in throw busy })
        let engine = try SummaryEngine(backend: backend, configuration: .init(profile: Fakes.profile))
        do {
            _ = try await engine.summarise(Fakes.text(paragraphs: 3))
            Issue.record("a rate limit is not a summary")
        } catch {
            #expect(UserMessage(error).action == .tryLater)
            #expect(backend.log.prompts.count == 1, "not replanned, not retried")
        }
    }

    // MARK: What is counted

    @Test func theWholeRequestIsCountedAsItIsSent() {
        typealias Piece = Mapping.RequestPiece
        #expect(
            Mapping.requestPieces(instructions: "Summarise.", prompt: "text", schema: nil, hasTools: false)
                == [Piece.instructions("Summarise."), .prompt("text")])
        #expect(
            Mapping.requestPieces(instructions: "Summarise.", prompt: "text", schema: Summary.schema, hasTools: false)
                == [Piece.instructions("Summarise."), .prompt("text"), .schema(Summary.schema)])
        #expect(
            Mapping.requestPieces(instructions: "Summarise.", prompt: "text", schema: Summary.schema, hasTools: true)
                == [Piece.instructions("Summarise."), .prompt("text"), .schema(Summary.schema), .tools])
    }

    // MARK: The schema given to Apple

    func parsed(_ schema: OutputSchema) throws -> OrderedJSON {
        try JSONParser.parse(Mapping.generationSchemaJSON(schema))
    }

    @Test func theSummarySchemaGetsWhatApplesEncoderWrites() throws {
        let json = try parsed(Summary.schema)
        #expect(json["title"]?.stringValue == "Summary")
        #expect(json["x-order"] == .array([.string("headline"), .string("points")]))
        #expect(json["additionalProperties"] == .bool(false))
        #expect(json["properties"]?["points"]?["maxItems"] != nil, "the schema's own keywords are kept")
    }

    @Test func aSchemaIsMatchedByItsContentNotItsName() throws {
        // Another app's schema that happens to be called Summary keeps its own shape.
        let mood = OutputSchema(
            name: "Summary",
            schema: .object([
                JSONMember("type", .string("object")),
                JSONMember(
                    "properties",
                    .object([
                        JSONMember("mood", .object([JSONMember("type", .string("string")), JSONMember("enum", .array([.string("calm"), .string("tense")]))])),
                        JSONMember("tags", .object([JSONMember("type", .string("array")), JSONMember("items", .object([JSONMember("type", .string("string"))]))]))
                    ])),
                JSONMember("required", .array([.string("mood"), .string("tags")]))
            ]))
        let json = try parsed(mood)
        #expect(Mapping.generationSchemaJSON(mood) != Mapping.generationSchemaJSON(Summary.schema))
        #expect(json["x-order"] == .array([.string("mood"), .string("tags")]))
        #expect(json["properties"]?["headline"] == nil)
        #expect(json["properties"]?["mood"]?["enum"] == .array([.string("calm"), .string("tense")]))
    }

    @Test func nestedObjectsAreCompletedAndWhatTheSchemaSaysIsKept() throws {
        let schema = OutputSchema(
            name: "Entry",
            schema: .object([
                JSONMember("title", .string("JournalEntry")),
                JSONMember("type", .string("object")),
                JSONMember(
                    "properties",
                    .object([
                        JSONMember(
                            "place",
                            .object([
                                JSONMember("type", .string("object")),
                                JSONMember("properties", .object([JSONMember("city", .object([JSONMember("type", .string("string"))]))])),
                                JSONMember("additionalProperties", .bool(true))
                            ])),
                        JSONMember("when", .object([JSONMember("type", .string("string"))]))
                    ])),
                JSONMember("x-order", .array([.string("when"), .string("place")]))
            ]))
        let json = try parsed(schema)
        #expect(json["title"]?.stringValue == "JournalEntry", "a title the schema has is not replaced by its name")
        #expect(json["x-order"] == .array([.string("when"), .string("place")]))
        #expect(json["additionalProperties"] == .bool(false))
        let place = json["properties"]?["place"]
        #expect(place?["x-order"] == .array([.string("city")]))
        #expect(place?["additionalProperties"] == .bool(true))
        #expect(json["properties"]?["when"]?["x-order"] == nil, "only objects with properties get an order")
    }
}
