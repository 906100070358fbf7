/// A conversation cut to fit a number of prompt tokens: which messages were
/// dropped, which was trimmed, and what the rest costs.
public struct ConversationTruncation: Equatable, Sendable {
    /// The conversation that fits (or the system messages alone when even they do not).
    public var conversation: Conversation
    /// Indices, in the original conversation, of the messages dropped.
    public var dropped: [Int]
    /// Index, in the original conversation, of the message whose content was
    /// cut, with its tokens before and after; nil when none was.
    public var trimmed: (index: Int, from: Int, to: Int)?
    /// The cost of what is left.
    public var count: ConversationCount
    /// Whether anything was dropped or trimmed.
    public var wasCut: Bool { !dropped.isEmpty || trimmed != nil }
    /// Whether what is left fits the limit (false when the system messages,
    /// tools and overhead alone exceed it).
    public var fits: Bool

    /// Equal when the same conversation was left the same way.
    public static func == (a: Self, b: Self) -> Bool {
        a.conversation == b.conversation && a.dropped == b.dropped && a.count == b.count && a.fits == b.fits
            && a.trimmed?.index == b.trimmed?.index && a.trimmed?.from == b.trimmed?.from && a.trimmed?.to == b.trimmed?.to
    }
}

extension ConversationCounter {
    /// Cuts `conversation` until its prompt is at most `limit` tokens: drops
    /// the oldest messages that are not system (or developer) messages first;
    /// when one such message is left and still too long, cuts its content to the
    /// longest prefix that fits (at a `boundary`). System messages are kept.
    ///
    /// - Throws: `ConversationError.templateFailed` when the template cannot
    ///   render what is left; `TokenKitError` from trimming.
    public func truncate(_ conversation: Conversation, to limit: Int, at boundary: TruncationBoundary = .character) throws -> ConversationTruncation {
        var kept = Array(conversation.messages.indices)
        var dropped: [Int] = []
        func current() -> Conversation { Conversation(messages: kept.map { conversation.messages[$0] }, tools: conversation.tools) }
        func isInstruction(_ i: Int) -> Bool { [.system, .developer].contains(conversation.messages[i].role) }
        var count = try self.count(current())
        while count.total > limit, kept.filter({ !isInstruction($0) }).count > 1, let oldest = kept.first(where: { !isInstruction($0) }) {
            kept.removeAll { $0 == oldest }
            dropped.append(oldest)
            count = try self.count(current())
        }
        var trimmed: (Int, Int, Int)?
        if count.total > limit, let last = kept.first(where: { !isInstruction($0) }) {
            let position = kept.firstIndex(of: last)!
            let message = conversation.messages[last]
            let contentTokens = tokenizer.count(message.content)
            // The content's own tokens that fit: search the largest k whose cut conversation fits.
            var low = 0, high = contentTokens, best: (Conversation, ConversationCount)?
            while low <= high {
                let mid = (low + high) / 2
                var messages = current().messages
                messages[position].content = try tokenizer.truncate(message.content, to: mid, at: boundary).text
                let attempt = Conversation(messages: messages, tools: conversation.tools)
                let attemptCount = try self.count(attempt)
                if attemptCount.total <= limit { best = (attempt, attemptCount); low = mid + 1 } else { high = mid - 1 }
            }
            if let best {
                count = best.1
                trimmed = (last, contentTokens, tokenizer.count(best.0.messages[position].content))
                return ConversationTruncation(conversation: best.0, dropped: dropped, trimmed: trimmed, count: count, fits: true)
            }
            // Not even an empty message fits: drop it too.
            kept.removeAll { $0 == last }
            dropped.append(last)
            count = try self.count(current())
        }
        return ConversationTruncation(conversation: current(), dropped: dropped, trimmed: nil, count: count, fits: count.total <= limit)
    }
}
