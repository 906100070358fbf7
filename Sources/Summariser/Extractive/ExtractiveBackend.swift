/// The embedded default backend: no model, no network, no downloads. Each
/// answer is an `ExtractiveSummariser` summary of the prompt, so
/// `ctxkit summarise FILE` works on a fresh machine and gives the same
/// result every time.
///
/// It stands in for a model with a window of `contextSize` tokens (4,096 by
/// default, Apple's on-device model's), so the engine plans, maps and reduces
/// exactly as it would for that model. Instructions are ignored; an answer
/// with a schema is the summary's JSON, without one its text. The answer is
/// streamed as cumulative snapshots of about 50 characters, the size the
/// field notes saw from Apple's model, so streaming consumers behave alike.
public struct ExtractiveBackend: LanguageModelBackend {
    /// The summariser every answer comes from.
    public var summariser: ExtractiveSummariser
    /// The window, in tokens, the backend reports as its `contextSize()`.
    public var window: Int
    /// The frame the engine sends each text in, stripped before summarising
    /// (a prompt without it is summarised as it is).
    public var framing: SourceFraming
    /// The summariser's revision its answers come from, part of the summary
    /// cache's key (`SummaryEngine.cacheKey(for:salt:)`).
    public var revision: Int { ExtractiveSummariser.revision }

    /// A backend that stands in for a model with a `contextSize`-token window.
    public init(summariser: ExtractiveSummariser = .init(), contextSize: Int = 4096, framing: SourceFraming = .standard) {
        self.summariser = summariser
        self.window = contextSize
        self.framing = framing
    }

    /// `extractive`.
    public var name: String { "extractive" }
    /// True: its answers are the input's own sentences, so they are never copies.
    public var copiesByDesign: Bool { true }
    /// Always `.available`: nothing to load, nothing to reach.
    public func availability() async -> BackendAvailability { .available }
    /// `window`.
    public func contextSize() async -> Int? { window }

    /// A session that ignores `instructions` and summarises each prompt.
    public func makeSession(instructions: String) -> any LanguageModelSession {
        Session(summariser: summariser, framing: framing)
    }

    struct Session: LanguageModelSession {
        let summariser: ExtractiveSummariser
        let framing: SourceFraming
        static let snapshotCharacters = 50

        func prewarm() async {}

        func streamResponse(to request: GenerationRequest) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
            let summariser = self.summariser, text = framing.unframe(request.prompt)
            return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
                let task = Task {
                    let summary = summariser.summarise(text)
                    let answer = request.schema == nil ? summary.text : summary.json
                    var end = answer.startIndex
                    while end < answer.endIndex {
                        if Task.isCancelled { continuation.finish(throwing: GenerationError.cancelled); return }
                        end = answer.index(end, offsetBy: Self.snapshotCharacters, limitedBy: answer.endIndex) ?? answer.endIndex
                        let done = end == answer.endIndex
                        continuation.yield(ResponseSnapshot(content: String(answer[..<end]), isComplete: done))
                    }
                    if answer.isEmpty { continuation.yield(ResponseSnapshot(content: "", isComplete: true)) }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}
