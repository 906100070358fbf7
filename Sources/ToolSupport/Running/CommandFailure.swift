/// An error that knows which exit status it ends the tool with; the tool
/// prints `tool: description` on standard error.
package protocol ExitCodeReporting: Error, CustomStringConvertible {
    /// The status the tool exits with.
    var exitCode: ExitCode { get }
}

/// A failure a command words itself: a file it cannot read, a value it cannot use.
package struct CommandFailure: ExitCodeReporting {
    /// What went wrong and, where it helps, what to do.
    package let message: String
    package let exitCode: ExitCode

    package init(_ message: String, exitCode: ExitCode = .inputFailed) {
        self.message = message
        self.exitCode = exitCode
    }

    package var description: String { message }
}
