import ContextKit
import Foundation
import Render
import ToolSupport

/// `ctxkit report`: regenerates `reports/` (density, transcript growth,
/// schema overhead; Markdown, CSV and SVG) from the repository's inputs.
enum ReportCommand {
    static let spec = CommandSpec(
        name: "ctxkit report",
        version: ToolVersion.string,
        usage: ["[--root DIR] [--shared DIR] [--out DIR] [--check]"],
        summary: "Regenerates the measurement reports — reports/density, reports/transcript-growth and reports/schema-overhead, each as .md, .csv and .svg — from the corpora, the example schemas and the built-in profiles. The output depends only on those inputs: the same input gives the same bytes.",
        options: [
            OptionSpec(nil, "root", value: "DIR", help: "The repository (holding corpora/ and examples/; default: the current directory)."),
            OptionSpec(nil, "shared", value: "DIR", help: "The shared data directory with udhr/ (default: ROOT/../shared/data). Required: the reports include the UDHR cross-check."),
            OptionSpec(nil, "out", value: "DIR", help: "Where to write the reports (default: ROOT/reports)."),
            OptionSpec(nil, "check", help: "Write nothing; exit 1 if any report differs from what would be written."),
        ],
        epilog: """
        Exit status: 0 written (or, with --check, up to date), 1 an input is missing or
        (with --check) a report is stale, 2 usage error.
        """
    )

    static func run(_ arguments: [String]) -> Int32 {
        let terminal = Terminal()
        do {
            let args = try spec.parse(arguments)
            if let information = spec.informationRequested(in: args) { Output.out(information); return ExitCode.ok.rawValue }
            if !args.positionals.isEmpty { throw UsageError(tool: spec.name, "unexpected argument '\(args.positionals[0])'") }
            let root = URL(fileURLWithPath: args.value("root") ?? ".").standardizedFileURL
            let shared = args.value("shared").map { URL(fileURLWithPath: $0) } ?? root.deletingLastPathComponent().appendingPathComponent("shared/data")
            let out = args.value("out").map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent("reports")
            let writer = try ReportWriter(root: root, shared: shared)
            let bar = ProgressBar(total: writer.densityWorkload, enabled: terminal.stderrIsTerminal, columns: terminal.stderrColumns)
            bar.setLabel("density")
            var reported = 0
            let files = try writer.files { done in
                bar.advance(done - reported)
                reported = done
            }
            bar.finish()
            return args.has("check") ? check(files, in: out) : write(files, to: out)
        } catch let error as UsageError {
            Output.err(error.description + "\n")
            return ExitCode.usage.rawValue
        } catch {
            Output.err("ctxkit report: \(error)\n")
            return ExitCode.inputFailed.rawValue
        }
    }

    static func write(_ files: [ReportWriter.File], to directory: URL) -> Int32 {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files {
                let url = directory.appendingPathComponent(file.name)
                let data = Data(file.contents.utf8)
                let status = (try? Data(contentsOf: url)) == data ? "unchanged" : "written"
                if status == "written" { try data.write(to: url, options: .atomic) }
                Output.out("\(status.padding(toLength: 10, withPad: " ", startingAt: 0)) \(url.path) (\(NumberFormat.bytes(data.count)))\n")
            }
            return ExitCode.ok.rawValue
        } catch {
            Output.err("ctxkit report: cannot write to \(directory.path): \((error as NSError).localizedDescription)\n")
            return ExitCode.inputFailed.rawValue
        }
    }

    static func check(_ files: [ReportWriter.File], in directory: URL) -> Int32 {
        let stale = files.filter { (try? Data(contentsOf: directory.appendingPathComponent($0.name))) != Data($0.contents.utf8) }
        for file in stale { Output.err("stale: \(directory.appendingPathComponent(file.name).path)\n") }
        if stale.isEmpty {
            Output.out("reports up to date (\(files.count) files in \(directory.path))\n")
            return ExitCode.ok.rawValue
        }
        Output.err("ctxkit report: \(stale.count) of \(files.count) reports differ; run 'ctxkit report' and commit the result\n")
        return ExitCode.inputFailed.rawValue
    }
}
