import ContextKit
import ContextKitJSON
import Foundation
import Render
import ToolSupport

/// One input's outcome, as every report shows it.
struct Row {
    enum State {
        case counted(StreamCount)
        case skipped(String)
        case failed(String)
    }

    let path: String
    let isStandardInput: Bool
    var state: State = .failed("not read")
    /// Tokens for the profile (estimated when the profile's count is).
    var tokens = 0
    var fit: FitReport?
    var warnings: [String] = []
    var ids: [Int] = []
    var pieces: [(id: Int, offset: Int, text: String)] = []

    var counted: StreamCount? {
        if case .counted(let c) = state { return c }
        return nil
    }

    var displayName: String { isStandardInput ? "(standard input)" : path }
}

/// The totals over every counted input, sent as one request.
struct Total {
    var inputs = 0
    var counted = 0
    var skipped = 0
    var failed = 0
    var tokens = 0
    var proxyTokens = 0
    var stats = TextStats()
    var fit: FitReport?
    /// Where the combined text first passes the window: which input, and where in it.
    var firstTokenPast: (path: String, token: Int, point: OverflowPoint)?
}

/// Counting files, folders and standard input: the default mode and `--ids`/`--pieces`.
enum Counting {
    static func run(_ s: TokcountCommand.Settings, terminal: Terminal) -> ExitCode {
        let (items, problems) = InputWalker.expand(s.paths, respectGitIgnore: s.respectGitIgnore)
        var rows = items.map { Row(path: $0.display, isStandardInput: $0.source == .standardInput) }
        let budget = s.budget(messages: 1)
        let inputs = items.map { item in
            StreamCounter.Input(limit: budget.available, refuseBinary: !s.binary, sizeHint: item.size) { () throws -> ByteSource in
                switch item.source {
                case .standardInput: return FileByteSource(descriptor: 0, name: "standard input")
                case .file(let path): return try FileByteSource(path: path)
                }
            }
        }
        let listing = s.ids || s.pieces
        let listingToStdout = listing && !s.json
        let bar = ProgressBar(
            total: items.reduce(0) { $0 + ($1.size ?? 0) },
            enabled: terminal.stderrIsTerminal && !s.json && !listingToStdout, columns: terminal.stderrColumns)

        var lastListed = -1
        let visit: ((Int, UnsafeBufferPointer<UInt8>, Int) throws -> Void)? =
            listing
            ? { i, text, offset in
                let tokens = try s.tokenizer.tokens(utf8: text, allowedSpecial: s.special)
                if listingToStdout {
                    if lastListed != i && items.count > 1 { Output.out("==> \(rows[i].displayName) <==\n") }
                    Output.out(TokenListing.render(tokens, in: text, tokenizer: s.tokenizer, pieces: s.pieces, continuing: lastListed == i && offset > 0))
                } else {
                    rows[i].ids += tokens.map(\.id)
                    if s.pieces {
                        rows[i].pieces += tokens.map { ($0.id, offset + $0.bytes.lowerBound, TokenListing.text(of: $0, in: text)) }
                    }
                }
                lastListed = i
            } : nil

        // `--json` in input order: each input's object is written as soon as
        // it is counted, by this thread while the workers count the next ones.
        // Written after the last count, the 10,000 objects of a folder of
        // small files were 45 ms of a 158 ms run that the workers sat out.
        var written = s.json && s.sort == .input ? JSONWriter.ArrayWriter(writer: .rendered, depth: 1) : nil
        // A path that could not be used is reported where it was given:
        // before the item that came after it on the command line.
        let problemRows = problems.map { Row(path: $0.path, isStandardInput: false, state: .failed($0.reason)) }
        var reported = 0
        func reportProblems(before position: Int) {
            while reported < problems.count && problems[reported].position <= position {
                Output.err("tokcount: \(problems[reported].path): \(problems[reported].reason)\n")
                written?.append(JSONReport.input(problemRows[reported], settings: s))
                reported += 1
            }
        }
        let counter = StreamCounter(tokenizer: s.tokenizer, special: s.special, estimate: s.estimate, threads: s.jobs)
        counter.run(inputs, progress: { bar.advance($0) }, visit: visit) { i, outcome in
            reportProblems(before: i)
            bar.setLabel(items[min(i + 1, items.count - 1)].display)
            rows[i] = finish(rows[i], item: items[i], outcome: outcome, settings: s, budget: budget)
            written?.append(JSONReport.input(rows[i], settings: s))
            if listingToStdout && !s.pieces && lastListed == i { Output.out("\n") }
            for w in rows[i].warnings { Output.err("tokcount: \(w)\n") }
            if case .failed(let reason) = rows[i].state { Output.err("tokcount: \(rows[i].path): \(reason)\n") }
        }
        bar.finish()

        reportProblems(before: items.count)
        // Totals read rows[i] as items[i]; the report shows them in the order given.
        let total = totals(rows + problemRows, settings: s, items: items)
        rows = inOrderGiven(rows, problems: problems, problemRows: problemRows)
        switch s.sort {
        case .tokens: rows.sort { ($0.counted == nil ? -1 : $0.tokens) > ($1.counted == nil ? -1 : $1.tokens) }
        case .path: rows.sort { $0.path < $1.path }
        case .input: break
        }

        let failed = total.failed > 0
        let overflowed = rows.contains { $0.fit.map { !$0.fits } ?? false }
        let exit: ExitCode = failed ? .inputFailed : (s.check && overflowed ? .overflow : .ok)
        if s.json {
            JSONReport.render(rows: rows, total: total, settings: s, exit: exit, inputsWritten: written != nil)
                .printRendered(inserting: written.map { ["inputs": $0] } ?? [:])
        } else if !listing {
            Output.out(TextReport(settings: s, style: Style(enabled: terminal.colorAllowed)).render(rows: rows, total: total))
        }
        return exit
    }

    /// The items' rows with each problem's row placed where its path was given.
    static func inOrderGiven(_ rows: [Row], problems: [InputProblem], problemRows: [Row]) -> [Row] {
        var ordered: [Row] = []
        ordered.reserveCapacity(rows.count + problemRows.count)
        var next = 0
        for i in 0...rows.count {
            while next < problems.count && problems[next].position <= i {
                ordered.append(problemRows[next])
                next += 1
            }
            if i < rows.count { ordered.append(rows[i]) }
        }
        return ordered
    }

    static func finish(_ row: Row, item: InputItem, outcome: StreamOutcome, settings s: TokcountCommand.Settings, budget: TokenBudget) -> Row {
        var row = row
        switch outcome {
        case .binary(let offset):
            let what = "binary file (NUL byte at offset \(NumberFormat.grouped(offset)))"
            row.state = item.namedDirectly ? .failed("\(what); use --binary to count it anyway") : .skipped(what)
        case .failed(let error):
            if let e = error as? InputError { row.state = .failed(e.reason) } else { row.state = .failed("\(error)") }
        case .counted(let c):
            row.state = .counted(c)
            row.tokens = s.estimate?.tokens(proxyTokens: c.proxyTokens, cjkCharacters: c.stats.cjkCharacters) ?? c.proxyTokens
            row.fit = FitReport(textTokens: row.tokens, budget: budget, firstTokenPast: c.firstTokenPast)
            if let bad = c.stats.firstInvalidUTF8 {
                row.warnings.append(
                    "\(row.displayName): invalid UTF-8 at byte offset \(NumberFormat.grouped(bad)) (the first bad byte); bytes that are not UTF-8 are counted the way a byte-level tokenizer sees them, one character each"
                )
            }
            if c.specialStrings > 0 && s.special == .plainText {
                row.warnings.append(
                    "note: \(row.displayName) contains \(NumberFormat.grouped(c.specialStrings)) special-token string\(c.specialStrings == 1 ? "" : "s") (such as <|endoftext|>), counted as plain text; --special allow counts each as one special token, --special error refuses them"
                )
            }
        }
        return row
    }

    static func totals(_ rows: [Row], settings s: TokcountCommand.Settings, items: [InputItem]) -> Total {
        var total = Total()
        total.inputs = rows.count
        for row in rows {
            switch row.state {
            case .counted(let c):
                total.counted += 1
                total.tokens += row.tokens
                total.proxyTokens += c.proxyTokens
                total.stats.append(c.stats)
            case .skipped: total.skipped += 1
            case .failed: total.failed += 1
            }
        }
        let budget = s.budget(messages: max(total.counted, 1))
        var fit = FitReport(textTokens: total.tokens, budget: budget)
        if !fit.fits && total.counted > 1 {
            total.firstTokenPast = locateAcross(rows, budget: budget, settings: s, items: items)
        } else if !fit.fits, let only = rows.first(where: { $0.counted != nil }), let point = only.fit?.firstTokenPast {
            total.firstTokenPast = (only.path, point.token, point)
        }
        fit.firstTokenPast = total.firstTokenPast?.point
        total.fit = fit
        return total
    }

    /// The input holding the first token of the combined text past the window,
    /// and where in it (by reading that input again; standard input cannot be).
    static func locateAcross(_ rows: [Row], budget: TokenBudget, settings s: TokcountCommand.Settings, items: [InputItem]) -> (String, Int, OverflowPoint)? {
        var before = 0
        for (i, row) in rows.enumerated() where row.counted != nil {
            if before + row.tokens > budget.available {
                guard i < items.count, case .file(let path) = items[i].source else { return nil }
                let locator = OverflowLocator(
                    tokenizer: s.tokenizer, special: s.special, estimate: s.estimate,
                    limit: budget.available - before)
                guard let source = try? FileByteSource(path: path),
                    let point = try? locator.firstTokenPast(reading: source)
                else { return nil }
                return (row.path, before + point.token, point)
            }
            before += row.tokens
        }
        return nil
    }
}
