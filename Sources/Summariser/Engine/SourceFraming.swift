/// How the engine marks the text it sends as data, not instructions: each
/// chunk goes in the prompt between an opening and a closing marker line,
/// and the default instructions say that what lies between them is material
/// to summarise, never instructions to follow.
///
/// A document can try to close the frame early (`[END SOURCE TEXT]` and then
/// "ignore the above"). `neutralise(_:)` turns every marker inside the text,
/// in any case and spacing, into a harmless look-alike (`(END SOURCE TEXT)`),
/// so the only markers the model sees are the engine's. The engine
/// neutralises a level's whole input before planning it, so the chunks it
/// plans are the chunks it sends.
///
/// The frame is priced: `tokenCost` is what `RequestCost(frame:)` adds to
/// every call's fixed cost (each marker with its newline counted on its
/// own), as `ctxkit plan --source-frame` does. Instructions alone are not a
/// security boundary; the frame makes injected text plainly data, and the
/// engine never acts on an answer except to read it as a `Summary` (it sends
/// no tools, so a tool-like answer is only text).
public struct SourceFraming: Equatable, Sendable {
    /// The marker's words; the lines are `[BEGIN words]` and `[END words]`.
    public var label: String

    /// A framing whose markers are `[BEGIN label]` and `[END label]`.
    public init(label: String = "SOURCE TEXT") {
        self.label = label
    }

    /// `[BEGIN SOURCE TEXT]` … `[END SOURCE TEXT]`.
    public static let standard = SourceFraming()

    /// The line before the text.
    public var opening: String { "[BEGIN \(label)]" }
    /// The line after the text.
    public var closing: String { "[END \(label)]" }

    /// What is sent before and after the text, newlines included: the
    /// strings `RequestCost(frame:)` prices.
    public var delimiters: [String] { [opening + "\n", "\n" + closing] }

    /// `text` between the marker lines (neutralise it first).
    public func frame(_ text: String) -> String {
        delimiters[0] + text + delimiters[1]
    }

    /// The text of a prompt `frame(_:)` made; a prompt without the frame is
    /// returned as it is. For backends that read the text itself (extractive).
    public func unframe(_ prompt: String) -> String {
        // Bytes, not characters: a text ending in "\r" makes "\r\n" one character with the closing newline.
        let (open, close, bytes) = (Array(delimiters[0].utf8), Array(delimiters[1].utf8), Array(prompt.utf8))
        guard bytes.count >= open.count + close.count, bytes.starts(with: open), bytes.suffix(close.count).elementsEqual(close) else { return prompt }
        return String(decoding: bytes[open.count..<(bytes.count - close.count)], as: UTF8.self)
    }

    /// `text` with every marker of this framing (any case, any spacing
    /// inside the brackets) turned into a look-alike in parentheses, so the
    /// text cannot open or close the frame. Text without markers is unchanged.
    public func neutralise(_ text: String) -> String {
        guard text.contains("["), let marker = try? Regex(markerPattern) else { return text }
        return text.replacing(marker) { match in
            "(" + (match.output[1].substring ?? "") + ")"
        }
    }

    /// `[`, BEGIN or END, the label's words, `]`: any case, any spacing.
    var markerPattern: String {
        let words = label.split(whereSeparator: \.isWhitespace).map { word in
            word.map { $0.isLetter || $0.isNumber ? String($0) : "\\" + String($0) }.joined()
        }
        return #"(?i)\[(\s*(?:BEGIN|END)\s+"# + words.joined(separator: #"\s+"#) + #"\s*)\]"#
    }
}
