/// The exit statuses every ContextKit tool uses, so scripts can tell outcomes apart.
///
/// A struct rather than an enum so a tool can name statuses of its own
/// (schema-cost's 10–15, one per kind of bad schema) beside the shared ones.
package struct ExitCode: RawRepresentable, Equatable, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// Everything asked for was done.
    package static let ok = ExitCode(rawValue: 0)
    /// Some input could not be processed; the others were, and were shown.
    package static let inputFailed = ExitCode(rawValue: 1)
    /// The command line was wrong; nothing was done.
    package static let usage = ExitCode(rawValue: 2)
    /// Under `--check`: some input does not fit its window.
    package static let overflow = ExitCode(rawValue: 3)
    /// The server named with `--url` could not be reached; nothing was planned, sent or measured.
    package static let serverUnreachable = ExitCode(rawValue: 5)
    /// Ctrl-C stopped the work (128 + SIGINT, as a shell reports it).
    package static let interrupted = ExitCode(rawValue: 130)
}
