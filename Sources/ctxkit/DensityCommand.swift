import ContextKit
import ContextKitReports
import Foundation
import Render
import ToolSupport

/// `ctxkit density`: characters and bytes per token, token tax and window
/// capacity per language and tokenizer, on a parallel corpus.
enum DensityCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var corpus: String?
        var encoding: [String] = []
        var udhr: String?
        var noUDHR = false
        var reference: String?
        var window: Int?
        var profiles: [String] = []
        var csv = false

        static var declarations: [OptionDeclaration<Self>] {
            [
                .option(
                    "corpus", value: "DIR",
                    help: "The parallel corpus: <tag>.txt files with <tag>.json sidecars (default: \(ReportWriter.corpusFolder); a folder holding prose/ works too).", \.corpus),
                .repeated(
                    "encoding", short: "e", value: "LIST",
                    help:
                        "Comma-separated tokenizers (repeatable): cl100k, o200k, r50k, p50k, a profile name such as apple-on-device (counts with its estimate), or LABEL=FILE for a vocabulary file. Default: cl100k, o200k, r50k, Llama 3 and Qwen2 (when the gguf/ folder scripts/reference-data fills holds their vocabularies) and apple-on-device.",
                    \.encoding),
                .option("udhr", value: "DIR", help: "UDHR texts for the cross-check (default: \(ReportWriter.udhrFolder) when it exists, as in the repository).", \.udhr),
                .flag("no-udhr", help: "Skip the UDHR cross-check.", \.noUDHR),
                .option("reference", value: "TAG", help: "The language the token tax is relative to (default: en).", \.reference),
                .option("window", value: "N", help: "Window for the characters-that-fit column (default: 4,096).", \.window, .tokens(minimum: 1)),
                .repeated("profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable).", \.profiles),
                .flag("csv", help: "Print CSV (one line per tokenizer and language) instead of tables.", \.csv)
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit density",
        usage: ["[--corpus DIR] [-e LIST] [OPTIONS]"],
        summary:
            "Measures how densely each tokenizer packs each language of a parallel corpus: characters per token, bytes per token, tokens relative to the reference language (the \"token tax\": the same content costs that many times the window) and how many characters fit in the window. With the UDHR texts at hand, the same figures on the Universal Declaration of Human Rights are shown beside them as a cross-check.",
        epilog: """
            Characters are Unicode scalars of the text as it is (the corpus is NFC; the UDHR
            texts are NFC-normalised, trimmed and stripped of blank lines first). Columns
            marked (est.) are estimates for a model whose tokenizer is not public.

            Exit status: 0 done, 1 a file could not be read, 2 usage error.
            """
    )

    static func run(_ arguments: [String]) async -> ExitCode {
        await CommandRunner.run(spec, arguments) { options in
            let terminal = Terminal()
            if !options.positionals.isEmpty { throw UsageError(tool: spec.name, "unexpected argument '\(options.positionals[0])'; the corpus is given with --corpus DIR") }
            let catalog: ProfileCatalog
            do {
                catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
            } catch let error as ProfileError {
                throw UsageError(tool: spec.name, "--profiles: \(error)")
            }
            let items = options.encoding.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
            let tokenizers = try items.isEmpty ? ReportWriter.availableTokenizers(catalog: catalog) : items.map { try tokenizer($0, catalog: catalog) }
            let window = options.window ?? 4096
            let corpusDirectory = corpusPath(options.corpus)
            let corpus = try LanguageSample.loadCorpus(directory: URL(fileURLWithPath: corpusDirectory), sourcePrefix: corpusDirectory)
            var udhr: [String: LanguageSample] = [:]
            if !options.noUDHR {
                let explicit = options.udhr
                let directory = explicit ?? ReportWriter.udhrFolder
                if explicit != nil || FileManager.default.fileExists(atPath: directory) {
                    udhr = try UDHRTexts.load(directory: URL(fileURLWithPath: directory), for: corpus, sourcePrefix: directory)
                }
            }
            let reference = options.reference ?? "en"
            let bar = ProgressBar(
                total: Density.workload(corpus: corpus, crossCheck: udhr, tokenizers: tokenizers.count),
                enabled: terminal.stderrIsTerminal, columns: terminal.stderrColumns)
            var reported = 0
            let density = try Density.measure(corpus: corpus, crossCheck: udhr, tokenizers: tokenizers, referenceTag: reference, window: window) { done in
                bar.advance(done - reported)
                reported = done
            }
            bar.finish()
            Output.out(options.csv ? ReportWriter.densityCSV(density) : render(density, udhr: !udhr.isEmpty))
            return .ok
        }
    }

    /// `corpora` (holding `prose/`) or the prose folder itself.
    static func corpusPath(_ given: String?) -> String {
        let path = given ?? ReportWriter.corpusFolder
        var isDirectory: ObjCBool = false
        let prose = (path as NSString).appendingPathComponent("prose")
        if FileManager.default.fileExists(atPath: prose, isDirectory: &isDirectory), isDirectory.boolValue { return prose }
        return path
    }

    /// `-e` as density reads it: `LABEL=FILE` (a tokenizer file under a label
    /// of its own), else what `-e` names in tokcount (`TokenizerSpec(nameOrPath:)`:
    /// an encoding, labelled without its `_base`, or an existing tokenizer
    /// file, labelled by its name), else a profile as `-m` names it
    /// (`ProfileCatalog.profile(named:)`: its tokenizer and estimate).
    static func tokenizer(_ item: String, catalog: ProfileCatalog) throws -> MeasuredTokenizer {
        func usage(_ message: String) -> UsageError { UsageError(tool: spec.name, "-e/--encoding: \(message)") }
        do {
            if let equals = item.firstIndex(of: "=") {
                let path = String(item[item.index(after: equals)...])
                return MeasuredTokenizer(label: String(item[..<equals]), tokenizer: try TokenizerSpec.file(path).load())
            }
            let named = TokenizerSpec(nameOrPath: item)
            switch named {
            case .encoding(let name):
                return MeasuredTokenizer(label: name.hasSuffix("_base") ? String(name.dropLast(5)) : name, tokenizer: try named.load())
            case .file(let path) where FileManager.default.fileExists(atPath: path):
                let label = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
                return MeasuredTokenizer(label: label, tokenizer: try named.load())
            case .file:
                return try MeasuredTokenizer(profile: try catalog.profile(named: item))
            }
        } catch ProfileError.unknownProfile {
            throw usage(
                "'\(item)' is not an encoding (\(OpenAIEncoding.knownNames.joined(separator: ", "))), a profile (\(catalog.profiles.map(\.name).joined(separator: ", "))) or an existing file"
            )
        } catch let error as ProfileError {
            throw usage("\(item): \(error)")
        } catch let error as TokenKitError {
            throw usage("\(item): \(error)")
        }
    }

    static func render(_ density: Density, udhr: Bool) -> String {
        let window = NumberFormat.grouped(density.window)
        var out = ""
        for label in density.tokenizers {
            var header = ["language", "tag", "chars", "tokens", "chars/token", "bytes/token", "token tax", "chars in \(window)"]
            if udhr { header += ["UDHR chars/token", "UDHR tax"] }
            let rows = density.rows(tokenizer: label).map { row -> [String] in
                let m = row.corpus
                var cells = [
                    row.language, row.tag, NumberFormat.grouped(m.characters), NumberFormat.grouped(m.tokens),
                    NumberFormat.decimal(m.charactersPerToken), NumberFormat.decimal(m.bytesPerToken),
                    NumberFormat.decimal(row.corpusTax), NumberFormat.grouped(m.charactersFitting(window: density.window))
                ]
                if udhr { cells += [row.udhr.map { NumberFormat.decimal($0.charactersPerToken) } ?? "-", row.udhrTax.map { NumberFormat.decimal($0) } ?? "-"] }
                return cells
            }
            out += (out.isEmpty ? "" : "\n") + label + "\n"
            out += Table(header: header, alignRight: [false, false] + Array(repeating: true, count: header.count - 2)).render(rows)
        }
        out += "\ntoken tax: tokens relative to \(density.referenceTag) for the same content; characters are Unicode scalars.\n"
        return out
    }
}
