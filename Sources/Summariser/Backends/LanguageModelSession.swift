/// One conversation with a model, used for exactly one request.
///
/// The field notes measured why: a reused session resends every earlier
/// request and answer (first-token time 3–6× slower and growing, and the
/// same answer byte for byte on a retry). The engine makes a fresh session
/// per request; a session's own `prewarm` lets it get ready while the
/// previous request is still running.
public protocol LanguageModelSession: Sendable {
    /// Loads what the first request will need, so it starts sooner. Never
    /// throws: a failed prewarm only means a slower first token.
    func prewarm() async

    /// Streams cumulative snapshots of the answer; the last one has
    /// `isComplete` set. The stream throws `GenerationError` only, and stops
    /// its work when the consumer stops iterating or its task is cancelled.
    func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<ResponseSnapshot, any Error>
}

extension LanguageModelSession {
    /// The whole answer at once (the last snapshot).
    ///
    /// - Throws: the stream's `GenerationError`; `.cancelled` when the task
    ///   is cancelled; `.transport` when the stream ends before the answer is complete.
    public func respond(to request: GenerationRequest) async throws(GenerationError) -> ResponseSnapshot {
        var last = ResponseSnapshot(content: "")
        do {
            for try await snapshot in streamResponse(to: request) { last = snapshot }
        } catch {
            throw GenerationError(error)
        }
        if Task.isCancelled { throw .cancelled }
        guard last.isComplete else { throw .transport("the answer stream ended before the answer was complete", status: nil) }
        return last
    }
}
