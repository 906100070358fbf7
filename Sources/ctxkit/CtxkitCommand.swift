import ContextKit
import Foundation
import ToolSupport

/// ctxkit: one entry point for the measurements and the summariser. Each
/// subcommand lives in its own file as `enum XCommand { static func run(_ arguments: [String]) async -> ExitCode }`.
enum CtxkitCommand {
    static let subcommands: [(name: String, summary: String, run: @Sendable ([String]) async -> ExitCode)] = [
        ("plan", "Cut a text to fit a model and plan the map-reduce calls that summarise it", PlanCommand.run),
        ("summarise", "Summarise a text of any length into a headline and three points", SummariseCommand.run),
        ("density", "Characters and bytes per token and token tax per language and tokenizer", DensityCommand.run),
        ("transcript", "Tokens per request: one reused session vs a fresh session per request", TranscriptCommand.run),
        ("probe", "Measure what a server charges (--url) or where a text crosses the window (--where)", ProbeCommand.run),
        ("report", "Regenerate reports/ (density, transcript growth, schema overhead)", ReportCommand.run)
    ]

    static var overview: String {
        var text = "usage: ctxkit <command> [options]\n\nCommands:\n"
        for command in subcommands { text += "  \(command.name.padding(toLength: 12, withPad: " ", startingAt: 0))\(command.summary)\n" }
        text += "\nRun 'ctxkit <command> --help' for a command's options.\n"
        return text
    }

    /// Runs the subcommand the first argument names; returns the exit status.
    static func main(_ arguments: [String]) async -> ExitCode {
        guard let first = arguments.first else {
            Output.out(overview)
            return .usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            Output.out(overview)
            return .ok
        }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            Output.err("ctxkit: unknown command '\(first)'; commands: \(subcommands.map(\.name).joined(separator: ", "))\nTry 'ctxkit --help'.\n")
            return .usage
        }
        return await command.run(Array(arguments.dropFirst()))
    }
}

extension ProfileError: ExitCodeReporting {
    /// A profile name that does not exist, or one that needs --window, is the command line's mistake (2);
    /// a profiles file that cannot be read is the input's (1).
    package var exitCode: ExitCode {
        switch self {
        case .unknownProfile, .unknownWindow: return .usage
        default: return .inputFailed
        }
    }
}
