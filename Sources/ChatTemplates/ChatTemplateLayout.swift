/// Where one rendering placed the conversation's messages, as the template's
/// own loop over `messages` shows it: the output length at the start of each
/// iteration, recorded while the text is written (nothing is added to it).
///
/// The loop is the first one, outside any other loop, that goes over the
/// `messages` variable or over all but its first one or two messages (the
/// system message a template writes before its loop), possibly through a
/// filter, and writes something. A template that loops over messages some
/// other way (by index, or over a list it builds) has no layout.
///
/// The boundaries are what rendering each shorter conversation would give
/// only for a template that does not look ahead (`loop.last`, the number of
/// messages, the last message's role): callers check them against a few
/// renderings of shorter conversations before they rely on them.
public struct ChatTemplateLayout: Sendable, Equatable {
    /// For each k in 0...messages.count, the output length in UTF-8 bytes
    /// once the loop has written the first k messages: where its iteration
    /// over the first message at index k or later began, the loop's end when
    /// there is none. k up to the first message the loop goes over is where
    /// the loop began.
    public let boundaries: [Int]
}

/// What `TemplateRenderer` records while it renders with a layout asked for.
struct LayoutRecorder {
    /// The `messages` variable's items.
    let messages: [TemplateValue]
    /// The output length at the start of each message's iteration (nil:
    /// filtered out, or before the loop's first message).
    var starts: [Int?] = []
    /// The index of the loop's first message, once the loop is found.
    var first: Int?
    var loopStart = 0
    var loopEnd = 0

    /// The most messages a template may write before its loop (a system
    /// message, a first user turn) for the loop still to count as the messages'.
    static let maxSkipped = 2

    init(messages: [TemplateValue]) { self.messages = messages }

    /// The index of the first message when `items` are the messages' last
    /// `items.count` (the same values, so equal strings share their storage
    /// and compare at once), at most `maxSkipped` skipped; else nil.
    func suffixStart(_ items: [TemplateValue]) -> Int? {
        let skipped = messages.count - items.count
        guard !items.isEmpty, (0...Self.maxSkipped).contains(skipped) else { return nil }
        for (k, item) in items.enumerated() where item != messages[skipped + k] { return nil }
        return skipped
    }

    /// The layout, once the loop was found and wrote something.
    var layout: ChatTemplateLayout? {
        guard let first, loopEnd > loopStart else { return nil }
        var boundaries = [Int](repeating: loopStart, count: messages.count + 1)
        var next = loopEnd
        for k in stride(from: messages.count, to: first, by: -1) {
            if k < messages.count, let start = starts[k] { next = start }
            boundaries[k] = next
        }
        return ChatTemplateLayout(boundaries: boundaries)
    }
}
