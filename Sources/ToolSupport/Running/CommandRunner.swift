/// How every ContextKit command runs: parse the command line, print `--help`
/// or `--version` if asked, else run the body; whatever it throws becomes a
/// message on standard error and an exit status, the same way in every tool.
package enum CommandRunner {
    /// Parses `arguments` with `spec` and runs `body` with the options.
    /// `otherErrors` is the status for an error that carries none (tokcount's is
    /// `usage`: every error it can meet before counting is the command line's).
    package static func run<Options>(
        _ spec: CommandSpec<Options>, _ arguments: [String], otherErrors: ExitCode = .inputFailed,
        _ body: (Options) async throws -> ExitCode
    ) async -> ExitCode {
        do {
            switch try spec.parse(arguments) {
            case .information(let text):
                Output.out(text)
                return .ok
            case .run(let options):
                return try await body(options)
            }
        } catch {
            return exitCode(reporting: error, tool: spec.name, otherErrors: otherErrors)
        }
    }

    /// The one mapping from an error to its message and status: a usage error
    /// prints itself and a pointer to `--help` (2); an error that knows its
    /// status prints `tool: error` and ends with it; any other prints
    /// `tool: error` and ends with `otherErrors`.
    package static func exitCode(reporting error: any Error, tool: String, otherErrors: ExitCode) -> ExitCode {
        switch error {
        case let usage as UsageError:
            Output.err(usage.description + "\n")
            return .usage
        case let failure as any ExitCodeReporting:
            Output.err("\(tool): \(failure)\n")
            return failure.exitCode
        default:
            Output.err("\(tool): \(error)\n")
            return otherErrors
        }
    }
}
