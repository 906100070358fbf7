/// What a summary view shows, one case per screen, so the view is a plain
/// `switch` with no logic in it:
///
/// ```swift
/// switch state {
/// case .idle: EmptyView()
/// case .tooShort(let text): Text(text)
/// case .summarising(let partial): SummaryView(partial)   // nil: a spinner
/// case .summarised(let summary): SummaryView(summary)
/// case .failed(let message, let text): FailureView(message, fallback: text)
/// }
/// ```
///
/// `SummaryEngine.states(for:cache:)` produces them as the run goes.
public enum SummaryState: Equatable, Sendable {
    /// Nothing asked yet (the state before the first `states(for:)` value).
    case idle
    /// The text, trimmed, is shorter than the engine's `minimumCharacters`:
    /// it is its own summary, shown as it is; no model is asked.
    case tooShort(String)
    /// A summary is being made. `partial` is the final call's answer so far
    /// (each snapshot replaces the one before: they are cumulative); nil
    /// until the final call's first snapshot, and again if that call is retried.
    case summarising(partial: PartialSummary?)
    /// The summary.
    case summarised(Summary)
    /// No summary: what to tell the user, and the text to show instead.
    case failed(UserMessage, fallback: String)

    /// True for `tooShort`, `summarised` and `failed`: the stream ends here.
    public var isFinal: Bool {
        switch self {
        case .idle, .summarising: return false
        case .tooShort, .summarised, .failed: return true
        }
    }
}

extension SummaryEngine {
    /// The states of summarising `text`, as a SwiftUI view shows them:
    /// `.tooShort` alone for a short text; otherwise `.summarising(nil)`,
    /// then `.summarising(partial)` for each snapshot of the final call (the
    /// newest only, if the view is slower than the model), and one final
    /// `.summarised` or `.failed` (with the text as the fallback). A summary
    /// found in `cache` is `.summarised` at once, with no call; a new one is
    /// stored there.
    ///
    /// Iterate it in the view's `.task(id: text)`: leaving the view (or a
    /// new text) ends the iteration, which cancels the run. Call `prepare()`
    /// when the text field gains focus so the first call starts warm.
    public func states(for text: String, cache: SummaryCache? = nil) -> AsyncStream<SummaryState> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            // The engine's own rule, on the trimmed text: padding is not content.
            if trimmed.unicodeScalars.count < configuration.minimumCharacters {
                continuation.yield(.tooShort(trimmed))
                continuation.finish()
                return
            }
            let key = cache.map { _ in cacheKey(for: text) }
            if let cache, let key, let hit = cache.summary(for: key) {
                continuation.yield(.summarised(hit))
                continuation.finish()
                return
            }
            continuation.yield(.summarising(partial: nil))
            let task = Task {
                do throws(SummariserError) {
                    let run = try await summarise(text) { event in
                        switch event {
                        case .callStarted(_, isFinal: true):
                            continuation.yield(.summarising(partial: nil))
                        case let .snapshot(_, isFinal: true, partial):
                            continuation.yield(.summarising(partial: partial))
                        default:
                            break
                        }
                    }
                    if let cache, let key { cache.store(run.summary, for: key) }
                    continuation.yield(.summarised(run.summary))
                } catch {
                    continuation.yield(.failed(UserMessage(error), fallback: text))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
