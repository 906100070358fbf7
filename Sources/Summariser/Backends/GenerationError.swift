import ContextKit

/// Every way a request to a backend can fail, one case per failure the field
/// notes tell apart, so the engine and apps can react to each: replan on an
/// overflow, show a refusal's explanation, offer a retry on transport.
/// Backends throw nothing else.
public enum GenerationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The backend cannot answer at all (see the reason for what to do).
    case unavailable(BackendAvailability.Reason)
    /// The request did not fit the window; the counts are the backend's, when it gave them.
    case contextOverflow(ContextOverflow)
    /// The model's safety rules stopped the request or the answer.
    case guardrailViolation(String)
    /// The model declined, and said why.
    case refusal(explanation: String)
    /// The answer could not be read as the requested output (bad JSON, cut off, empty).
    case decodingFailure(String)
    /// The backend cannot enforce the output schema it was given.
    case unsupportedGuide(String)
    /// The model does not handle the text's language or the device's locale.
    case unsupportedLanguage(String)
    /// The request was cancelled before it finished.
    case cancelled
    /// Not a generation error: the request never got a proper answer (network,
    /// time-out, server error after retries). `status` is the HTTP status, if any.
    case transport(String, status: Int?)

    /// A message for the user that says what happened.
    public var description: String {
        switch self {
        case .unavailable(let reason):
            return "the model is unavailable: \(reason)"
        case .contextOverflow(let overflow):
            let counts = overflow.promptTokens.map { "\($0) prompt tokens" } ?? "an unknown number of tokens"
            let window = overflow.contextWindow.map { " for a window of \($0)" } ?? ""
            return "the request did not fit the context window (\(counts)\(window)); plan smaller chunks"
        case .guardrailViolation(let detail):
            return "the model's safety guardrails stopped the request: \(detail)"
        case .refusal(let explanation):
            return "the model declined: \(explanation)"
        case .decodingFailure(let detail):
            return "the answer could not be read as a summary: \(detail)"
        case .unsupportedGuide(let detail):
            return "the backend cannot enforce the output schema: \(detail)"
        case .unsupportedLanguage(let detail):
            return "the model does not support this language or locale: \(detail)"
        case .cancelled:
            return "cancelled"
        case let .transport(detail, status):
            return status.map { "the server answered HTTP \($0): \(detail)" } ?? detail
        }
    }

    /// Whatever a backend or its stream threw, as a `GenerationError`
    /// (cancellation by Swift concurrency becomes `.cancelled`).
    public init(_ error: any Error) {
        if let error = error as? GenerationError {
            self = error
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .transport("\(error)", status: nil)
        }
    }
}
