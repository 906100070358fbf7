import Foundation

/// What the extractive summariser needs to know about a line's inline
/// Markdown: its plain text (a point or a headline is shown to a reader, not
/// quoted as source) and the parts of a sentence that are prose rather than
/// code or markup.
enum InlineMarkdown {
    /// `text` as a reader sees it: links and images as their text, autolinks
    /// as their address, no code backticks, emphasis or strikethrough marks,
    /// HTML tags or `{#anchor}`s, backslash escapes resolved, whitespace as
    /// single spaces. A code span's content is kept as written (`` `**` ``
    /// stays `**`): there the marks are the content, not markup.
    static func plain(_ text: String) -> String {
        var s = text
        s.replace(/!\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/) { String($0.output.1) }
        s.replace(/\[([^\]]+)\]\((?:[^()]|\([^()]*\))*\)/) { String($0.output.1) }
        s.replace(/\[([^\]]+)\]\[[^\]]*\]/) { String($0.output.1) }
        s.replace(/<((?:https?|ftp|mailto):[^<>\s]+|[^<>\s@]+@[^<>\s@]+\.[A-Za-z]+)>/) { String($0.output.1) }
        var result = ""
        var rest = Substring(s)
        while let open = rest.firstIndex(of: "`") {
            let ticks = rest[open...].prefix { $0 == "`" }
            let after = rest[ticks.endIndex...]
            guard let close = after.range(of: String(ticks)) else { break }
            result += plainProse(rest[..<open])
            var code = after[..<close.lowerBound]
            // CommonMark strips one space each side of a span's content.
            if code.count >= 2, code.first == " ", code.last == " ", code.contains(where: { $0 != " " }) { code = code.dropFirst().dropLast() }
            result += code
            rest = after[close.upperBound...].drop { $0 == "`" }
        }
        result += plainProse(rest).replacingOccurrences(of: "`", with: "")
        // By scalars, as `MarkdownSegmenter.reflow` splits: a space followed by
        // a combining mark is one Character Swift calls whitespace.
        return result.split { $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) }.joined(separator: " ")
    }

    /// Prose outside code spans, plain: tags, anchors and emphasis marks
    /// removed; an escaped mark (`\*`) kept as the mark it stands for.
    private static func plainProse(_ prose: Substring) -> String {
        // Escaped punctuation is set aside as a private-use character so the
        // emphasis rules below do not see it, then restored.
        var s = String(prose)
        s.replace(/\\([!-\/:-@\[-`{-~])/) { match in
            String(Character(Unicode.Scalar(0xF0000 + match.output.1.unicodeScalars.first!.value)!))
        }
        s.replace(/<\/?[A-Za-z][^>]*>/, with: "")
        s.replace(/\{#[^}]*\}/, with: "")
        s.replace(/~~([^\s~](?:[^~]*[^\s~])?)~~/) { String($0.output.1) }
        s.replace(/\*\*([^\s*](?:[^*]*[^\s*])?)\*\*/) { String($0.output.1) }
        s.replace(/__([^\s_](?:[^_]*[^\s_])?)__/) { String($0.output.1) }
        s.replace(/\*([^\s*](?:[^*]*[^\s*])?)\*/) { String($0.output.1) }
        s.replace(/(^|[^\p{L}\p{N}_])_([^\s_](?:[^_]*[^\s_])?)_($|[^\p{L}\p{N}_])/) { $0.output.1 + $0.output.2 + $0.output.3 }
        // A mark whose partner is in another sentence (bold cut by the
        // splitter): dropped where it touches a word, kept between spaces (`2 * 3`).
        s.replace(/([^\s*_])[*_]+(?=[\s.,;:!?)\]]|$)/) { String($0.output.1) }
        s.replace(/(^|[\s(\[])[*_]+(?=[^\s*_])/) { String($0.output.1) }
        return String(
            String.UnicodeScalarView(
                s.unicodeScalars.map { scalar in
                    (0xF0000...0xF007F).contains(scalar.value) ? Unicode.Scalar(scalar.value - 0xF0000)! : scalar
                }))
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
