import Foundation

/// The session `SummaryEngine.prepare()` made ahead of the next request,
/// shared by every copy of the engine (the engine is a value; this is the
/// one piece of it that changes).
///
/// It is handed out once: `take` removes it, so a session that has answered
/// can never be handed out again (a used session carries its transcript).
final class PreparedSession: @unchecked Sendable {
    // NSLock, not Synchronization's Mutex: the package still supports iOS 16 and macOS 13.
    private let lock = NSLock()
    private var prepared: (instructions: String, session: any LanguageModelSession)?

    /// Makes a session with `make` and prewarms it, unless one is already waiting.
    /// Returns true when it made one.
    func prepare(instructions: String, make: () -> any LanguageModelSession) -> Bool {
        let session: (any LanguageModelSession)? = lock.withLock {
            guard prepared == nil else { return nil }
            let session = make()
            prepared = (instructions, session)
            return session
        }
        guard let session else { return false }
        Task { await session.prewarm() }
        return true
    }

    /// The waiting session if it has `instructions`, removed so nobody else gets it.
    func take(instructions: String) -> (any LanguageModelSession)? {
        lock.withLock {
            guard let prepared, prepared.instructions == instructions else { return nil }
            self.prepared = nil
            return prepared.session
        }
    }

    /// True while a prepared session waits for a request.
    var isWaiting: Bool { lock.withLock { prepared != nil } }
}
