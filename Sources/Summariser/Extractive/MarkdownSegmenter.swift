/// Reads a Markdown (or plain) text into its prose: headings and reflowed
/// paragraphs, leaving out everything that is not prose a reader would quote.
///
/// Left out: front matter (YAML `---` or TOML `+++` at the first line; its
/// `title` is kept apart as `frontMatterTitle`), fenced code (``` and ~~~,
/// also inside lists and quotes), indented code (four columns past the
/// enclosing list item's content), tables (a row with `|` over a delimiter
/// row, and any line that starts with `|`), HTML blocks (comments, `<pre>`,
/// `<script>`, `<style>`, block-level tags, a line that is one tag), link
/// reference definitions (`[label]: url`), thematic breaks, and list and
/// quote markers (an item's text is kept, as a `listItem` block).
///
/// A paragraph's lines are joined into one (hard-wrapped text becomes whole
/// sentences): a lazy continuation line continues its paragraph, as in
/// CommonMark. Inline markup is kept as written, so a sentence found here
/// occurs word for word in the reflowed source.
///
/// A text that starts inside a code block (a chunk cut from the middle of a
/// document: the first fence line is a bare closing fence and the fence lines
/// do not pair up) or inside an HTML comment skips to where that block ends.
struct MarkdownSegmenter {
    /// The prose blocks, in the text's order.
    private(set) var blocks: [TextBlock] = []
    /// The `title` of the text's front matter, when it has one.
    private(set) var frontMatterTitle: String?

    typealias Line = Substring

    private struct OpenParagraph {
        var kind: TextBlock.Kind
        var lines: [Substring]
        var line: Int
    }

    private enum HTMLEnd {
        case blankLine
        case contains(String)
    }

    /// Segments `text`.
    init(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Line in
            line.last == "\r" ? line.dropLast() : line
        }
        var i = frontMatterEnd(lines)
        i = max(i, Self.resumePoint(lines, from: i))

        var paragraph: OpenParagraph? = nil
        var listIndents: [Int] = []
        var fence: (marker: Character, length: Int)? = nil
        var html: HTMLEnd? = nil
        var inTable = false
        var previousBlank = true

        func close() {
            guard let open = paragraph else { return }
            paragraph = nil
            let text = Self.reflow(open.lines, stripAdmonition: open.kind == .quote)
            guard !text.isEmpty else { return }
            blocks.append(TextBlock(kind: open.kind, text: text, line: open.line, isOneLine: open.lines.count == 1))
        }

        while i < lines.count {
            let number = i + 1
            let raw = lines[i]
            i += 1
            if let open = fence {
                let (_, content) = Self.stripQuotes(raw)
                let rest = content.drop { $0 == " " || $0 == "\t" }
                let run = rest.prefix { $0 == open.marker }.count
                if run >= open.length, rest.dropFirst(run).allSatisfy(\.isWhitespace) { fence = nil }
                continue
            }
            if let end = html {
                switch end {
                case .blankLine:
                    if raw.allSatisfy(\.isWhitespace) { html = nil; previousBlank = true }
                case .contains(let closing):
                    if raw.lowercased().contains(closing) { html = nil }
                }
                continue
            }
            let (quoteDepth, content) = Self.stripQuotes(raw)
            if paragraph != nil, (paragraph!.kind == .quote) != (quoteDepth > 0) { close() }
            if content.allSatisfy(\.isWhitespace) {
                close()
                inTable = false
                previousBlank = true
                continue
            }
            let indent = Self.indentWidth(content)
            let rest = content.drop { $0 == " " || $0 == "\t" }
            if inTable {
                if rest.contains("|") { continue }
                inTable = false
            }
            let isMarker = Self.listMarker(rest) != nil
            if previousBlank, !isMarker { while let last = listIndents.last, indent < last { listIndents.removeLast() } }
            let container = listIndents.last ?? 0
            defer { previousBlank = false }

            if indent >= container + 4, paragraph == nil { continue }  // indented code
            if let marker = Self.fenceOpening(rest) {
                close()
                fence = marker
                continue
            }
            if let (depth, title) = Self.atxHeading(rest), indent < container + 4 {
                close()
                listIndents.removeAll()
                blocks.append(TextBlock(kind: .heading(depth), text: Self.reflow([title], stripAdmonition: false), line: number, isOneLine: true))
                continue
            }
            if let open = paragraph, open.kind == .paragraph, let depth = Self.setextDepth(rest) {
                paragraph = nil
                let title = Self.reflow(open.lines, stripAdmonition: false)
                if !title.isEmpty { blocks.append(TextBlock(kind: .heading(depth), text: title, line: open.line, isOneLine: open.lines.count == 1)) }
                continue
            }
            if Self.isThematicBreak(rest) {
                close()
                continue
            }
            if rest.first == "|" || (rest.contains("|") && i < lines.count && Self.isDelimiterRow(Self.stripQuotes(lines[i]).content)) {
                close()
                inTable = true
                continue
            }
            if rest.first == "<", let end = Self.htmlBlockEnd(rest, interruptsParagraph: paragraph != nil) {
                close()
                if case .contains(let closing) = end, rest.lowercased().dropFirst().contains(closing) { continue }
                html = end
                continue
            }
            if paragraph == nil, Self.isLinkReferenceDefinition(rest) { continue }
            if let marker = Self.listMarker(rest) {
                close()
                while let last = listIndents.last, last > indent { listIndents.removeLast() }
                listIndents.append(indent + marker.width)
                var item = rest.dropFirst(marker.width).drop { $0 == " " || $0 == "\t" }
                if item.hasPrefix("[ ] ") || item.hasPrefix("[x] ") || item.hasPrefix("[X] ") { item = item.dropFirst(4) }
                paragraph = OpenParagraph(kind: .listItem, lines: item.isEmpty ? [] : [item], line: number)
                continue
            }
            if paragraph != nil, !previousBlank {
                paragraph!.lines.append(rest)
                continue
            }
            close()
            let kind: TextBlock.Kind = quoteDepth > 0 ? .quote : (listIndents.isEmpty ? .paragraph : .listItem)
            paragraph = OpenParagraph(kind: kind, lines: [rest], line: number)
        }
        close()
    }

    // MARK: Front matter and resuming

    /// The index of the first line after the front matter (0 without one);
    /// sets `frontMatterTitle`.
    private mutating func frontMatterEnd(_ lines: [Line]) -> Int {
        guard let first = lines.first?.trimmingTrailingWhitespace, first == "---" || first == "+++" else { return 0 }
        let closers: Set<String> = first == "---" ? ["---", "..."] : ["+++"]
        guard let end = lines.indices.dropFirst().first(where: { closers.contains(String(lines[$0].trimmingTrailingWhitespace)) }) else { return 0 }
        for line in lines[1..<end] {
            let separator: Character = first == "---" ? ":" : "="
            guard line.hasPrefix("title"), let cut = line.firstIndex(of: separator),
                line[line.index(line.startIndex, offsetBy: 5)..<cut].allSatisfy(\.isWhitespace)
            else { continue }
            var value = line[line.index(after: cut)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q { value = String(value.dropFirst().dropLast()) }
            if !value.isEmpty { frontMatterTitle = value }
            break
        }
        return end + 1
    }

    /// Where a text cut out of a longer one starts being readable: after the
    /// fence that closes a code block it began inside, or after the `-->` of
    /// a comment it began inside; `start` otherwise.
    static func resumePoint(_ lines: [Line], from start: Int) -> Int {
        var fences: [(index: Int, bare: Bool)] = []
        for index in start..<lines.count {
            let rest = stripQuotes(lines[index]).content.drop { $0 == " " || $0 == "\t" }
            guard let marker = rest.first, marker == "`" || marker == "~" else { continue }
            let run = rest.prefix { $0 == marker }.count
            if run >= 3 { fences.append((index, rest.dropFirst(run).allSatisfy(\.isWhitespace))) }
        }
        if let first = fences.first, first.bare, fences.count % 2 == 1 { return first.index + 1 }
        for index in start..<lines.count {
            if lines[index].contains("<!--") { break }
            if lines[index].contains("-->") { return index + 1 }
        }
        return start
    }

    // MARK: Line shapes

    /// The number of `>` quote marks in front of `line`, and what follows them.
    static func stripQuotes(_ line: Substring) -> (depth: Int, content: Substring) {
        var rest = line
        var depth = 0
        while true {
            let trimmed = rest.drop { $0 == " " }
            guard rest.count - trimmed.count <= 3, trimmed.first == ">" else { break }
            rest = trimmed.dropFirst()
            if rest.first == " " { rest = rest.dropFirst() }
            depth += 1
        }
        return (depth, rest)
    }

    /// Columns of leading whitespace (a tab to the next multiple of four).
    static func indentWidth(_ line: Substring) -> Int {
        var width = 0
        for c in line {
            if c == " " { width += 1 } else if c == "\t" { width += 4 - width % 4 } else { break }
        }
        return width
    }

    /// A code fence's marker and length, when `rest` opens one.
    static func fenceOpening(_ rest: Substring) -> (marker: Character, length: Int)? {
        guard let marker = rest.first, marker == "`" || marker == "~" else { return nil }
        let run = rest.prefix { $0 == marker }.count
        guard run >= 3 else { return nil }
        if marker == "`", rest.dropFirst(run).contains("`") { return nil }  // inline code, not a fence
        return (marker, run)
    }

    /// An ATX heading's depth and text (without its closing `#`s).
    static func atxHeading(_ rest: Substring) -> (Int, Substring)? {
        let hashes = rest.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes) else { return nil }
        let after = rest.dropFirst(hashes)
        guard after.isEmpty || after.first == " " || after.first == "\t" else { return nil }
        var title = after.trimmingCharacters(in: .whitespaces)[...]
        let closing = title.reversed().prefix { $0 == "#" }.count
        if closing > 0, closing == title.count || title.dropLast(closing).last == " " { title = title.dropLast(closing) }
        return (hashes, title)
    }

    /// 1 for a `===` underline, 2 for `---`.
    static func setextDepth(_ rest: Substring) -> Int? {
        let line = rest.trimmingTrailingWhitespace
        guard let c = line.first, c == "=" || c == "-", line.allSatisfy({ $0 == c }) else { return nil }
        if c == "=" { return 1 }
        return line.count >= 2 ? 2 : nil
    }

    /// `***`, `---`, `___` (spaces allowed between the marks).
    static func isThematicBreak(_ rest: Substring) -> Bool {
        guard let c = rest.first, "*-_".contains(c) else { return false }
        return rest.allSatisfy { $0 == c || $0 == " " || $0 == "\t" } && rest.filter({ $0 == c }).count >= 3
    }

    /// A table's delimiter row: `|---|:--:|`, `--- | ---`.
    static func isDelimiterRow(_ line: Substring) -> Bool {
        let cells = line.trimmingCharacters(in: .whitespaces)
        guard cells.contains("-"), cells.contains("|") || cells.hasPrefix(":") else { return false }
        return cells.allSatisfy { "|-: \t".contains($0) }
    }

    /// A list item's marker (`-`, `*`, `+`, `1.`, `1)`) and the columns it
    /// and the spaces after it take.
    static func listMarker(_ rest: Substring) -> (width: Int, ordered: Bool)? {
        guard let first = rest.first else { return nil }
        var markerLength = 0
        var ordered = false
        if "-*+".contains(first) {
            markerLength = 1
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }.count
            guard (1...9).contains(digits), let after = rest.dropFirst(digits).first, after == "." || after == ")" else { return nil }
            markerLength = digits + 1
            ordered = true
        }
        let after = rest.dropFirst(markerLength)
        if after.allSatisfy(\.isWhitespace) { return (markerLength + 1, ordered) }
        guard after.first == " " || after.first == "\t" else { return nil }
        let spaces = indentWidth(after)
        return (markerLength + (spaces > 4 ? 1 : spaces), ordered)
    }

    /// `[label]: destination`.
    static func isLinkReferenceDefinition(_ rest: Substring) -> Bool {
        guard rest.first == "[", let close = rest.firstIndex(of: "]"), close > rest.index(after: rest.startIndex) else { return false }
        let after = rest[rest.index(after: close)...]
        guard after.first == ":" else { return false }
        return after.dropFirst().contains { !$0.isWhitespace }
    }

    /// Block-level HTML tags (CommonMark's type 6).
    static let blockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
        "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
        "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul"
    ]

    /// How an HTML block that starts at `rest` ends, or nil when `rest` is
    /// not the start of one (inline HTML in a paragraph).
    private static func htmlBlockEnd(_ rest: Substring, interruptsParagraph: Bool) -> HTMLEnd? {
        let lower = rest.lowercased()
        if lower.hasPrefix("<!--") { return .contains("-->") }
        if lower.hasPrefix("<?") { return .contains("?>") }
        if lower.hasPrefix("<![cdata[") { return .contains("]]>") }
        if lower.hasPrefix("<!"), lower.dropFirst(2).first?.isLetter == true { return .contains(">") }
        let name = lower.dropFirst(lower.hasPrefix("</") ? 2 : 1).prefix { $0.isLetter || $0.isNumber || $0 == "-" }
        guard !name.isEmpty else { return nil }
        let after = lower.dropFirst(lower.hasPrefix("</") ? 2 + name.count : 1 + name.count).first
        let ends = after == nil || after == " " || after == ">" || after == "/" || after == "\t"
        if !lower.hasPrefix("</"), ["script", "pre", "style", "textarea"].contains(name), ends { return .contains("</\(name)>") }
        if blockTags.contains(String(name)), ends { return .blankLine }
        // Any other tag starts a block only when it is alone on its line and
        // the line does not continue a paragraph.
        let trimmed = lower.trimmingCharacters(in: .whitespaces)
        if !interruptsParagraph, ends, trimmed.hasSuffix(">"), trimmed.filter({ $0 == ">" }).count == 1 { return .blankLine }
        return nil
    }

    // MARK: Reflow

    /// The lines of a paragraph as one: each trimmed, joined by one space
    /// (none between CJK characters), a hard break's backslash dropped.
    static func reflow(_ lines: [Substring], stripAdmonition: Bool) -> String {
        var result = ""
        for var line in lines {
            line = line.trimmingCharacters(in: .whitespaces)[...]
            if line.hasSuffix("\\") { line = line.dropLast() }
            // By scalars: a space followed by a combining mark is one
            // Character that Swift calls whitespace, and the mark would be lost.
            let words = line.split { $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) }
            guard !words.isEmpty else { continue }
            let joined = words.joined(separator: " ")
            if let last = result.unicodeScalars.last, let first = joined.unicodeScalars.first {
                if !(CopyDetector.isCJK(last) || CopyDetector.isCJK(first) || isFullWidthPunctuation(last) || isFullWidthPunctuation(first)) {
                    result += " "
                }
            }
            result += joined
        }
        if stripAdmonition, result.hasPrefix("[!"), let close = result.firstIndex(of: "]"),
            result[result.index(result.startIndex, offsetBy: 2)..<close].allSatisfy({ $0.isLetter })
        {
            result = result[result.index(after: close)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    static func isFullWidthPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        (0x3000...0x303F).contains(scalar.value) || (0xFF00...0xFFEF).contains(scalar.value)
    }
}

extension Substring {
    /// Without trailing spaces and tabs.
    fileprivate var trimmingTrailingWhitespace: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}
