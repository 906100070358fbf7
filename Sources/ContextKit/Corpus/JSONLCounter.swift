import Foundation

/// Counts the records of a JSON Lines input on worker threads, batch by
/// batch, and hands the results back in input order on the calling thread.
/// At most `2 × threads` batches are in flight, so memory is bounded by that
/// many batches plus the longest line the reader keeps, whatever the input's size.
package final class JSONLCounter {
    /// One batch's results, in input order.
    package struct BatchOutput: Sendable {
        /// Each record's result.
        package let results: [RecordResult]
        /// The output lines, each ending in a line feed (empty unless asked for).
        package let lines: String
    }

    package let counter: RecordCounter
    package let threads: Int

    /// A counter of records with `counter` on `threads` worker threads.
    package init(counter: RecordCounter, threads: Int) {
        self.counter = counter
        self.threads = max(1, threads)
    }

    /// Reads `reader` to its end; `emit` gets every batch's results in input
    /// order as soon as they and all before them are done. `renderLines`
    /// makes each batch's output lines on the workers too; `file` names the
    /// input in error lines.
    ///
    /// - Throws: the reader's error (a read that fails), after every batch
    ///   read before it has been emitted.
    package func run(_ reader: inout JSONLBatchReader, renderLines: Bool, file: String? = nil, emit: (BatchOutput) -> Void) throws {
        let pool = WorkerPool(threads: threads)
        defer { pool.shutdown() }
        let maxPending = 2 * threads
        var pending: [PendingBatch] = []
        var head = 0
        let counter = self.counter, maxLineBytes = reader.maxLineBytes
        func commitReady(keeping limit: Int) {
            while head < pending.count && (pending.count - head > limit || pending[head].isDone) {
                emit(pending[head].wait())
                head += 1
            }
            if head > 64 { pending.removeFirst(head); head = 0 }
        }
        defer { commitReady(keeping: 0) }
        while let batch = try reader.next() {
            let job = PendingBatch()
            pool.submit {
                let results = batch.bytes.withUnsafeBufferPointer { bytes in
                    batch.lines.map { counter.count($0, in: bytes, maxLineBytes: maxLineBytes) }
                }
                var lines = ""
                if renderLines {
                    for result in results {
                        lines += result.jsonLine(file: file)
                        lines += "\n"
                    }
                }
                job.complete(BatchOutput(results: results, lines: lines))
            }
            pending.append(job)
            commitReady(keeping: maxPending - 1)
        }
    }
}

/// A batch on its way through the workers.
private final class PendingBatch: @unchecked Sendable {
    // @unchecked Sendable: `output` is read and written only under `condition`'s lock.
    private let condition = NSCondition()
    private var output: JSONLCounter.BatchOutput?

    func complete(_ output: JSONLCounter.BatchOutput) {
        condition.lock()
        self.output = output
        condition.broadcast()
        condition.unlock()
    }

    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return output != nil
    }

    func wait() -> JSONLCounter.BatchOutput {
        condition.lock()
        defer { condition.unlock() }
        while output == nil { condition.wait() }
        return output!
    }
}
