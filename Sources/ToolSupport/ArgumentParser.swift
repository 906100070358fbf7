import Render

/// One option a command accepts: `-e, --encoding NAME|FILE`.
package struct OptionSpec: Sendable {
    /// The one-letter form, if any (`e` for `-e`).
    package let short: Character?
    /// The long form without dashes (`encoding`); parsed values are looked up by it.
    package let long: String
    /// The value's placeholder in help (`NAME|FILE`); `nil` for a flag.
    package let value: String?
    /// The accepted values, when there is a closed set (checked while parsing).
    package let choices: [String]?
    package let help: String

    package init(_ short: Character? = nil, _ long: String, value: String? = nil, choices: [String]? = nil, help: String) {
        self.short = short
        self.long = long
        self.value = value
        self.choices = choices
        self.help = help
    }
}

/// A command line the user got wrong: the tool prints it and exits 2.
package struct UsageError: Error, CustomStringConvertible, Sendable {
    package let tool: String
    package let message: String

    package init(tool: String, _ message: String) {
        self.tool = tool
        self.message = message
    }

    package var description: String { "\(tool): \(message)\nTry '\(tool) --help' for more information." }
}

/// What a command line said, by option name.
package struct ParsedArguments: Sendable {
    package let tool: String
    /// Arguments that are not options, in order (`-` stays as it is: standard input).
    package var positionals: [String] = []
    private var values: [String: [String]] = [:]

    init(tool: String) { self.tool = tool }

    mutating func add(_ long: String, _ value: String) { values[long, default: []].append(value) }

    /// The flag or option was given at least once.
    package func has(_ long: String) -> Bool { values[long] != nil }

    /// The last value given for an option (a later one overrides an earlier one).
    package func value(_ long: String) -> String? { values[long]?.last }

    /// Every value given for a repeatable option, in order.
    package func values(_ long: String) -> [String] { values[long] ?? [] }

    /// The option's value as a whole number at least `minimum` (commas and `_`
    /// are allowed as separators, so `128,000` can be pasted from a spec sheet),
    /// or a usage error that names the option and the bad value.
    package func integer(_ long: String, minimum: Int = 0) throws -> Int? {
        guard let text = value(long) else { return nil }
        let cleaned = text.filter { $0 != "," && $0 != "_" }
        var number = Int(cleaned)
        if number == nil, let last = cleaned.last, "kKmM".contains(last), let base = Int(cleaned.dropLast()) {
            number = base * ("kK".contains(last) ? 1_000 : 1_000_000)
        }
        guard let n = number, n >= minimum else {
            throw UsageError(tool: tool, "--\(long) wants a whole number of at least \(minimum), not '\(text)'")
        }
        return n
    }
}

/// A command's options and help text, and the parser for its arguments.
///
/// Hand-written so the three tools share one behaviour with no dependency:
/// `--name value`, `--name=value`, `-n value`, `-nvalue`, grouped short flags
/// (`-abc`), `--` to end options, and `-` as a positional (standard input).
package struct CommandSpec: Sendable {
    package let name: String
    package let version: String
    /// Lines like `tokcount [OPTIONS] [FILE|DIR|-]...`, without the tool's name.
    package let usage: [String]
    /// One paragraph on what the tool does.
    package let summary: String
    package let options: [OptionSpec]
    /// Extra sections after the options (`Exit status:` and the like), printed as they are.
    package let epilog: String

    package init(name: String, version: String, usage: [String], summary: String, options: [OptionSpec], epilog: String = "") {
        self.name = name
        self.version = version
        self.usage = usage
        self.summary = summary
        self.options = options + [
            OptionSpec("h", "help", help: "Show this help and exit."),
            OptionSpec(nil, "version", help: "Show the version and exit."),
        ]
        self.epilog = epilog
    }

    /// What `--help` or `--version` asks for, if either was given: the tool
    /// prints it and exits 0 without doing anything else.
    package func informationRequested(in arguments: ParsedArguments) -> String? {
        if arguments.has("help") { return helpText() }
        if arguments.has("version") { return "\(name.split(separator: " ").first ?? "") \(version) (ContextKit)\n" }
        return nil
    }

    package func parse(_ arguments: [String]) throws -> ParsedArguments {
        var result = ParsedArguments(tool: name)
        var i = 0
        func takeValue(for option: OptionSpec, spelled: String, inline: String?) throws -> String {
            if let inline { return inline }
            i += 1
            guard i < arguments.count else { throw UsageError(tool: name, "\(spelled) needs a value (\(option.value ?? "VALUE"))") }
            return arguments[i]
        }
        func record(_ option: OptionSpec, spelled: String, value: String?) throws {
            guard let value else { result.add(option.long, ""); return }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(tool: name, "\(spelled) must be one of \(choices.joined(separator: ", ")), not '\(value)'")
            }
            result.add(option.long, value)
        }
        var onlyPositionals = false
        while i < arguments.count {
            let arg = arguments[i]
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                result.positionals.append(arg)
            } else if arg == "--" {
                onlyPositionals = true
            } else if arg.hasPrefix("--") {
                let body = arg.dropFirst(2)
                let (key, inline) = body.firstIndex(of: "=").map { (String(body[..<$0]), String(body[body.index(after: $0)...])) } ?? (String(body), nil)
                guard let option = options.first(where: { $0.long == key }) else {
                    throw UsageError(tool: name, "unknown option '--\(key)'" + suggestion(for: key))
                }
                if option.value == nil {
                    guard inline == nil else { throw UsageError(tool: name, "--\(key) takes no value") }
                    try record(option, spelled: "--\(key)", value: nil)
                } else {
                    try record(option, spelled: "--\(key)", value: try takeValue(for: option, spelled: "--\(key)", inline: inline))
                }
            } else {
                var letters = Substring(arg.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let option = options.first(where: { $0.short == letter }) else {
                        throw UsageError(tool: name, "unknown option '-\(letter)'" + (arg.count > 2 ? " in '\(arg)'" : ""))
                    }
                    if option.value == nil {
                        try record(option, spelled: "-\(letter)", value: nil)
                    } else {
                        let inline = letters.isEmpty ? nil : String(letters.hasPrefix("=") ? letters.dropFirst() : letters)
                        try record(option, spelled: "-\(letter)", value: try takeValue(for: option, spelled: "-\(letter)", inline: inline))
                        break
                    }
                }
            }
            i += 1
        }
        return result
    }

    /// ` (did you mean '--encoding'?)` for a near miss, else nothing.
    private func suggestion(for key: String) -> String {
        let close = options.map(\.long).filter { $0.hasPrefix(key) || editDistance($0, key) <= 2 }
        guard let best = close.first else { return "" }
        return " (did you mean '--\(best)'?)"
    }

    private func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }

    /// The `--help` text: usage, summary, options with wrapped help, epilog.
    package func helpText(width: Int = 80) -> String {
        var out = "Usage: " + usage.map { "\(name) \($0)" }.joined(separator: "\n       ") + "\n\n"
        out += wrap(summary, width: width, indent: "") + "\n\nOptions:\n"
        let labels = options.map { option -> String in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += "--\(option.long)"
            if let value = option.value { label += " \(value)" }
            return label
        }
        let column = min((labels.map(\.count).max() ?? 0) + 4, 32)
        for (option, label) in zip(options, labels) {
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
