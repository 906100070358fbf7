import ContextKit
import ContextKitReports
import Foundation
import Render
import ToolSupport

/// `ctxkit report`: regenerates `reports/` (density, transcript growth,
/// schema overhead; Markdown, CSV and SVG) from the repository's inputs.
enum ReportCommand {
    /// The command line, typed: every option declared once, with its help.
    struct Options: CommandOptions {
        var positionals: [String] = []
        var root: String?
        var gguf: String?
        var out: String?
        var check = false

        static var declarations: [OptionDeclaration<Self>] {
            [
                .option("root", value: "DIR", help: "The repository (holding corpora/ and examples/; default: the current directory).", \.root),
                .option(
                    "gguf", value: "DIR",
                    help:
                        "llama.cpp's vocab-only GGUF files for the open models' rows (default: the gguf/ folder scripts/reference-data fills, $CONTEXTKIT_REFERENCE_DATA/gguf or reference-data/gguf in ContextKit's cache).",
                    \.gguf),
                .option("out", value: "DIR", help: "Where to write the reports (default: ROOT/reports).", \.out),
                .flag("check", help: "Write nothing; exit 1 if any report differs from what would be written.", \.check)
            ]
        }
    }

    static let spec = CommandSpec<Options>(
        name: "ctxkit report",
        usage: ["[--root DIR] [--gguf DIR] [--out DIR] [--check]"],
        summary:
            "Regenerates the measurement reports — reports/density, reports/transcript-growth and reports/schema-overhead, each as .md, .csv and .svg — from the corpora, the example schemas and the built-in profiles. The output depends only on those inputs: the same input gives the same bytes.",
        epilog: """
            Exit status: 0 written (or, with --check, up to date), 1 an input is missing or
            (with --check) a report is stale, 2 usage error.
            """
    )

    static func run(_ arguments: [String]) async -> ExitCode {
        await CommandRunner.run(spec, arguments) { options in
            let terminal = Terminal()
            if !options.positionals.isEmpty { throw UsageError(tool: spec.name, "unexpected argument '\(options.positionals[0])'") }
            let root = URL(fileURLWithPath: options.root ?? ".").standardizedFileURL
            guard let gguf = options.gguf.map({ URL(fileURLWithPath: $0) }) ?? ReportWriter.referenceGGUF() else {
                throw UsageError(tool: spec.name, "no cache folder to find the GGUF vocabularies in: give them with --gguf DIR")
            }
            let out = options.out.map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent("reports")
            let writer = try ReportWriter(root: root, gguf: gguf)
            let bar = ProgressBar(total: writer.densityWorkload, enabled: terminal.stderrIsTerminal, columns: terminal.stderrColumns)
            bar.setLabel("density")
            var reported = 0
            let files = try writer.files { done in
                bar.advance(done - reported)
                reported = done
            }
            bar.finish()
            return options.check ? check(files, in: out) : write(files, to: out)
        }
    }

    static func write(_ files: [ReportWriter.File], to directory: URL) -> ExitCode {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files {
                let url = directory.appendingPathComponent(file.name)
                let data = Data(file.contents.utf8)
                let status = (try? Data(contentsOf: url)) == data ? "unchanged" : "written"
                if status == "written" { try data.write(to: url, options: .atomic) }
                Output.out("\(status.padding(toLength: 10, withPad: " ", startingAt: 0)) \(url.path) (\(NumberFormat.bytes(data.count)))\n")
            }
            return .ok
        } catch {
            Output.err("ctxkit report: cannot write to \(directory.path): \((error as NSError).localizedDescription)\n")
            return .inputFailed
        }
    }

    static func check(_ files: [ReportWriter.File], in directory: URL) -> ExitCode {
        let stale = files.filter { (try? Data(contentsOf: directory.appendingPathComponent($0.name))) != Data($0.contents.utf8) }
        for file in stale { Output.err("stale: \(directory.appendingPathComponent(file.name).path)\n") }
        if stale.isEmpty {
            Output.out("reports up to date (\(files.count) files in \(directory.path))\n")
            return .ok
        }
        Output.err("ctxkit report: \(stale.count) of \(files.count) reports differ; run 'ctxkit report' and commit the result\n")
        return .inputFailed
    }
}
