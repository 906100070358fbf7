import Render

/// What a command line asks for: information to print, or a run with these options.
package enum CommandLineRequest<Options> {
    /// `--help` or `--version` was given: print this and exit 0 without doing anything else.
    case information(String)
    /// Run the command with these options.
    case run(Options)
}

/// A command's usage and help text, and the parser that fills its options.
///
/// Hand-written so the three tools share one behaviour with no dependency:
/// `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped short flags
/// (`-abc`), `--` to end options, and `-` as a positional (standard input).
package struct CommandSpec<Options: CommandOptions> {
    /// The command as the user types it (`tokcount`, `ctxkit plan`); messages start with it.
    package let name: String
    /// Lines like `tokcount [OPTIONS] [FILE|DIR|-]...`, without the tool's name.
    package let usage: [String]
    /// One paragraph on what the tool does.
    package let summary: String
    /// Extra sections after the options (`Exit status:` and the like), printed as they are.
    package let epilog: String

    /// An option of the command line, or one of the two every command has.
    private enum Entry {
        case declared(Int)
        case help
        case version
    }

    /// The options' names, placeholders and help, in help order, with `--help` and `--version` last.
    private let entries: [(short: Character?, long: String, value: String?, choices: [String]?, help: String, entry: Entry)]

    package init(name: String, usage: [String], summary: String, epilog: String = "") {
        self.name = name
        self.usage = usage
        self.summary = summary
        self.epilog = epilog
        entries =
            Options.declarations.enumerated().map { index, option in
                (option.short, option.long, option.value, option.choices, option.help, .declared(index))
            } + [
                ("h", "help", nil, nil, "Show this help and exit.", .help),
                (nil, "version", nil, nil, "Show the version and exit.", .version)
            ]
    }

    /// Reads `arguments` (without the tool's name). Errors in the syntax come
    /// first, then `--help`/`--version`, then values that are not what their
    /// option wants; each is a `UsageError`.
    package func parse(_ arguments: [String]) throws -> CommandLineRequest<Options> {
        let declarations = Options.declarations
        var given = [[String]](repeating: [], count: declarations.count)
        var help = false, version = false
        var options = Options()
        var i = 0
        func takeValue(for placeholder: String?, spelled: String, inline: String?) throws -> String {
            if let inline { return inline }
            i += 1
            guard i < arguments.count else { throw UsageError(tool: name, "\(spelled) needs a value (\(placeholder ?? "VALUE"))") }
            return arguments[i]
        }
        func record(_ index: Int, spelled: String, value: String?) throws {
            switch entries[index].entry {
            case .help: help = true
            case .version: version = true
            case .declared(let declared):
                if let value, let choices = entries[index].choices, !choices.contains(value) {
                    throw UsageError(tool: name, "\(spelled) must be one of \(choices.joined(separator: ", ")), not '\(value)'")
                }
                given[declared].append(value ?? "")
            }
        }
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                options.positionals.append(arg)
            } else if arg == "--" {
                onlyPositionals = true
            } else if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let (key, inline) = body.firstIndex(of: "=").map { (String(body[..<$0]), String(body[body.index(after: $0)...])) } ?? (String(body), nil)
                guard let index = entries.firstIndex(where: { $0.long == key }) else {
                    throw UsageError(tool: name, "unknown option '--\(key)'" + suggestion(for: key))
                }
                if let placeholder = entries[index].value {
                    try record(index, spelled: "--\(key)", value: try takeValue(for: placeholder, spelled: "--\(key)", inline: inline))
                } else {
                    guard inline == nil else { throw UsageError(tool: name, "--\(key) takes no value") }
                    try record(index, spelled: "--\(key)", value: nil)
                }
            } else {
                var letters = Substring(arg.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let index = entries.firstIndex(where: { $0.short == letter }) else {
                        throw UsageError(tool: name, "unknown option '-\(letter)'" + (arg.count > 2 ? " in '\(arg)'" : ""))
                    }
                    guard let placeholder = entries[index].value else {
                        try record(index, spelled: "-\(letter)", value: nil)
                        continue
                    }
                    let inline = letters.isEmpty ? nil : String(letters.hasPrefix("=") ? letters.dropFirst() : letters)
                    try record(index, spelled: "-\(letter)", value: try takeValue(for: placeholder, spelled: "-\(letter)", inline: inline))
                    break
                }
            }
            i += 1
        }
        if help { return .information(helpText()) }
        if version { return .information("\(name.split(separator: " ").first ?? "") \(ToolVersion.string) (ContextKit)\n") }
        for (declaration, texts) in zip(declarations, given) where !texts.isEmpty {
            if let problem = declaration.store(&options, texts) {
                throw UsageError(tool: name, "--\(declaration.long) wants \(problem.expected), not '\(problem.text)'")
            }
        }
        return .run(options)
    }

    /// ` (did you mean '--encoding'?)` for a near miss, else nothing.
    private func suggestion(for key: String) -> String {
        let close = entries.map(\.long).filter { $0.hasPrefix(key) || EditDistance.between($0, key) <= 2 }
        guard let best = close.first else { return "" }
        return " (did you mean '--\(best)'?)"
    }

    /// The `--help` text: usage, summary, options with wrapped help, epilog.
    package func helpText(width: Int = 80) -> String {
        var out = "Usage: " + usage.map { "\(name) \($0)" }.joined(separator: "\n       ") + "\n\n"
        out += wrap(summary, width: width, indent: "") + "\n\nOptions:\n"
        let labels = entries.map { option -> String in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += "--\(option.long)"
            if let value = option.value { label += " \(value)" }
            return label
        }
        let column = min((labels.map(\.count).max() ?? 0) + 4, 32)
        for (option, label) in zip(entries, labels) {
            let indent = String(repeating: " ", count: column)
            let body = wrap(option.help, width: width, indent: indent)
            if label.count + 2 < column {
                out += "  " + label + String(repeating: " ", count: column - label.count - 2) + body.dropFirst(column) + "\n"
            } else {
                out += "  " + label + "\n" + body + "\n"
            }
        }
        if !epilog.isEmpty { out += "\n" + epilog + (epilog.hasSuffix("\n") ? "" : "\n") }
        return out
    }

    /// `text` wrapped to `width` columns, each line starting with `indent`.
    private func wrap(_ text: String, width: Int, indent: String) -> String {
        let lines = TextWrap.lines(text, width: width - indent.count)
        return (lines.isEmpty ? [""] : lines).map { indent + $0 }.joined(separator: "\n")
    }
}
