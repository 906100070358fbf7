import Testing
import ContextKit
@testable import Summariser

/// `UserMessage` for every availability reason, every generation error and every run error.
@Suite struct UserMessageTests {
    static let reasons: [BackendAvailability.Reason] = [
        .deviceNotEligible, .notEnabled, .modelNotReady, .busy(detail: "rate limited"),
        .unreachable(url: "http://127.0.0.1:8080", detail: "connection refused"),
        .modelNotLoaded(model: "smollm2", detail: "loading"), .modelNotLoaded(model: nil, detail: "loading"),
        .unauthorised(url: "https://api.example.com")
    ]

    static let generationErrors: [GenerationError] = [
        .unavailable(.notEnabled), .contextOverflow(ContextOverflow(dialect: .apple, promptTokens: 5000, contextWindow: 4096)),
        .guardrailViolation("detail"), .refusal(explanation: "I can't help with that."), .decodingFailure("cut off"),
        .unsupportedGuide("anyOf"), .unsupportedLanguage("xx"), .cancelled, .transport("reset", status: 502)
    ]

    static let runErrors: [SummariserError] = [
        .unavailable(.deviceNotEligible), .generation(.refusal(explanation: "no"), call: 2),
        .planning(.noRoom(TokenBudget(window: 100, instructions: 200))),
        .overflowPersists(.contextOverflow(ContextOverflow(dialect: .apple, promptTokens: nil, contextWindow: nil)), replans: 3),
        .reduceDoesNotConverge(summaries: 4, level: 3), .cancelled
    ]

    /// Fails to compile when a case is added without a row above.
    static func listed(_ reason: BackendAvailability.Reason) -> Bool {
        switch reason {
        case .deviceNotEligible, .notEnabled, .modelNotReady, .busy, .unreachable, .modelNotLoaded, .unauthorised: return true
        }
    }
    static func listed(_ error: GenerationError) -> Bool {
        switch error {
        case .unavailable, .contextOverflow, .guardrailViolation, .refusal, .decodingFailure, .unsupportedGuide, .unsupportedLanguage, .cancelled, .transport: return true
        }
    }
    static func listed(_ error: SummariserError) -> Bool {
        switch error {
        case .unavailable, .generation, .planning, .overflowPersists, .reduceDoesNotConverge, .cancelled: return true
        }
    }

    static func isReadable(_ message: UserMessage) -> Bool {
        let words = message.title.split(separator: " ").count
        return (1...7).contains(words) && message.detail.split(separator: " ").count >= 6
            && message.detail.last == "." && !message.detail.contains("\n")
    }

    @Test(arguments: reasons) func everyReasonHasATitleAndWhatToDo(reason: BackendAvailability.Reason) {
        #expect(Self.listed(reason))
        #expect(Self.isReadable(UserMessage(reason)), "\(UserMessage(reason))")
    }

    @Test(arguments: generationErrors) func everyGenerationErrorHasATitleAndWhatToDo(error: GenerationError) {
        #expect(Self.listed(error))
        #expect(Self.isReadable(UserMessage(error)), "\(UserMessage(error))")
    }

    @Test(arguments: runErrors) func everyRunErrorHasATitleAndWhatToDo(error: SummariserError) {
        #expect(Self.listed(error))
        #expect(Self.isReadable(UserMessage(error)), "\(UserMessage(error))")
    }

    @Test func theThreeAppleReasonsEachSayADifferentThing() {
        let messages = [BackendAvailability.Reason.deviceNotEligible, .notEnabled, .modelNotReady].map { UserMessage($0) }
        #expect(messages.map(\.action) == [.hideFeature, .openSettings, .tryLater])
        #expect(Set(messages.map(\.title)).count == 3)
        #expect(Set(messages.map(\.detail)).count == 3)
        #expect(messages[1].detail.contains("Settings"))
    }

    @Test func guardrailAndRefusalAreGentle() {
        for error in [GenerationError.guardrailViolation("the text was flagged as unsafe"), .refusal(explanation: "This content violates policy.")] {
            let message = UserMessage(error)
            #expect(message.action == .showText, "show the text instead of blaming anyone")
            let copy = (message.title + " " + message.detail).lowercased()
            for harsh in ["violat", "unsafe", "inappropriate", "blocked", "flagged", "policy", "you wrote", "error", "failed"] {
                #expect(!copy.contains(harsh), "'\(harsh)' in \(message)")
            }
        }
    }

    @Test func aRunErrorSpeaksAsTheErrorInsideIt() {
        #expect(UserMessage(SummariserError.unavailable(.notEnabled)) == UserMessage(.notEnabled))
        #expect(UserMessage(SummariserError.generation(.decodingFailure("x"), call: 3)) == UserMessage(GenerationError.decodingFailure("x")))
        #expect(UserMessage(GenerationError.unavailable(.modelNotReady)) == UserMessage(.modelNotReady))
        #expect(UserMessage(SummariserError.cancelled) == UserMessage(GenerationError.cancelled))
    }

    @Test func theServerReasonsNameWhatToCheck() {
        #expect(UserMessage(.unreachable(url: "http://127.0.0.1:8080", detail: "refused")).detail.contains("http://127.0.0.1:8080"))
        #expect(UserMessage(.modelNotLoaded(model: "smollm2", detail: "")).detail.contains("'smollm2'"))
        #expect(UserMessage(.unauthorised(url: "https://api.example.com")).action == .checkSetup)
    }

    @Test func everyActionIsUsed() {
        let all = Self.reasons.map { UserMessage($0) } + Self.generationErrors.map { UserMessage($0) } + Self.runErrors.map { UserMessage($0) }
        #expect(Set(all.map(\.action)) == Set(UserMessage.Action.allCases))
    }
}
