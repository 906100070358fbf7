import Foundation

/// Runs blocking work (waiting on a child process, a server starting) on a
/// thread of its own and awaits it.
///
/// Swift concurrency's cooperative pool has one thread per core, two here:
/// two tests blocking inside it stall every other async test of the run,
/// and time-outs measured by those tests then fire for no reason of their own.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}

/// A lock awaited without holding a thread: callers queue in order.
public final class AsyncLock: @unchecked Sendable {
    private let state = NSLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init() {}

    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.lock()
            if held {
                waiting.append(continuation)
                state.unlock()
            } else {
                held = true
                state.unlock()
                continuation.resume()
            }
        }
    }

    public func release() {
        state.lock()
        if waiting.isEmpty {
            held = false
            state.unlock()
        } else {
            let next = waiting.removeFirst()
            state.unlock()
            next.resume()
        }
    }
}
