import Foundation
import Render

/// A one-line progress bar on standard error for work that takes a while.
///
/// It stays silent for the first half second, so quick runs print nothing
/// extra, and it is never shown unless standard error is a terminal (the
/// caller also keeps it off for machine-readable output). Workers report
/// progress with `advance`, which is cheap and thread-safe; a background
/// thread redraws ten times a second.
package final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var total: Int
    private var label = ""
    private var finished = false
    private var drawn = false
    private let columns: Int
    private let started = Date()
    private let delay: TimeInterval
    private var thread: Thread?

    /// - Parameters:
    ///   - total: units of work expected (bytes, say); may grow with `expect`.
    ///   - enabled: false turns every call into a no-op.
    package init(total: Int, enabled: Bool, columns: Int, delay: TimeInterval = 0.5) {
        self.total = total
        self.columns = max(columns, 20)
        self.delay = delay
        guard enabled else { finished = true; return }
        let thread = Thread { [weak self] in self?.run() }
        thread.stackSize = 1 << 16
        self.thread = thread
        thread.start()
    }

    /// More work was found (a pipe's bytes are not known in advance).
    package func expect(_ more: Int) { lock.withLock { total += more } }

    package func advance(_ units: Int) { lock.withLock { done += units } }

    package func setLabel(_ text: String) { lock.withLock { label = text } }

    /// Stops the bar and erases it, so the real output starts on a clean line.
    package func finish() {
        lock.lock()
        let wasDrawn = drawn
        finished = true
        lock.unlock()
        if wasDrawn { Output.err("\r\u{1B}[2K") }
    }

    private func run() {
        while true {
            Thread.sleep(forTimeInterval: 0.1)
            lock.lock()
            if finished { lock.unlock(); return }
            guard Date().timeIntervalSince(started) >= delay else { lock.unlock(); continue }
            let line = render(done: done, total: total, label: label)
            drawn = true
            lock.unlock()
            Output.err("\r\u{1B}[2K" + line)
        }
    }

    private func render(done: Int, total: Int, label: String) -> String {
        let seconds = Date().timeIntervalSince(started)
        let rate = " \(NumberFormat.bytes(seconds > 0 ? Int(Double(done) / seconds) : 0))/s"
        var line: String
        if total > 0 {
            let fraction = min(Double(done) / Double(total), 1)
            let tail = " \(NumberFormat.percent(Int(fraction * 1000), of: 1000)) \(NumberFormat.bytes(done)) of \(NumberFormat.bytes(total)),\(rate)"
            let width = max(10, min(40, columns - tail.count - 4))
            let filled = Int(fraction * Double(width))
            line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]" + tail
        } else {
            line = "[counting] \(NumberFormat.bytes(done)),\(rate)"  // a pipe: the size is not known
        }
        let room = columns - line.count - 2
        if room > 5 && !label.isEmpty {
            line += " " + (label.count > room ? "…" + label.suffix(room - 1) : label)
        }
        return line
    }
}
