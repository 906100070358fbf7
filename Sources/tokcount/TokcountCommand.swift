import ContextKit
import Foundation
import ToolSupport

/// tokcount's command line: the options, and what they resolve to.
enum TokcountCommand {
    static let spec = CommandSpec(
        name: "tokcount",
        version: ToolVersion.string,
        usage: ["[OPTIONS] [FILE|DIR|-]...", "--decode [OPTIONS] [FILE|-]..."],
        summary: "Counts the tokens of files, folders (recursively; skipping .git, binary files and what .gitignore ignores) and standard input, and tells whether each fits the model's context window and, if not, where it overflows: the line and column of the first token past the window.",
        options: [
            OptionSpec("m", "model", value: "PROFILE", help: "Model profile: context window, tokenizer and fixed overheads (default: gpt-4o, or \"default\" in your profiles file). --list-models shows them."),
            OptionSpec("e", "encoding", value: "NAME|FILE", help: "Count with this tokenizer instead of the profile's: cl100k_base, o200k_base, r50k_base (gpt2), p50k_base, or a .tiktoken file."),
            OptionSpec(nil, "window", value: "N", help: "Context window in tokens, instead of the profile's (8192, 8,192 and 8k all work)."),
            OptionSpec(nil, "reserve", value: "N", help: "Tokens to keep free for the answer (default: the profile's, usually 0)."),
            OptionSpec(nil, "profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable). ${XDG_CONFIG_HOME:-~/.config}/contextkit/profiles.json is always read if present."),
            OptionSpec(nil, "list-models", help: "List the model profiles and exit."),
            OptionSpec(nil, "special", value: "text|allow|error", choices: ["text", "allow", "error"], help: "Special-token strings such as <|endoftext|>: count as plain text (default; a note says when there are any), allow them as single special tokens, or treat them as an error."),
            OptionSpec(nil, "sort", value: "tokens|path|input", choices: ["tokens", "path", "input"], help: "Order of the rows: most tokens first, by path, or as given (default)."),
            OptionSpec(nil, "json", help: "Print one JSON document (schema in the README) instead of text."),
            OptionSpec(nil, "ids", help: "Print the token ids (space-separated, one line per input) instead of counts; with --json, add them to each input."),
            OptionSpec(nil, "pieces", help: "Print each token's id and text, one per line, instead of counts; with --json, add them to each input."),
            OptionSpec(nil, "decode", help: "Read token ids (separated by spaces, commas or brackets) and print the text they stand for."),
            OptionSpec(nil, "check", help: "Exit with status 3 when any input does not fit (for scripts and pre-commit hooks)."),
            OptionSpec(nil, "binary", help: "Count files that contain NUL bytes instead of refusing (named files) or skipping (folders) them."),
            OptionSpec(nil, "no-ignore", help: "In folders, do not skip what .gitignore ignores (.git itself is still skipped)."),
            OptionSpec("j", "jobs", value: "N", help: "Worker threads (default: one per core). Counts never depend on it."),
        ],
        epilog: """
        With no FILE, or when FILE is -, read standard input.

        Characters are Unicode scalars; invalid UTF-8 bytes count one each and are
        tokenized as bytes, the way a byte-level tokenizer sees them, with a warning
        naming the first bad byte. Counts marked ≈ are estimates: the profile's model
        has no public tokenizer, and the line says how the number was estimated.

        Exit status: 0 all inputs counted, 1 some input could not be read (the others
        are still shown), 2 usage error, 3 some input overflows (only with --check).
        """
    )

    /// What the command line resolves to, with every name looked up.
    struct Settings {
        var paths: [String]
        var profile: ModelProfile
        var tokenizer: Tokenizer
        var tokenizerName: String
        var estimate: TokenEstimate?
        var reserve: Int
        var specialMode: String
        var special: SpecialTokenPolicy
        var json: Bool
        var ids: Bool
        var pieces: Bool
        var decode: Bool
        var check: Bool
        var binary: Bool
        var respectGitIgnore: Bool
        var sort: String
        var jobs: Int

        /// Overhead of a request holding `messages` inputs as messages.
        func budget(messages: Int) -> TokenBudget {
            TokenBudget(window: profile.contextWindow, overhead: profile.overheads.request(messages: messages), reserve: reserve)
        }
    }

    static func settings(from args: ParsedArguments, catalog: ProfileCatalog) throws -> Settings {
        func usage(_ message: String) -> UsageError { UsageError(tool: "tokcount", message) }
        var profile: ModelProfile
        do {
            profile = try args.value("model").map { try catalog.profile(named: $0) } ?? catalog.defaultProfile()
        } catch let error as ProfileError {
            throw usage("-m/--model: \(error)")
        }
        if let window = try args.integer("window", minimum: 1) {
            profile.contextWindow = window
        }
        let reserve = try args.integer("reserve") ?? profile.defaultReserve
        var estimate = profile.estimate
        var tokenizerSpec = profile.tokenizer
        if let name = args.value("encoding") {
            tokenizerSpec = TokenizerSpec(nameOrPath: name)
            if tokenizerSpec != profile.tokenizer, let e = estimate {
                // The calibration belongs to the profile's proxy; another tokenizer's count is used as it is.
                estimate = TokenEstimate(method: "\(tokenizerSpec) count used as is (the profile's calibration is for \(profile.tokenizer))",
                                         factor: 1, errorBar: e.errorBar, cjkErrorBar: e.cjkErrorBar)
            }
        }
        let tokenizer: Tokenizer
        do {
            tokenizer = try tokenizerSpec.load()
        } catch {
            throw usage("\(args.has("encoding") ? "-e/--encoding" : "profile \(profile.name)"): \(error)")
        }
        let specialMode = args.value("special") ?? "text"
        let special: SpecialTokenPolicy = specialMode == "allow" ? .all : specialMode == "error" ? .none : .plainText
        let ids = args.has("ids"), pieces = args.has("pieces"), decode = args.has("decode")
        if decode && (ids || pieces) { throw usage("--decode turns ids into text; it cannot be combined with --ids or --pieces") }
        if decode && args.has("json") { throw usage("--decode prints text; --json does not apply to it") }
        return Settings(
            paths: args.positionals, profile: profile, tokenizer: tokenizer, tokenizerName: tokenizer.name,
            estimate: estimate, reserve: reserve, specialMode: specialMode, special: special,
            json: args.has("json"), ids: ids, pieces: pieces, decode: decode, check: args.has("check"),
            binary: args.has("binary"), respectGitIgnore: !args.has("no-ignore"),
            sort: args.value("sort") ?? "input",
            jobs: try args.integer("jobs", minimum: 1) ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Runs the command; returns the exit status.
    static func main(_ arguments: [String]) -> ExitCode {
        let terminal = Terminal()
        do {
            let args = try spec.parse(arguments)
            if args.has("help") { Output.out(spec.helpText()); return .ok }
            if args.has("version") { Output.out("tokcount \(ToolVersion.string) (ContextKit)\n"); return .ok }
            let catalog: ProfileCatalog
            do {
                catalog = try ProfileCatalog.standard(extraFiles: args.values("profiles"))
            } catch let error as ProfileError {
                throw UsageError(tool: spec.name, "--profiles: \(error)")
            }
            if args.has("list-models") {
                Output.out(ModelList.render(catalog))
                return .ok
            }
            var settings = try settings(from: args, catalog: catalog)
            if settings.paths.isEmpty {
                guard !Terminal.stdinIsTerminal else {
                    throw UsageError(tool: spec.name, "no input: name files or folders, or pipe text in (- reads standard input)")
                }
                settings.paths = ["-"]
            }
            if settings.decode { return IDDecoder.run(settings) }
            return Counting.run(settings, terminal: terminal)
        } catch let error as UsageError {
            Output.err(error.description + "\n")
            return .usage
        } catch {
            Output.err("tokcount: \(error)\n")
            return .usage
        }
    }
}

/// `--list-models`: one line per profile.
enum ModelList {
    static func render(_ catalog: ProfileCatalog) -> String {
        let rows = catalog.profiles.map { p -> [String] in
            [p.name + (p.name == catalog.defaultName ? " *" : ""),
             NumberFormat.grouped(p.contextWindow),
             (p.isEstimate ? "≈ " : "") + p.tokenizer.description,
             "\(p.overheads.perRequest) + \(p.overheads.perMessage)",
             p.summary]
        }
        var out = Table(header: ["profile", "window", "tokenizer", "overhead", "about"], alignRight: [false, true, false, true, false]).render(rows)
        out += "* default. ≈: the model's tokenizer is not public; counts are estimated from this one.\n"
        out += "overhead: tokens per request + per message, added to every input's count.\n"
        return out
    }
}
