import Foundation
import ToolSupport

// ctxkit: one entry point for the measurements and the summariser.
// Each subcommand lives in its own file as `enum XCommand { static func run(_ arguments: [String]) -> Int32 }`.

let subcommands: [(name: String, summary: String, run: ([String]) -> Int32)] = [
    ("plan", "Cut a text to fit a model and plan the map-reduce calls that summarise it", PlanCommand.run),
    ("summarise", "Summarise a text of any length into a headline and three points", SummariseCommand.run),
    ("density", "Characters and bytes per token and token tax per language and tokenizer", DensityCommand.run),
    ("transcript", "Tokens per request: one reused session vs a fresh session per request", TranscriptCommand.run),
    ("probe", "Measure what a server charges (--url) or where a text crosses the window (--where)", ProbeCommand.run),
    ("report", "Regenerate reports/ (density, transcript growth, schema overhead)", ReportCommand.run),
]

let arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func printOverview() {
    var text = "usage: ctxkit <command> [options]\n\nCommands:\n"
    for command in subcommands { text += "  \(command.name.padding(toLength: 12, withPad: " ", startingAt: 0))\(command.summary)\n" }
    text += "\nRun 'ctxkit <command> --help' for a command's options.\n"
    print(text, terminator: "")
}
guard let first = arguments.first else {
    printOverview()
    exit(2)
}
if first == "--help" || first == "-h" || first == "help" {
    printOverview()
    exit(0)
}
guard let command = subcommands.first(where: { $0.name == first }) else {
    FileHandle.standardError.write(Data("ctxkit: unknown command '\(first)'; commands: \(subcommands.map(\.name).joined(separator: ", "))\nTry 'ctxkit --help'.\n".utf8))
    exit(2)
}
exit(command.run(Array(arguments.dropFirst())))
