import ContextKit
import ContextKitJSON

/// The decisions `FoundationModelsBackend` makes, in plain Swift: which
/// availability reason means what, which framework error becomes which
/// `GenerationError`, which pieces of a request are counted, and the JSON a
/// `GenerationSchema` is decoded from.
///
/// FoundationModels cannot be compiled on Linux, so the backend only turns
/// the framework's values into the plain ones here and back; everything it
/// decides is here, where the tests run. The framework names below were
/// checked against Apple's documentation for the iOS 26.0, 26.4 and 27.0
/// SDKs and the SDK's `.swiftinterface` as quoted in public repositories
/// (see the Summariser README).
enum FoundationModelsMapping {
    /// `SystemLanguageModel.Availability`, as plain values (iOS 26.0 SDK: one
    /// `available` case and three `UnavailableReason`s; the reasons are not
    /// `@frozen`, so a later SDK may add one).
    enum Status: Equatable, Sendable {
        /// `.available`.
        case available
        /// `.unavailable(.deviceNotEligible)`.
        case deviceNotEligible
        /// `.unavailable(.appleIntelligenceNotEnabled)`.
        case appleIntelligenceNotEnabled
        /// `.unavailable(.modelNotReady)`.
        case modelNotReady
        /// An `UnavailableReason` added after the SDKs read here.
        case unknownReason

        /// What the app should do: hide the feature, send the user to
        /// Settings, or try later (also for a reason this code does not know:
        /// the model cannot answer now, and nothing says it never will).
        var availability: BackendAvailability {
            switch self {
            case .available: return .available
            case .deviceNotEligible: return .unavailable(.deviceNotEligible)
            case .appleIntelligenceNotEnabled: return .unavailable(.notEnabled)
            case .modelNotReady, .unknownReason: return .unavailable(.modelNotReady)
            }
        }
    }

    /// What the framework threw, as plain values. Both of Apple's error types
    /// land here: `LanguageModelSession.GenerationError` (iOS 26.0 SDK,
    /// deprecated in the 27.0 SDK but still what an app built with Xcode 26
    /// catches) and the 27.0 SDK's `LanguageModelError`,
    /// `LanguageModelSession.Error` and `SystemLanguageModel.Error`.
    enum Failure: Equatable, Sendable {
        /// `exceededContextWindowSize` (26.0: a description only) or
        /// `LanguageModelError.contextSizeExceeded` (27.0: `tokenCount` and
        /// `contextSize`).
        case contextSizeExceeded(tokenCount: Int?, contextSize: Int?, detail: String)
        /// `rateLimited`, in either SDK (26.0: an app in the background over
        /// the system's limit).
        case rateLimited(String)
        /// `concurrentRequests`: the session was already answering.
        case concurrentRequests(String)
        /// `guardrailViolation`.
        case guardrailViolation(String)
        /// `refusal`, with the model's explanation when it gave one.
        case refusal(explanation: String)
        /// `decodingFailure` (26.0).
        case decodingFailure(String)
        /// `unsupportedGuide` (26.0) or `unsupportedGenerationGuide` (27.0).
        case unsupportedGuide(String)
        /// `unsupportedLanguageOrLocale`.
        case unsupportedLanguageOrLocale(String)
        /// `assetsUnavailable` (26.0 `GenerationError`, 27.0 `SystemLanguageModel.Error`).
        case assetsUnavailable(String)
        /// Anything else the framework threw.
        case other(String)

        /// The engine's error: an overflow replans (with Apple's counts when
        /// it gave them, else whatever its message says), a rate limit or a
        /// busy session is "try later", missing assets are "model not ready".
        var generationError: GenerationError {
            switch self {
            case let .contextSizeExceeded(tokens, window, detail):
                if tokens != nil || window != nil {
                    return .contextOverflow(ContextOverflow(dialect: .apple, promptTokens: tokens, contextWindow: window))
                }
                return .contextOverflow(ContextOverflow.parse(detail) ?? ContextOverflow(dialect: .apple, promptTokens: nil, contextWindow: nil))
            case .rateLimited(let detail), .concurrentRequests(let detail):
                return .unavailable(.busy(detail: detail))
            case .guardrailViolation(let detail):
                return .guardrailViolation(detail)
            case .refusal(let explanation):
                return .refusal(explanation: explanation)
            case .decodingFailure(let detail):
                return .decodingFailure(detail)
            case .unsupportedGuide(let detail):
                return .unsupportedGuide(detail)
            case .unsupportedLanguageOrLocale(let detail):
                return .unsupportedLanguage(detail)
            case .assetsUnavailable:
                return .unavailable(.modelNotReady)
            case .other(let detail):
                return .transport(detail, status: nil)
            }
        }
    }

    /// One piece of a request, as one `SystemLanguageModel.tokenCount(for:)`
    /// overload counts it (26.4 SDK: `Instructions`, `some PromptRepresentable`,
    /// `GenerationSchema`, `[any Tool]`).
    enum RequestPiece: Equatable, Sendable {
        /// The session's instructions.
        case instructions(String)
        /// The text sent, as a `Prompt`.
        case prompt(String)
        /// The output schema, which `streamResponse(to:schema:includeSchemaInPrompt:options:)`
        /// puts in the prompt (`includeSchemaInPrompt: true`).
        case schema(OutputSchema)
        /// The session's tools: each one's name, description and arguments schema.
        case tools
    }

    /// What a request sends, and so what is counted: the instructions and
    /// the prompt always, the schema when there is one, the tools when the
    /// session has any (an empty list is not asked about).
    static func requestPieces(instructions: String, prompt: String, schema: OutputSchema?, hasTools: Bool) -> [RequestPiece] {
        var pieces: [RequestPiece] = [.instructions(instructions), .prompt(prompt)]
        if let schema { pieces.append(.schema(schema)) }
        if hasTools { pieces.append(.tools) }
        return pieces
    }

    /// The JSON a `GenerationSchema` is decoded from for `schema` (26.0 SDK:
    /// `GenerationSchema` is `Decodable`), made from the schema's content
    /// alone: its name is only the root's `title`, so two schemas with the
    /// same name and different content give different JSON.
    ///
    /// What Apple's `JSONEncoder` writes for a `GenerationSchema` (field
    /// notes, and `examples/Summary.json`) is filled in where the schema does
    /// not say: the root's `title`, and for every object with `properties`
    /// an `x-order` listing them in the schema's order (a JSON object's keys
    /// have no order once decoded) and `additionalProperties: false` (the
    /// decoder requires the key). Everything else is passed as written;
    /// whether Apple's decoder takes a keyword is for the device to say, and
    /// a schema it rejects fails the request with `unsupportedGuide`.
    static func generationSchemaJSON(_ schema: OutputSchema) -> String {
        var root = completed(schema.schema)
        if root["title"] == nil { root = prepending("title", .string(schema.name), to: root) }
        return JSONWriter(style: .compact(escapingSlashes: false)).write(root)
    }

    /// `value` with `x-order` and `additionalProperties` added to every
    /// object schema with `properties`, at any depth.
    private static func completed(_ value: OrderedJSON) -> OrderedJSON {
        switch value {
        case .object(let members):
            var result = OrderedJSON.object(members.map { JSONMember($0.key, completed($0.value)) })
            if let properties = value["properties"], case .object(let names) = properties {
                if result["x-order"] == nil { result = result.setting("x-order", to: .array(names.map { .string($0.key) })) }
                if result["additionalProperties"] == nil { result = result.setting("additionalProperties", to: .bool(false)) }
            }
            return result
        case .array(let elements):
            return .array(elements.map(completed))
        default:
            return value
        }
    }

    /// `object` with `key` as its first member.
    private static func prepending(_ key: String, _ value: OrderedJSON, to object: OrderedJSON) -> OrderedJSON {
        guard case .object(let members) = object else { return object }
        return .object([JSONMember(key, value)] + members)
    }
}
