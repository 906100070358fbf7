import ContextKit

/// Why a summarisation run stopped without a summary.
public enum SummariserError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The backend cannot answer now.
    case unavailable(BackendAvailability.Reason)
    /// A call failed; `call` is its index in the run's metrics.
    case generation(GenerationError, call: Int)
    /// The text or a level's summaries could not be planned.
    case planning(PlanError)
    /// The backend kept reporting overflows after the allowed number of replans.
    case overflowPersists(GenerationError, replans: Int)
    /// Combining summaries stopped making them fewer, or took too many levels.
    case reduceDoesNotConverge(summaries: Int, level: Int)
    /// The run's task was cancelled; no call was started after that.
    case cancelled

    /// A message for the user that says what to do.
    public var description: String {
        switch self {
        case .unavailable(let reason):
            return "the model is unavailable: \(reason)"
        case let .generation(error, call):
            return "call \(call + 1) failed: \(error)"
        case .planning(let error):
            return "cannot plan the text: \(error)"
        case let .overflowPersists(error, replans):
            return
                "\(error) — still after \(replans) replans with smaller chunks; the backend's window is smaller, or its tokenizer counts far more, than the profile says: pick a profile that matches the model, or lower the response reserve"
        case let .reduceDoesNotConverge(summaries, level):
            return
                "the \(summaries) summaries at level \(level) do not combine into fewer; the window is too small for the summaries it must hold (lower the response reserve or pick a larger window)"
        case .cancelled:
            return "cancelled"
        }
    }
}
