/// Greedy word wrapping: as many words on a line as fit, split at spaces only.
package enum TextWrap {
    /// `text`'s words in lines of at most `width` characters; a word longer
    /// than `width` gets a line of its own. No words, no lines.
    package static func lines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
