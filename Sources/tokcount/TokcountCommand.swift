import ContextKit
import Foundation
import Render
import ToolSupport

/// tokcount's command line: the options, and what they resolve to.
enum TokcountCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var model: String?
        var encoding: String?
        var window: Int?
        var reserve: Int?
        var profiles: [String] = []
        var listModels = false
        var special: SpecialMode?
        var sort: SortOrder?
        var json = false
        var ids = false
        var pieces = false
        var decode = false
        var check = false
        var binary = false
        var noIgnore = false
        var jobs: Int?
        var chat: [String] = []
        var truncate: Int?
        var truncateAt: TruncationBoundary?
        var offsets = false
        var jsonl = false
        var field: String?
        var idField: String?
        var summary = false
        var merge = false
        var maxRecordBytes: Int?

        static var declarations: [OptionDeclaration<Self>] {
            [
                .option(
                    "model", short: "m", value: "PROFILE",
                    help:
                        "Model profile: context window, tokenizer and fixed overheads (default: gpt-4o, or \"default\" in your profiles file). --list-models shows them. A .gguf model file gives its own window, tokenizer and template overheads.",
                    \.model),
                .option(
                    "encoding", short: "e", value: "NAME|FILE",
                    help: "Count with this tokenizer instead of the profile's: cl100k_base, o200k_base, r50k_base (gpt2), p50k_base, or a .tiktoken file.", \.encoding),
                .option("window", value: "N", help: "Context window in tokens, instead of the profile's (8192, 8,192 and 8k all work).", \.window, .tokens(minimum: 1)),
                .option(
                    "reserve", value: "N",
                    help: "Tokens to keep free for the answer (default: the profile's, else 512 but at most a quarter of the window, as every ContextKit tool).", \.reserve,
                    .tokens()),
                .repeated(
                    "profiles", value: "FILE",
                    help: "Read more model profiles from this JSON file (repeatable). ${XDG_CONFIG_HOME:-~/.config}/contextkit/profiles.json is always read if present.", \.profiles
                ),
                .flag("list-models", help: "List the model profiles and exit.", \.listModels),
                .choice(
                    "special", value: "text|allow|error",
                    help:
                        "Special-token strings such as <|endoftext|>: count as plain text (default; a note says when there are any), allow them as single special tokens, or treat them as an error.",
                    \.special),
                .choice("sort", value: "tokens|path|input", help: "Order of the rows: most tokens first, by path, or as given (default).", \.sort),
                .flag("json", help: "Print one JSON document (schema in the README) instead of text.", \.json),
                .flag("ids", help: "Print the token ids (space-separated, one line per input) instead of counts; with --json, add them to each input.", \.ids),
                .flag("pieces", help: "Print each token's id and text, one per line, instead of counts; with --json, add them to each input.", \.pieces),
                .flag("decode", help: "Read token ids (separated by spaces, commas or brackets) and print the text they stand for.", \.decode),
                .flag("check", help: "Exit with status 3 when any input does not fit (for scripts and pre-commit hooks).", \.check),
                .flag("binary", help: "Count files that contain NUL bytes instead of refusing (named files) or skipping (folders) them.", \.binary),
                .flag("no-ignore", help: "In folders, do not skip what .gitignore ignores (.git itself is still skipped).", \.noIgnore),
                .option("jobs", short: "j", value: "N", help: "Worker threads (default: one per core). Counts never depend on it.", \.jobs, .integer(minimum: 1)),
                .repeated(
                    "chat", value: "FILE|-",
                    help:
                        "Count a conversation as the model sees it (repeatable): an OpenAI-style request body {\"messages\": [...], \"tools\": [...]} or an array of messages, rendered with a .gguf model's chat template, or framed with OpenAI's published constants or Apple's session overhead. Shows each message, the tools and the overhead apart.",
                    \.chat),
                .option(
                    "truncate", value: "N",
                    help:
                        "Print the longest prefix of the input that is at most N tokens, cut on a character boundary (exit 4 when it cut). With --chat, drop the oldest non-system messages first (the last one left is trimmed) until the conversation fits N tokens, and print it as JSON.",
                    \.truncate, .tokens(minimum: 0)),
                .choice(
                    "truncate-at", value: "character|grapheme|word|line",
                    help: "Where --truncate may cut: any character (default), a grapheme cluster boundary, before a word, or at the start of a line.", \.truncateAt),
                .flag(
                    "offsets", help: "Print each token's id with its byte and character span in the input (characters are Unicode scalars); with --json, one document.", \.offsets),
                .flag(
                    "jsonl",
                    help:
                        "Read JSON Lines (files or standard input), one record per line, and print one JSON line per record in input order: {\"id\":…,\"tokens\":N,\"characters\":N,\"bytes\":N,\"fits\":…}, or {\"id\"?,\"line\":N,\"error\":\"…\"} for a record that cannot be counted (exit status 1 then).",
                    \.jsonl),
                .option("field", value: "PATH", help: "With --jsonl: the record's text field, a dotted path such as body or turns.0.content (default: text).", \.field),
                .option("id-field", value: "PATH", help: "With --jsonl: the field passed through as each output line's id (default: id).", \.idField),
                .flag(
                    "summary",
                    help:
                        "With --jsonl: print one mergeable summary line (records, tokens, characters, bytes, failed, a token-length histogram, the longest records) instead of a line per record.",
                    \.summary),
                .flag("merge", help: "Add up summary lines made by --jsonl --summary (files or standard input) into one, exactly as one process would have made it.", \.merge),
                .option(
                    "max-record-bytes", value: "N",
                    help: "With --jsonl: the longest line read (default: 67,108,864 bytes, 64 MiB); a longer one is skipped and reported, and the others go on.", \.maxRecordBytes,
                    .integer(minimum: 1))
            ]
        }
    }

    /// `--special`: what a special-token string in the text is.
    enum SpecialMode: String, CaseIterable {
        case text, allow, error
    }

    /// `--sort`: the order of the rows.
    enum SortOrder: String, CaseIterable {
        case tokens, path, input
    }

    static let spec = CommandSpec<Options>(
        name: "tokcount",
        usage: ["[OPTIONS] [FILE|DIR|-]...", "--decode [OPTIONS] [FILE|-]..."],
        summary:
            "Counts the tokens of files, folders (recursively; skipping .git, binary files and what .gitignore ignores) and standard input, and tells whether each fits the model's context window and, if not, where it overflows: the line and column of the first token past the window.",
        epilog: """
            With no FILE, or when FILE is -, read standard input.

            Characters are Unicode scalars; invalid UTF-8 bytes count one each and are
            tokenized as bytes, the way a byte-level tokenizer sees them, with a warning
            naming the first bad byte. Counts marked ≈ are estimates: the profile's model
            has no public tokenizer, and the line says how the number was estimated.

            Exit status: 0 all inputs counted, 1 some input could not be read (the others
            are still shown), 2 usage error, 3 some input overflows (only with --check),
            4 --truncate cut the input (0 when it already fitted).
            """
    )

    /// What the command line resolves to, with every name looked up.
    struct Settings {
        var paths: [String]
        var profile: ModelProfile
        var tokenizer: Tokenizer
        var tokenizerName: String
        /// Whether `tokenizer` is the profile's own (no -e, or -e naming it).
        var tokenizerIsTheProfiles: Bool
        var estimate: TokenEstimate?
        var reserve: Int
        var reserveSource: TokenBudget.ReserveSource
        var specialMode: SpecialMode
        var special: SpecialTokenPolicy
        var json: Bool
        var ids: Bool
        var pieces: Bool
        var decode: Bool
        var check: Bool
        var binary: Bool
        var respectGitIgnore: Bool
        var sort: SortOrder
        var jobs: Int

        /// Overhead of a request holding `messages` inputs as messages.
        func budget(messages: Int) -> TokenBudget {
            TokenBudget(
                window: profile.contextWindow, requestOverhead: profile.overheads.request(messages: messages), reserve: reserve,
                reserveSource: reserveSource)
        }
    }

    static func settings(from options: Options, catalog: ProfileCatalog) throws -> Settings {
        func usage(_ message: String) -> UsageError { UsageError(tool: "tokcount", message) }
        var profile: ModelProfile
        do {
            profile = try options.model.map { try catalog.profile(named: $0, contextWindow: options.window) } ?? catalog.defaultProfile()
        } catch let error as ProfileError {
            throw usage("-m/--model: \(error)")
        }
        if let window = options.window {
            profile.contextWindow = window
        }
        let (reserve, reserveSource) = TokenBudget.reserve(given: options.reserve, profileReserve: profile.defaultReserve, window: profile.contextWindow)
        if reserve >= profile.contextWindow {
            // Nothing could fit: every input would be reported as overflowing.
            throw usage(
                "\(options.reserve != nil ? "--reserve" : "profile \(profile.name)"): a reserve of \(NumberFormat.grouped(reserve)) tokens "
                    + "leaves no room in \(profile.name)'s window of \(NumberFormat.grouped(profile.contextWindow)); "
                    + "give a --reserve below the window, or a larger --window")
        }
        var estimate = profile.estimate
        var tokenizerSpec = profile.tokenizer
        if let name = options.encoding {
            tokenizerSpec = TokenizerSpec(nameOrPath: name)
            if tokenizerSpec != profile.tokenizer, let e = estimate {
                // The calibration belongs to the profile's proxy; another tokenizer's count is used as it is.
                estimate = TokenEstimate(
                    method: "\(tokenizerSpec) count used as is (the profile's calibration is for \(profile.tokenizer))",
                    factor: 1, errorBar: e.errorBar, cjkErrorBar: e.cjkErrorBar)
            }
        }
        let tokenizer: Tokenizer
        do {
            tokenizer = try tokenizerSpec.load()
        } catch {
            throw usage("\(options.encoding != nil ? "-e/--encoding" : "profile \(profile.name)"): \(error)")
        }
        let specialMode = options.special ?? .text
        let special: SpecialTokenPolicy =
            switch specialMode {
            case .text: .plainText
            case .allow: .all
            case .error: .none
            }
        let ids = options.ids, pieces = options.pieces, decode = options.decode
        if decode && (ids || pieces) { throw usage("--decode turns ids into text; it cannot be combined with --ids or --pieces") }
        if decode && options.json { throw usage("--decode prints text; --json does not apply to it") }
        return Settings(
            paths: options.positionals, profile: profile, tokenizer: tokenizer, tokenizerName: tokenizer.name,
            tokenizerIsTheProfiles: tokenizerSpec == profile.tokenizer,
            estimate: estimate, reserve: reserve, reserveSource: reserveSource, specialMode: specialMode, special: special,
            json: options.json, ids: ids, pieces: pieces, decode: decode, check: options.check,
            binary: options.binary, respectGitIgnore: !options.noIgnore,
            sort: options.sort ?? .input,
            jobs: jobs(options.jobs))
    }

    /// Worker threads: one per core, or `-j N` up to four per core, where
    /// more threads only wait on each other (a huge N once exhausted the
    /// machine's thread table); a larger N is lowered with a note.
    static func jobs(_ asked: Int?, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        let cores = max(cores, 1)
        guard let asked else { return cores }
        let most = 4 * cores
        if asked > most {
            Output.err("tokcount: -j \(NumberFormat.grouped(asked)) is more than 4 threads for each of the \(cores) cores; using \(most) (counts never depend on -j)\n")
            return most
        }
        return asked
    }

    /// Runs the command; returns the exit status.
    static func main(_ arguments: [String]) async -> ExitCode {
        // Every error met before counting starts is the command line's.
        await CommandRunner.run(spec, arguments, otherErrors: .usage) { options in
            let catalog: ProfileCatalog
            do {
                catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
            } catch let error as ProfileError {
                throw UsageError(tool: spec.name, "--profiles: \(error)")
            }
            if options.listModels {
                Output.out(ModelList.render(catalog))
                return .ok
            }
            if options.merge { return try JSONLMode.merge(options) }
            var settings = try settings(from: options, catalog: catalog)
            if !options.chat.isEmpty { return try ChatCounting.run(options.chat, options: options, settings: settings) }
            if settings.paths.isEmpty {
                guard !Terminal.stdinIsTerminal else {
                    throw UsageError(tool: spec.name, "no input: name files or folders, or pipe text in (- reads standard input)")
                }
                settings.paths = ["-"]
            }
            if options.jsonl || JSONLMode.needsJSONL(options) { return try JSONLMode.run(options, settings) }
            if settings.decode { return IDDecoder.run(settings) }
            if let limit = options.truncate { return try Truncating.run(settings, limit: limit, at: options.truncateAt ?? .character) }
            if options.offsets { return try OffsetListing.run(settings) }
            return Counting.run(settings, terminal: Terminal())
        }
    }
}

/// `--list-models`: one line per profile.
enum ModelList {
    static func render(_ catalog: ProfileCatalog) -> String {
        let rows = catalog.profiles.map { p -> [String] in
            [
                p.name + (p.name == catalog.defaultName ? " *" : ""),
                NumberFormat.grouped(p.contextWindow),
                (p.isEstimate ? "≈ " : "") + p.tokenizer.description,
                "\(p.overheads.perRequest) + \(p.overheads.perMessage)",
                p.summary
            ]
        }
        var out = Table(header: ["profile", "window", "tokenizer", "overhead", "about"], alignRight: [false, true, false, true, false]).render(rows)
        out += "* default. ≈: the model's tokenizer is not public; counts are estimated from this one.\n"
        out += "overhead: tokens per request + per message, added to every input's count.\n"
        out += "Any other OpenAI model name tiktoken knows works too: a dated or fine-tuned name (gpt-4o-2024-08-06,\n"
        out += "ft:gpt-4o-mini:…) takes its model's profile, another gets its encoding and needs --window N.\n"
        return out
    }
}
