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

/// Counts many inputs, big or small, on all cores: large inputs are read one
/// after another in chunks cut at safe boundaries and every chunk is counted
/// on a worker thread; small ones are read and counted by the workers, several
/// to a job (`smallInput`). Work runs on the calling thread when `threads` is
/// 1. Results are put back together in input order on the calling thread. At
/// most `maxPending` jobs are in memory at once.
package final class StreamCounter {
    package let tokenizer: Tokenizer
    package let special: SpecialTokenPolicy
    package let estimate: TokenEstimate?
    package let threads: Int
    package let blockSize: Int
    private let boundary: PieceBoundary?

    /// Inputs are cut where `tokenizer.pieceBoundary(allowedSpecial: special)`
    /// allows, and read whole when it is nil.
    package init(
        tokenizer: Tokenizer, special: SpecialTokenPolicy, estimate: TokenEstimate?,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount, blockSize: Int = ChunkReader.defaultBlockSize
    ) {
        self.tokenizer = tokenizer
        self.special = special
        self.estimate = estimate
        self.threads = max(1, threads)
        self.blockSize = blockSize
        self.boundary = tokenizer.pieceBoundary(allowedSpecial: special)
    }

    /// One input to count.
    package struct Input {
        /// Opens the input; for a small input (`sizeHint` at most
        /// `smallInput`) it is called on a worker thread.
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

    /// Inputs known to be at most this many bytes are read by the workers,
    /// several to a job (`batchBytes`, `batchInputs`), instead of each read
    /// on the calling thread and handed over on its own. On a folder of
    /// 10,000 files of 1 KB on 2 cores, one job per file spent more time
    /// waking threads than counting (`tokcount -j 2` 267 ms against 49 ms for
    /// the one file they were cut from), and opening and reading them is
    /// about as much work as counting them (42 ms in C, against 37 ms), so
    /// it has to be spread across the workers too.
    static let smallInput = 64 << 10
    /// A job of small inputs ends at this many bytes or `batchInputs` inputs.
    static let batchBytes = 256 << 10
    static let batchInputs = 64

    /// Counts `inputs`; `finish(i, outcome)` runs on the calling thread in
    /// input order, `progress(bytes)` as chunks complete. `visit(i, text,
    /// offset)`, if given, sees every chunk of every input in order on the
    /// calling thread (to list its tokens, say); if it throws, the input fails.
    package func run(
        _ inputs: [Input], progress: (Int) -> Void = { _ in },
        visit: ((Int, UnsafeBufferPointer<UInt8>, Int) throws -> Void)? = nil,
        finish: (Int, StreamOutcome) -> Void
    ) {
        // One thread counts on the calling thread: a worker would cost two
        // context switches per input for nothing (on one CPU, a folder of
        // 10,000 small files spent a quarter of its time switching).
        let pool = threads > 1 ? WorkerPool(threads: threads) : nil
        defer { pool?.shutdown() }
        let maxPending = max(2, min(2 * threads, 24))
        var pending: [PendingWork] = []
        var pendingHead = 0
        var states = [InputState](repeating: InputState(), count: inputs.count)

        func commit(_ piece: PendingWork.Piece) {
            defer { piece.chunk?.release() }
            let i = piece.input
            var state = states[i]
            guard !state.done else { return }
            if var outcome = piece.outcome {
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
                // Before the result is used: zeros read in place of a truncated
                // file's lost pages would be a NUL, or a wrong count.
                try piece.chunk!.checkUnchanged()
                let result = try piece.result!.get()
                if let nul = result.firstRefusedNUL {
                    state.done = true
                    states[i] = state
                    finish(i, .binary(offset: state.count.stats.bytes + nul))
                    return
                }
                try visit?(i, piece.chunk!.text, state.count.stats.bytes)
                if let limit = inputs[i].limit, state.count.firstTokenPast == nil {
                    let locator = OverflowLocator(tokenizer: tokenizer, special: special, estimate: estimate, limit: limit)
                    let after = state.count.proxyTokens + result.tokens
                    let cjk = state.count.stats.cjkCharacters + result.stats.cjkCharacters
                    if locator.measured(after, cjk) > limit {
                        let before = OverflowLocator.Progress(
                            proxyTokens: state.count.proxyTokens, cjkCharacters: state.count.stats.cjkCharacters,
                            position: TextPosition.start.advanced(over: state.count.stats))
                        state.count.firstTokenPast = try locator.firstTokenPast(in: piece.chunk!.text, after: before)
                    }
                }
                state.count.proxyTokens += result.tokens
                state.count.specialStrings += result.specials
                state.count.stats.append(result.stats)
                progress(result.stats.bytes)
                if piece.isLast {
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

        func commit(_ work: PendingWork) {
            for piece in work.waitForPieces() { commit(piece) }
        }

        func enqueue(_ work: PendingWork) {
            pending.append(work)
            while pendingHead < pending.count && pending[pendingHead].isDone {
                commit(pending[pendingHead]); pendingHead += 1
            }
            while pending.count - pendingHead >= maxPending {
                commit(pending[pendingHead]); pendingHead += 1
            }
            if pendingHead > 64 { pending.removeFirst(pendingHead); pendingHead = 0 }
        }

        func dispatch(_ job: @escaping @Sendable () -> Void) {
            if let pool { pool.submit(job) } else { job() }
        }

        let tokenizer = self.tokenizer, special = self.special, boundary = self.boundary, blockSize = self.blockSize
        var batch: [(Int, Input)] = []
        var batchBytes = 0
        func submitBatch() {
            guard !batch.isEmpty else { return }
            let work = PendingWork()
            nonisolated(unsafe) let inputs = batch
            dispatch {
                var pieces: [PendingWork.Piece] = []
                for (i, input) in inputs {
                    Self.read(input, i, boundary: boundary, blockSize: blockSize, stopped: { _ in false }) { i, chunk in
                        pieces.append(PendingWork.Piece(input: i, chunk: chunk, result: Self.count(chunk, tokenizer, special, refuseBinary: input.refuseBinary)))
                    } ended: { i, outcome in
                        pieces.append(PendingWork.Piece(input: i, outcome: outcome))
                    }
                }
                work.complete(pieces)
            }
            enqueue(work)
            batch = []
            batchBytes = 0
        }

        for (i, input) in inputs.enumerated() {
            if let size = input.sizeHint, size <= Self.smallInput {
                batch.append((i, input))
                batchBytes += size
                if batchBytes >= Self.batchBytes || batch.count >= Self.batchInputs { submitBatch() }
                continue
            }
            submitBatch()
            let refuseBinary = input.refuseBinary
            Self.read(input, i, boundary: boundary, blockSize: blockSize, stopped: { states[$0].done }) { i, chunk in
                let work = PendingWork()
                dispatch { work.complete([PendingWork.Piece(input: i, chunk: chunk, result: Self.count(chunk, tokenizer, special, refuseBinary: refuseBinary))]) }
                enqueue(work)
            } ended: { i, outcome in
                enqueue(PendingWork(done: [PendingWork.Piece(input: i, outcome: outcome)]))
            }
        }
        submitBatch()
        while pendingHead < pending.count {
            commit(pending[pendingHead]); pendingHead += 1
        }
    }

    /// Reads `input` in chunks: `chunkRead` gets each chunk in order, or
    /// `ended` the outcome that ends the input early (it could not be opened
    /// or read). Reading stops early, too, once `stopped(i)` says the input
    /// has ended (a chunk counted already held a refused NUL).
    ///
    /// The NUL check is not made here but by whoever counts the chunk, as
    /// part of its `TextStats` pass: here, on the calling thread, `memchr`
    /// over a mapped chunk took its page faults too, one thread's work that
    /// the workers waited for (`tokcount -j 2` on 100 MB spent about 37 ms
    /// there).
    private static func read(
        _ input: Input, _ i: Int, boundary: PieceBoundary?, blockSize: Int, stopped: (Int) -> Bool,
        chunkRead: (Int, ChunkReader.Chunk) -> Void, ended: (Int, StreamOutcome) -> Void
    ) {
        let source: ByteSource
        do { source = try input.open() } catch {
            ended(i, .failed(error))
            return
        }
        var reader = ChunkReader(source: source, boundary: boundary, blockSize: blockSize, sizeHint: input.sizeHint)
        while true {
            let chunk: ChunkReader.Chunk
            do {
                guard let next = try reader.next() else { return }
                chunk = next
            } catch {
                ended(i, .failed(error))
                return
            }
            chunkRead(i, chunk)
            if chunk.isLast || stopped(i) {
                reader.close()
                return
            }
        }
    }

    /// A chunk's tokens, special-token strings and statistics; when binary
    /// is refused and the chunk holds a NUL, only where the first one is.
    private static func count(_ chunk: ChunkReader.Chunk, _ tokenizer: Tokenizer, _ special: SpecialTokenPolicy, refuseBinary: Bool) -> Result<ChunkResult, Error> {
        Result {
            let text = chunk.text
            let stats = TextStats(scanning: text)
            if refuseBinary, let nul = stats.firstNUL {
                return ChunkResult(tokens: 0, specials: 0, stats: stats, firstRefusedNUL: nul)
            }
            let (tokens, specials) = try tokenizer.count(utf8: text, allowedSpecial: special)
            return ChunkResult(tokens: tokens, specials: specials, stats: stats, firstRefusedNUL: nil)
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
    /// The chunk's first NUL, when binary is refused: the input ends there.
    let firstRefusedNUL: Int?
}

/// Work on its way through the workers: one chunk of a large input, several
/// small inputs read and counted whole, or a marker that ends an input (could
/// not open it, a read error, binary) in its place in the order.
final class PendingWork: @unchecked Sendable {
    // @unchecked Sendable: `pieces` and `finished` are read and written only under `condition`'s lock.
    /// One chunk counted, or the outcome that ends an input.
    struct Piece {
        let input: Int
        let chunk: ChunkReader.Chunk?
        let isLast: Bool
        let result: Result<ChunkResult, Error>?
        let outcome: StreamOutcome?

        init(input: Int, chunk: ChunkReader.Chunk, result: Result<ChunkResult, Error>) {
            self.input = input
            self.chunk = chunk
            self.isLast = chunk.isLast
            self.result = result
            self.outcome = nil
        }

        init(input: Int, outcome: StreamOutcome) {
            self.input = input
            self.chunk = nil
            self.isLast = true
            self.result = nil
            self.outcome = outcome
        }
    }

    private var pieces: [Piece] = []
    private let condition = NSCondition()
    private var finished: Bool

    /// Work that a worker will `complete`.
    init() { finished = false }

    /// Work that is already done.
    init(done pieces: [Piece]) {
        self.pieces = pieces
        finished = true
    }

    func complete(_ pieces: [Piece]) {
        condition.lock()
        self.pieces = pieces
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// The pieces, in input order, once the work is done.
    func waitForPieces() -> [Piece] {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
        return pieces
    }
}
