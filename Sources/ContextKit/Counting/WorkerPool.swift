import Foundation

/// A fixed number of threads taking jobs in order from one queue.
final class WorkerPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false

    init(threads: Int) {
        for _ in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func shutdown() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count { condition.unlock(); return }
            let job = jobs[head]
            head += 1
            if head > 256 { jobs.removeFirst(head); head = 0 }
            condition.unlock()
            job()
        }
    }
}
