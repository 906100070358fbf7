import ContextKit

/// What a conversation costs when one session is reused for every request
/// versus a fresh session per request.
///
/// A reused session is a transcript: request n resends the instructions and
/// every earlier prompt and answer, then the new prompt (request 3 sends
/// [instructions, doc A, answer A, doc B, answer B, doc C]). A fresh session
/// sends the instructions and the one prompt. The window must hold the
/// request and the answer being generated, so a turn overflows when
/// prompt + answer passes the window — on Apple's model that is when
/// `exceededContextWindowSize` is thrown and the session is done.
package struct TranscriptGrowth: Equatable, Sendable {
    /// One request and its answer, in tokens.
    package struct Exchange: Equatable, Sendable {
        /// Tokens of the prompt sent in this turn.
        package var prompt: Int
        /// Tokens of the answer it gets.
        package var answer: Int

        /// One turn's sizes, in tokens.
        package init(prompt: Int, answer: Int) {
            self.prompt = prompt
            self.answer = answer
        }
    }

    /// The numbers of one turn under both strategies.
    package struct Turn: Equatable, Sendable {
        /// 1-based.
        package var number: Int
        /// Messages in the reused session's request (instructions, earlier
        /// prompts and answers, the new prompt).
        package var messages: Int
        /// Tokens sent by the reused session's request, overheads included.
        package var reusedPrompt: Int
        /// `reusedPrompt` plus the answer: what the window must hold.
        package var reusedWindow: Int
        /// Sum of `reusedPrompt` over turns 1...number: tokens paid for on a per-token API.
        package var reusedCumulative: Int
        /// Tokens sent by a fresh session's request: instructions, the prompt, overheads.
        package var freshPrompt: Int
        /// `freshPrompt` plus the answer: what the window must hold.
        package var freshWindow: Int
        /// Sum of `freshPrompt` over turns 1...number.
        package var freshCumulative: Int
        /// Entries in the reused session's transcript after the answer
        /// (instructions + prompts + answers: 13 after six requests, as in the field notes).
        package var transcriptEntries: Int
    }

    /// The model's context window, in tokens.
    package var window: Int
    /// Tokens of the instructions (0: none).
    package var instructions: Int
    /// The profile's fixed costs per request and per message.
    package var overheads: ModelProfile.Overheads
    /// Every turn, in order.
    package var turns: [Turn]

    /// The first turn whose request and answer do not fit a reused session; nil if all fit.
    package var overflowTurn: Int? { turns.first { $0.reusedWindow > window }?.number }
    /// The first turn whose request alone does not fit a reused session (it is refused before any answer).
    package var promptOverflowTurn: Int? { turns.first { $0.reusedPrompt > window }?.number }
    /// The first turn that does not fit even a fresh session.
    package var freshOverflowTurn: Int? { turns.first { $0.freshWindow > window }?.number }

    /// Models the conversation.
    /// - Parameters:
    ///   - instructions: tokens of the instructions (0: none, and no instructions message).
    ///   - exchanges: each turn's prompt and answer sizes.
    ///   - overheads: the profile's fixed costs per request and per message.
    package init(instructions: Int, exchanges: [Exchange], window: Int, overheads: ModelProfile.Overheads) {
        self.window = window
        self.instructions = instructions
        self.overheads = overheads
        let instructionMessages = instructions > 0 ? 1 : 0
        var history = instructions
        var reusedTotal = 0
        var freshTotal = 0
        var turns: [Turn] = []
        for (index, exchange) in exchanges.enumerated() {
            let messages = instructionMessages + 2 * index + 1
            let reused = history + exchange.prompt + overheads.request(messages: messages)
            let fresh = instructions + exchange.prompt + overheads.request(messages: instructionMessages + 1)
            reusedTotal += reused
            freshTotal += fresh
            turns.append(
                Turn(
                    number: index + 1, messages: messages,
                    reusedPrompt: reused, reusedWindow: reused + exchange.answer, reusedCumulative: reusedTotal,
                    freshPrompt: fresh, freshWindow: fresh + exchange.answer, freshCumulative: freshTotal,
                    transcriptEntries: instructionMessages + 2 * (index + 1)))
            history += exchange.prompt + exchange.answer
        }
        self.turns = turns
    }

    /// `count` turns of the same sizes, all in tokens.
    package init(instructions: Int, prompt: Int, answer: Int, turns count: Int, window: Int, overheads: ModelProfile.Overheads) {
        self.init(
            instructions: instructions, exchanges: Array(repeating: Exchange(prompt: prompt, answer: answer), count: count),
            window: window, overheads: overheads)
    }
}
