import Foundation

/// What the extractive summariser needs to know about a line's inline
/// Markdown: its plain text (for a headline, which is shown, not quoted) and
/// the parts of a sentence that are prose rather than code or markup.
enum InlineMarkdown {
    /// `text` as a reader sees it: links and images as their text, no code
    /// backticks, emphasis marks, HTML tags or `{#anchor}`s, whitespace as
    /// single spaces.
    static func plain(_ text: String) -> String {
        var s = text
        s.replace(/!\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
        s.replace(/\[([^\]]+)\]\([^)]*\)/) { String($0.output.1) }
        s.replace(/\[([^\]]+)\]\[[^\]]*\]/) { String($0.output.1) }
        s.replace(/<\/?[A-Za-z][^>]*>/, with: "")
        s.replace(/\{#[^}]*\}/, with: "")
        s.replace(/`+/, with: "")
        s.replace(/\*+/, with: "")
        s.replace(/(^|\s)_+|_+(\s|$)/) { $0.output.1.map(String.init) ?? $0.output.2.map(String.init) ?? "" }
        return s.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `text` without its code spans (`` `like this` ``), for measuring how
    /// much of a sentence is prose.
    static func withoutCodeSpans(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`") {
            result += rest[..<open]
            let ticks = rest[open...].prefix { $0 == "`" }
            let after = rest[ticks.endIndex...]
            guard let close = after.range(of: String(ticks)) else { result += rest[open...]; return result }
            result += " "
            rest = after[close.upperBound...].drop { $0 == "`" }
        }
        return result + rest
    }

    /// Whether `text` holds an HTML tag (`<td>`, `</kbd>`, `<br/>`).
    static func containsTag(_ text: String) -> Bool {
        text.contains(/<\/?[A-Za-z][A-Za-z0-9-]*(\s[^<>]*)?\/?>/)
    }
}
