import ContextKit
import ContextKitJSON
import Render
import ToolSupport

/// `--jsonl`: one JSON line out per JSON line in (or, with `--summary`, one
/// mergeable summary line), and `--merge`, which adds summary lines up.
enum JSONLMode {
    /// The longest line kept unless `--max-record-bytes` says otherwise.
    static let defaultMaxRecordBytes = 64 << 20

    private static func usage(_ message: String) -> UsageError { UsageError(tool: TokcountCommand.spec.name, message) }

    /// Standard input, or the file `path` names.
    private static func open(_ path: String) throws -> FileByteSource {
        path == "-" ? FileByteSource(descriptor: 0, name: "standard input") : try FileByteSource(path: path)
    }

    private static func displayName(_ path: String) -> String { path == "-" ? "standard input" : path }

    /// Whether an option that only `--jsonl` reads was given.
    static func needsJSONL(_ options: TokcountCommand.Options) -> Bool {
        options.summary || options.field != nil || options.idField != nil || options.maxRecordBytes != nil
    }

    /// Counts the records of `settings.paths`.
    static func run(_ options: TokcountCommand.Options, _ s: TokcountCommand.Settings) throws -> ExitCode {
        guard options.jsonl else { throw usage("--summary, --field, --id-field and --max-record-bytes apply to --jsonl; add it") }
        if s.json { throw usage("--jsonl prints JSON lines already; drop --json") }
        if s.pieces || s.decode { throw usage("--jsonl counts records; --pieces and --decode do not apply to it (--ids does)") }
        if options.sort != nil { throw usage("--jsonl keeps the input order; --sort does not apply to it") }
        if options.summary && s.ids { throw usage("--summary prints one line for all records; --ids does not apply to it") }
        guard let textPath = RecordFieldPath(options.field ?? "text") else {
            throw usage("--field: \"\(options.field!)\" has an empty step; write a dotted path such as text or meta.body")
        }
        guard let idPath = RecordFieldPath(options.idField ?? "id") else {
            throw usage("--id-field: \"\(options.idField!)\" has an empty step; write a dotted path such as id or meta.id")
        }
        let maxLine = options.maxRecordBytes ?? defaultMaxRecordBytes
        let budget = s.budget(messages: 1)
        let counter = JSONLCounter(
            counter: RecordCounter(
                tokenizer: s.tokenizer, special: s.special, estimate: s.estimate, budget: budget,
                text: .field(textPath), id: idPath, listIDs: s.ids),
            threads: s.jobs)
        var summary = CorpusSummary(
            settings: .init(
                profile: s.profile.name, tokenizer: s.tokenizerName,
                estimated: s.estimate != nil, available: budget.available))
        var unreadable = false
        for path in s.paths {
            let name = displayName(path)
            do {
                var reader = JSONLBatchReader(source: try open(path), maxLineBytes: maxLine)
                try counter.run(&reader, renderLines: !options.summary, file: path == "-" ? nil : path) { batch in
                    if !options.summary { Output.out(batch.lines) }
                    for result in batch.results {
                        summary.add(result)
                        if options.summary, case .failure(let error) = result.outcome {
                            Output.err("tokcount: \(name): line \(NumberFormat.grouped(result.line)): \(error.message)\n")
                        }
                    }
                }
            } catch let error as InputError {
                Output.err("tokcount: \(error)\n")
                unreadable = true
            } catch {
                Output.err("tokcount: \(name): \(error)\n")
                unreadable = true
            }
        }
        if options.summary {
            Output.out(JSONWriter(style: .compact(escapingSlashes: false)).write(summary.json) + "\n")
        }
        if summary.failed > 0 {
            let total = summary.records + summary.failed
            Output.err(
                "tokcount: \(NumberFormat.grouped(summary.failed)) of \(NumberFormat.grouped(total)) record\(total == 1 ? "" : "s") could not be counted"
                    + (options.summary ? " (listed above)\n" : " (their error lines are in the output)\n"))
        }
        if summary.failed > 0 || unreadable { return .inputFailed }
        return s.check && summary.fitting < summary.records ? .overflow : .ok
    }

    /// `--merge`: adds up the summary lines of `paths` (standard input when none).
    static func merge(_ options: TokcountCommand.Options) throws -> ExitCode {
        if options.jsonl || options.summary { throw usage("--merge reads summary lines (from tokcount --jsonl --summary); it takes no --jsonl or --summary") }
        let paths = options.positionals.isEmpty ? ["-"] : options.positionals
        if paths == ["-"] && Terminal.stdinIsTerminal { throw usage("no input: pipe summary lines in, or name the files that hold them") }
        var merged: CorpusSummary?
        var bad = false
        for path in paths {
            let name = displayName(path)
            do {
                var reader = JSONLBatchReader(source: try open(path), maxLineBytes: defaultMaxRecordBytes)
                while let batch = try reader.next() {
                    for line in batch.lines {
                        do {
                            guard line.skippedBytes == nil else { throw CorpusSummaryError("a line of \(NumberFormat.grouped(line.skippedBytes!)) bytes is no summary line") }
                            let json: OrderedJSON
                            do {
                                json = try batch.bytes.withUnsafeBufferPointer { try JSONParser.parse(UnsafeBufferPointer(rebasing: $0[line.range])) }
                            } catch let error as JSONParseError {
                                throw CorpusSummaryError("not JSON: column \(error.column): \(error.reason)")
                            }
                            let part = try CorpusSummary(json: json)
                            if merged == nil { merged = part } else { try merged!.merge(part) }
                        } catch let error as CorpusSummaryError {
                            Output.err("tokcount: \(name): line \(NumberFormat.grouped(line.number)): \(error.message)\n")
                            bad = true
                        }
                    }
                }
            } catch {
                Output.err("tokcount: \(error)\n")
                bad = true
            }
        }
        guard let merged else {
            if !bad { Output.err("tokcount: --merge: no summary lines in the input; make them with tokcount --jsonl --summary\n") }
            return .inputFailed
        }
        Output.out(JSONWriter(style: .compact(escapingSlashes: false)).write(merged.json) + "\n")
        return bad ? .inputFailed : .ok
    }
}
