#if canImport(FoundationModels)
import FoundationModels
import ContextKit

/// Apple's on-device model (iOS, iPadOS, macOS, visionOS 26 and later),
/// kept thin: availability, sessions, prewarm, streaming and error mapping.
///
/// Written against the iOS 26 SDK but never compiled here (Linux has no
/// FoundationModels), so it is small on purpose; see the Summariser README.
/// Typed output is the `Summary` schema only, generated through a
/// `@Generable` twin of it: Apple's guided generation takes Swift types, and
/// converting arbitrary JSON Schema to `DynamicGenerationSchema` is not
/// worth its weight for one schema.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
public struct FoundationModelsBackend: LanguageModelBackend {
    /// The system model (`SystemLanguageModel.default`).
    public init() {}

    /// `apple-on-device`, as the built-in profile is named.
    public var name: String { "apple-on-device" }

    /// The system model's availability, its three reasons kept apart: device
    /// not eligible (hide the feature), Apple Intelligence off (Settings),
    /// model not ready (try later).
    public func availability() async -> BackendAvailability {
        switch SystemLanguageModel.default.availability {
        case .available:
            return .available
        case .unavailable(.deviceNotEligible):
            return .unavailable(.deviceNotEligible)
        case .unavailable(.appleIntelligenceNotEnabled):
            return .unavailable(.notEnabled)
        default:
            return .unavailable(.modelNotReady)
        }
    }

    /// The model's window from the OS (`contextSize` is back-deployed from
    /// the 26.4 SDKs, whose compiler is Swift 6.3); 4,096, the documented
    /// size, when built with an older SDK.
    public func contextSize() async -> Int? {
        #if compiler(>=6.3)
        return SystemLanguageModel.default.contextSize
        #else
        return 4096
        #endif
    }

    /// The on-device tokenizer's exact count of `text` on iOS, macOS and
    /// visionOS 26.4 and later; nil before (the engine then relies on the
    /// `apple-on-device` profile's proxy estimate, ±15%). The text is counted
    /// as instructions, the one overload Apple documents for plain text; a
    /// prompt's own framing is in the profile's fixed overheads.
    public func tokenCount(for text: String) async -> Int? {
        #if compiler(>=6.3)
        if #available(iOS 26.4, macOS 26.4, visionOS 26.4, *) {
            return try? await SystemLanguageModel.default.tokenCount(for: Instructions(text))
        }
        #endif
        return nil
    }

    /// A fresh `LanguageModelSession` with `instructions`, for one request.
    public func makeSession(instructions: String) -> any LanguageModelSession {
        Session(box: Box(FoundationModels.LanguageModelSession(instructions: instructions)))
    }

    @Generable(description: "A short summary of a piece of text")
    struct GeneratedSummary {
        @Guide(description: "A headline of at most eight words")
        var headline: String
        @Guide(description: "The main points, one short sentence each", .count(3))
        var points: [String]
    }

    /// Apple's session is used from one task at a time (one request per session).
    final class Box: @unchecked Sendable {
        let session: FoundationModels.LanguageModelSession
        init(_ session: FoundationModels.LanguageModelSession) { self.session = session }
    }

    struct Session: LanguageModelSession {
        let box: Box

        func prewarm() async { box.session.prewarm() }

        func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
            let box = self.box
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        let options = Self.options(request.options)
                        var last = ""
                        if let schema = request.schema {
                            guard schema.name == Summary.schema.name else {
                                throw GenerationError.unsupportedGuide("this backend generates the Summary schema only, not \(schema.name)")
                            }
                            for try await snapshot in box.session.streamResponse(to: request.prompt, generating: GeneratedSummary.self, options: options) {
                                last = snapshot.rawContent.jsonString
                                continuation.yield(ResponseSnapshot(content: last))
                            }
                        } else {
                            for try await snapshot in box.session.streamResponse(to: request.prompt, options: options) {
                                last = snapshot.content
                                continuation.yield(ResponseSnapshot(content: last))
                            }
                        }
                        continuation.yield(ResponseSnapshot(content: last, isComplete: true))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: await Self.translate(error))
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }

        static func options(_ o: SamplingOptions) -> GenerationOptions {
            var sampling: GenerationOptions.SamplingMode? = nil
            switch o.mode {
            case .greedy?: sampling = .greedy
            case .topK(let k)?: sampling = .random(top: k, seed: o.seed)
            case .probabilityThreshold(let p)?: sampling = .random(probabilityThreshold: p, seed: o.seed)
            case nil: break
            }
            return GenerationOptions(sampling: sampling, temperature: o.temperature, maximumResponseTokens: o.maximumResponseTokens)
        }

        static func translate(_ error: any Error) async -> GenerationError {
            if error is CancellationError { return .cancelled }
            if let error = error as? GenerationError { return error }
            guard let error = error as? FoundationModels.LanguageModelSession.GenerationError else {
                return .transport("\(error)", status: nil)
            }
            switch error {
            case .exceededContextWindowSize(let context):
                return .contextOverflow(ContextOverflow.parse(context.debugDescription)
                    ?? ContextOverflow(dialect: .apple, promptTokens: nil, contextWindow: nil))
            case .guardrailViolation(let context):
                return .guardrailViolation(context.debugDescription)
            case .refusal(let refusal, let context):
                let explanation = (try? await refusal.explanation.content) ?? context.debugDescription
                return .refusal(explanation: explanation)
            case .decodingFailure(let context):
                return .decodingFailure(context.debugDescription)
            case .unsupportedGuide(let context):
                return .unsupportedGuide(context.debugDescription)
            case .unsupportedLanguageOrLocale(let context):
                return .unsupportedLanguage(context.debugDescription)
            case .assetsUnavailable:
                return .unavailable(.modelNotReady)
            default:
                return .transport(error.localizedDescription, status: nil)
            }
        }
    }
}
#endif
