import Foundation

/// The count of one input, streamed.
package struct StreamCount: Sendable {
    /// Tokens by the tokenizer (the proxy's count when the profile estimates).
    package var proxyTokens = 0
    package var stats = TextStats()
    /// Special-token strings seen (counted as text under `.plainText`).
    package var specialStrings = 0
    /// The first token past the limit, when a limit was given and passed.
    package var firstTokenPast: OverflowPoint?
    package init() {}
}

/// How one input ended.
package enum StreamOutcome: Sendable {
    case counted(StreamCount)
    /// A NUL byte at this offset, and binary input was refused.
    case binary(offset: Int)
    case failed(Error)
}

/// Counts many inputs, big or small, on all cores: inputs are read one after
/// another in chunks cut at safe boundaries, every chunk is counted on a
/// worker thread, and results are put back together in input order on the
/// calling thread. At most `maxPending` chunks are in memory at once.
package final class StreamCounter {
    package let tokenizer: Tokenizer
    package let special: SpecialTokenPolicy
    package let estimate: TokenEstimate?
    package let threads: Int
    package let blockSize: Int
    private let boundary: PieceBoundary?

    /// Inputs are cut where `tokenizer.pieceBoundary(allowedSpecial: special)`
    /// allows, and read whole when it is nil.
    package init(tokenizer: Tokenizer, special: SpecialTokenPolicy, estimate: TokenEstimate?,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, blockSize: Int = 4 << 20) {
        self.tokenizer = tokenizer
        self.special = special
        self.estimate = estimate
        self.threads = max(1, threads)
        self.blockSize = blockSize
        self.boundary = tokenizer.pieceBoundary(allowedSpecial: special)
    }

    /// One input to count.
    package struct Input {
        package let open: () throws -> ByteSource
        /// Tokens of text that fit; the first token past it is located.
        package let limit: Int?
        /// Stop at the first NUL byte and report `.binary`.
        package let refuseBinary: Bool
        /// The size when known in advance (a regular file's).
        package let sizeHint: Int?
        package init(limit: Int?, refuseBinary: Bool, sizeHint: Int? = nil, open: @escaping () throws -> ByteSource) {
            self.open = open
            self.limit = limit
            self.refuseBinary = refuseBinary
            self.sizeHint = sizeHint
        }
    }

    /// Counts `inputs`; `finish(i, outcome)` runs on the calling thread in
    /// input order, `progress(bytes)` as chunks complete. `visit(i, text,
    /// offset)`, if given, sees every chunk of every input in order on the
    /// calling thread (to list its tokens, say); if it throws, the input fails.
    package func run(_ inputs: [Input], progress: (Int) -> Void = { _ in },
                    visit: ((Int, UnsafeBufferPointer<UInt8>, Int) throws -> Void)? = nil,
                    finish: (Int, StreamOutcome) -> Void) {
        let pool = WorkerPool(threads: threads)
        defer { pool.shutdown() }
        let maxPending = max(2, min(2 * threads, 24))
        var pending: [PendingChunk] = []
        var pendingHead = 0
        var states = [InputState](repeating: InputState(), count: inputs.count)

        func commit(_ chunk: PendingChunk) {
            chunk.wait()
            defer { chunk.chunk?.release() }
            let i = chunk.input
            var state = states[i]
            guard !state.done else { return }
            if var outcome = chunk.outcome {
                // Every chunk before the stretch is counted by now: name its line.
                if case .failed(var error as StretchTooLongError) = outcome {
                    error.line = state.count.stats.newlines + 1
                    outcome = .failed(error)
                }
                state.done = true
                states[i] = state
                finish(i, outcome)
                return
            }
            do {
                let result = try chunk.result!.get()
                try visit?(i, chunk.chunk!.text, state.count.stats.bytes)
                if let limit = inputs[i].limit, state.count.firstTokenPast == nil {
                    let locator = OverflowLocator(tokenizer: tokenizer, special: special, estimate: estimate, limit: limit)
                    let after = state.count.proxyTokens + result.tokens
                    let cjk = state.count.stats.cjkCharacters + result.stats.cjkCharacters
                    if locator.measured(after, cjk) > limit {
                        let before = OverflowLocator.Progress(proxyTokens: state.count.proxyTokens, cjkCharacters: state.count.stats.cjkCharacters,
                                                              position: TextPosition.start.advanced(over: state.count.stats))
                        state.count.firstTokenPast = try locator.firstTokenPast(in: chunk.chunk!.text, after: before)
                    }
                }
                state.count.proxyTokens += result.tokens
                state.count.specialStrings += result.specials
                state.count.stats.append(result.stats)
                progress(result.stats.bytes)
                if chunk.isLast {
                    state.done = true
                    states[i] = state
                    finish(i, .counted(state.count))
                    return
                }
            } catch {
                state.done = true
                states[i] = state
                finish(i, .failed(error))
                return
            }
            states[i] = state
        }

        func enqueue(_ chunk: PendingChunk) {
            pending.append(chunk)
            while pendingHead < pending.count && pending[pendingHead].isDone {
                commit(pending[pendingHead]); pendingHead += 1
            }
            while pending.count - pendingHead >= maxPending {
                commit(pending[pendingHead]); pendingHead += 1
            }
            if pendingHead > 64 { pending.removeFirst(pendingHead); pendingHead = 0 }
        }

        for (i, input) in inputs.enumerated() {
            let source: ByteSource
            do { source = try input.open() } catch {
                enqueue(PendingChunk(input: i, outcome: .failed(error)))
                continue
            }
            var reader = ChunkReader(source: source, boundary: boundary, blockSize: blockSize, sizeHint: input.sizeHint)
            while true {
                let chunk: ChunkReader.Chunk
                do {
                    guard let next = try reader.next() else { break }
                    chunk = next
                } catch {
                    enqueue(PendingChunk(input: i, outcome: .failed(error)))
                    break
                }
                if input.refuseBinary, let base = chunk.bytes.baseAddress, let nul = memchr(base, 0, chunk.count) {
                    let offset = reader.offset - chunk.count + (nul - base)
                    chunk.release()
                    reader.close()
                    enqueue(PendingChunk(input: i, outcome: .binary(offset: offset)))
                    break
                }
                let job = PendingChunk(input: i, chunk: chunk)
                let tokenizer = self.tokenizer, special = self.special
                pool.submit {
                    job.complete(Result {
                        let text = chunk.text
                        let (tokens, specials) = try tokenizer.count(utf8: text, allowedSpecial: special)
                        return ChunkResult(tokens: tokens, specials: specials, stats: TextStats(scanning: text))
                    })
                }
                enqueue(job)
                if chunk.isLast { break }
            }
        }
        while pendingHead < pending.count {
            commit(pending[pendingHead]); pendingHead += 1
        }
    }

    private struct InputState {
        var count = StreamCount()
        var done = false
    }
}

struct ChunkResult {
    let tokens: Int
    let specials: Int
    let stats: TextStats
}

/// A chunk on its way through the workers, or a marker that ends an input
/// (could not open it, a read error, binary) in its place in the order.
final class PendingChunk: @unchecked Sendable {
    let input: Int
    let chunk: ChunkReader.Chunk?
    let isLast: Bool
    let outcome: StreamOutcome?
    private(set) var result: Result<ChunkResult, Error>?
    private let condition = NSCondition()
    private var finished: Bool

    init(input: Int, chunk: ChunkReader.Chunk) {
        self.input = input
        self.chunk = chunk
        self.isLast = chunk.isLast
        self.outcome = nil
        self.finished = false
    }

    init(input: Int, outcome: StreamOutcome) {
        self.input = input
        self.chunk = nil
        self.isLast = true
        self.outcome = outcome
        self.finished = true
    }

    func complete(_ result: Result<ChunkResult, Error>) {
        condition.lock()
        self.result = result
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    func wait() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
