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
                .option("corpus", value: "DIR", help: "The parallel corpus: <tag>.txt files with <tag>.json sidecars (default: corpora/prose; a folder holding prose/ works too).", \.corpus),
                .repeated("encoding", short: "e", value: "LIST", help: "Comma-separated tokenizers (repeatable): cl100k, o200k, r50k, p50k, a profile name such as apple-on-device (counts with its estimate), or LABEL=FILE for a vocabulary file. Default: cl100k, o200k, r50k, Llama 3 and Qwen2 (when the gguf/ folder scripts/reference-data fills holds their vocabularies) and apple-on-device.", \.encoding),
                .option("udhr", value: "DIR", help: "UDHR texts for the cross-check (default: Tests/Fixtures/udhr when it exists, as in the repository).", \.udhr),
                .flag("no-udhr", help: "Skip the UDHR cross-check.", \.noUDHR),
                .option("reference", value: "TAG", help: "The language the token tax is relative to (default: en).", \.reference),
                .option("window", value: "N", help: "Window for the characters-that-fit column (default: 4,096).", \.window, .tokens(minimum: 1)),
                .repeated("profiles", value: "FILE", help: "Read more model profiles from this JSON file (repeatable).", \.profiles),
                .flag("csv", help: "Print CSV (one line per tokenizer and language) instead of tables.", \.csv),
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit density",
        usage: ["[--corpus DIR] [-e LIST] [OPTIONS]"],
        summary: "Measures how densely each tokenizer packs each language of a parallel corpus: characters per token, bytes per token, tokens relative to the reference language (the \"token tax\": the same content costs that many times the window) and how many characters fit in the window. With the UDHR texts at hand, the same figures on the Universal Declaration of Human Rights are shown beside them as a cross-check.",
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
            let tokenizers = try items.isEmpty ? defaultTokenizers(catalog: catalog) : items.map { try tokenizer($0, catalog: catalog) }
            let window = options.window ?? 4096
            let corpusDirectory = corpusPath(options.corpus)
            let corpus = try LanguageSample.loadCorpus(directory: URL(fileURLWithPath: corpusDirectory), sourcePrefix: corpusDirectory)
            var udhr: [String: LanguageSample] = [:]
            if !options.noUDHR {
                let explicit = options.udhr
                let directory = explicit ?? "Tests/Fixtures/udhr"
                if explicit != nil || FileManager.default.fileExists(atPath: directory) {
                    udhr = try UDHRTexts.load(directory: URL(fileURLWithPath: directory), for: corpus, sourcePrefix: directory)
                }
            }
            let reference = options.reference ?? "en"
            let bar = ProgressBar(total: Density.workload(corpus: corpus, crossCheck: udhr, tokenizers: tokenizers.count),
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

    /// The report's set; the open models only where their vocabularies are at hand.
    static func defaultTokenizers(catalog: ProfileCatalog) throws -> [MeasuredTokenizer] {
        let gguf = ReportWriter.referenceGGUF()
        let present = gguf.map { gguf in ReportWriter.openModels.allSatisfy { FileManager.default.fileExists(atPath: gguf.appendingPathComponent($0.1).path) } } ?? false
        return try ReportWriter.standardTokenizers(catalog: catalog, gguf: present ? gguf : nil)
    }

    /// `corpora` (holding `prose/`) or the prose folder itself.
    static func corpusPath(_ given: String?) -> String {
        let path = given ?? "corpora/prose"
        var isDirectory: ObjCBool = false
        let prose = (path as NSString).appendingPathComponent("prose")
        if FileManager.default.fileExists(atPath: prose, isDirectory: &isDirectory), isDirectory.boolValue { return prose }
        return path
    }

    /// `-e` as density reads it: what `TokenizerSpec` resolves for tokcount
    /// (an encoding name or a tokenizer file), plus an encoding named without
    /// `_base`, a profile's name (its tokenizer and estimate), and `LABEL=FILE`.
    static func tokenizer(_ item: String, catalog: ProfileCatalog) throws -> MeasuredTokenizer {
        func usage(_ message: String) -> UsageError { UsageError(tool: spec.name, "-e/--encoding: \(message)") }
        do {
            // An encoding may be named without its `_base`; the label drops it.
            if let name = [item, item + "_base"].first(where: { OpenAIEncoding(name: $0) != nil }) {
                let label = item.hasSuffix("_base") ? String(item.dropLast(5)) : item
                return MeasuredTokenizer(label: label, tokenizer: try TokenizerSpec.encoding(name).load())
            }
            if let profile = catalog.profiles.first(where: { $0.name.lowercased() == item.lowercased() }) {
                return try MeasuredTokenizer(profile: profile)
            }
            let (label, path) = item.firstIndex(of: "=").map { (String(item[..<$0]), String(item[item.index(after: $0)...])) }
                ?? (((item as NSString).lastPathComponent as NSString).deletingPathExtension, item)
            guard FileManager.default.fileExists(atPath: path) else {
                throw usage("'\(item)' is not an encoding (\(OpenAIEncoding.knownNames.joined(separator: ", "))), a profile (\(catalog.profiles.map(\.name).joined(separator: ", "))) or an existing file")
            }
            return MeasuredTokenizer(label: label, tokenizer: try TokenizerSpec.file(path).load())
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
                var cells = [row.language, row.tag, NumberFormat.grouped(m.characters), NumberFormat.grouped(m.tokens),
                             NumberFormat.decimal(m.charactersPerToken), NumberFormat.decimal(m.bytesPerToken),
                             NumberFormat.decimal(row.corpusTax), NumberFormat.grouped(m.charactersFitting(window: density.window))]
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
