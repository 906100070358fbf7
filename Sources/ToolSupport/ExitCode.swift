/// The exit statuses every ContextKit tool uses, so scripts can tell outcomes apart.
package enum ExitCode: Int32, Sendable {
    /// Everything asked for was done.
    case ok = 0
    /// Some input could not be processed; the others were, and were shown.
    case inputFailed = 1
    /// The command line was wrong; nothing was done.
    case usage = 2
    /// Under `--check`: some input does not fit its window.
    case overflow = 3
}
