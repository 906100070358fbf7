#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// What the process is writing to, and how it may decorate its output.
package struct Terminal: Sendable {
    /// Standard output is a terminal (not a pipe or a file).
    package let stdoutIsTerminal: Bool
    /// Standard error is a terminal.
    package let stderrIsTerminal: Bool
    /// Colour is allowed: a terminal, `NO_COLOR` unset or empty (no-color.org), `TERM` not `dumb`.
    package let colorAllowed: Bool
    /// Columns of standard error's terminal, for the progress bar.
    package let stderrColumns: Int

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        stderrIsTerminal = isatty(STDERR_FILENO) == 1
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        colorAllowed = stdoutIsTerminal && !noColor && environment["TERM"] != "dumb"
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            stderrColumns = Int(size.ws_col)
        } else {
            stderrColumns = Int(environment["COLUMNS"] ?? "") ?? 80
        }
    }

    /// Standard input is a terminal, i.e. nothing was piped in.
    package static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
}

/// ANSI styles, applied only when the terminal allows colour.
package struct Style: Sendable {
    package let enabled: Bool
    package init(enabled: Bool) { self.enabled = enabled }

    package func green(_ s: String) -> String { wrap(s, "32") }
    package func red(_ s: String) -> String { wrap(s, "31") }
    package func yellow(_ s: String) -> String { wrap(s, "33") }
    package func bold(_ s: String) -> String { wrap(s, "1") }

    private func wrap(_ s: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

/// Unbuffered writes to standard output and standard error.
package enum Output {
    package static func out(_ s: String) { write(STDOUT_FILENO, s) }
    package static func err(_ s: String) { write(STDERR_FILENO, s) }
    package static func out(bytes: UnsafeRawBufferPointer) { writeAll(STDOUT_FILENO, bytes) }

    private static func write(_ fd: Int32, _ s: String) {
        var s = s
        s.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            #if canImport(Glibc)
                let n = Glibc.write(fd, p, left)
            #else
                let n = Darwin.write(fd, p, left)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                return  // a closed pipe (`| head`) is not worth a crash report
            }
            p += n
            left -= n
        }
    }
}
