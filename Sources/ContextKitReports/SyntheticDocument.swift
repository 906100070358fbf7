import ContextKit

/// Plain English prose of an exact token count, for running a conversation
/// against a real server when only sizes were given. Each document is
/// different (its number is in every sentence), so no server-side cache can
/// make two turns look alike.
package enum SyntheticDocument {
    static let sentences = [
        "The harbour sensor logged the water level every ten minutes through the night.",
        "At low tide the reading fell to just under one metre, then rose steadily again.",
        "A fishing boat left the quay shortly before dawn and returned with the morning light.",
        "The keeper noted a light westerly wind, clear skies and a calm sea in the log book.",
        "Later in the day a ferry was delayed by fog that rolled in from the open water.",
        "By the evening the fog had lifted and the lamp was lit at the usual time."
    ]

    /// Document `number` cut to `tokens` tokens of `tokenizer` (at a token boundary).
    package static func text(tokens: Int, number: Int, tokenizer: Tokenizer) throws -> String {
        guard tokens > 0 else { return "" }
        var text = ""
        var sentence = 0
        repeat {
            for _ in 0..<8 {
                text += "Report \(number), note \(sentence + 1): " + sentences[sentence % sentences.count] + " "
                sentence += 1
            }
        } while tokenizer.count(text) <= tokens
        return try tokenizer.decode(Array(tokenizer.encodeOrdinary(text).prefix(tokens)))
    }

    /// Instructions of `tokens` tokens: a request to summarise, padded with notes.
    package static func instructions(tokens: Int, tokenizer: Tokenizer) throws -> String {
        let request = "Summarise each report you are given in two or three sentences. "
        return try tokenizer.decode(Array(tokenizer.encodeOrdinary(request + (try text(tokens: tokens, number: 0, tokenizer: tokenizer))).prefix(tokens)))
    }
}
