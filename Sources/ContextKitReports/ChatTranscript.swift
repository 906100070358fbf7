/// A conversation read from text with one turn per paragraph, each opened by
/// its speaker: `User: ...` then `Assistant: ...` (the layout of
/// `corpora/chat/transcript.txt`).
package struct ChatTranscript: Equatable, Sendable {
    package struct Exchange: Equatable, Sendable {
        package var user: String
        package var assistant: String
    }

    package var exchanges: [Exchange]

    /// Pairs each `User:` paragraph with the `Assistant:` paragraph after it.
    package init(parsing text: String) throws {
        var exchanges: [Exchange] = []
        var pending: String?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            if line.hasPrefix("User: ") {
                guard pending == nil else {
                    throw MeasurementError.invalid("chat transcript, turn \(number + 1): two User turns in a row; every User turn needs an Assistant answer")
                }
                pending = String(line.dropFirst(6))
            } else if line.hasPrefix("Assistant: ") {
                guard let user = pending else { throw MeasurementError.invalid("chat transcript, turn \(number + 1): an Assistant turn with no User turn before it") }
                exchanges.append(Exchange(user: user, assistant: String(line.dropFirst(11))))
                pending = nil
            } else {
                throw MeasurementError.invalid("chat transcript, turn \(number + 1): a turn must start with 'User: ' or 'Assistant: '")
            }
        }
        if pending != nil { throw MeasurementError.invalid("chat transcript: the last User turn has no Assistant answer") }
        if exchanges.isEmpty { throw MeasurementError.invalid("chat transcript: no User/Assistant turns") }
        self.exchanges = exchanges
    }
}
