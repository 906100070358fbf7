import Foundation

extension ModelProfile {
    /// The profile of a GGUF model, read from the file itself: its own
    /// tokenizer, its trained context length, and overheads measured by
    /// rendering its chat template (BOS/EOS as the server adds them).
    /// `provenance` says where each number came from and what was missing.
    ///
    /// Overheads are chosen so that `overheads.request(messages: n)` is the
    /// framing of `n` empty messages: `perMessage` is what a second message
    /// adds, `perRequest` the rest of an empty user message's framing (a
    /// default system prompt, the BOS token, the opened assistant turn).
    /// A file without a chat template still gives a profile, with no overheads;
    /// so does one whose template cannot be read or rendered (it is code from
    /// the file, perhaps hostile): its tokenizer still counts, and `provenance`
    /// says the overheads are unknown and why.
    ///
    /// - Parameters:
    ///   - url: the GGUF model file.
    ///   - contextWindow: the window to use instead of the file's (the user's
    ///     `--window`, a server's configured context); nil uses the file's.
    ///   - windowSource: where `contextWindow` came from, for `provenance`.
    /// - Throws: `ProfileError.modelFile` when the file is not a readable GGUF,
    ///   or has no context length and `contextWindow` is nil.
    public init(gguf url: URL, contextWindow: Int? = nil, windowSource: String = "--window") throws {
        let file: GGUFFile
        do {
            file = try GGUFFile(contentsOf: url)
        } catch ModelFileError.unrecognizedFormat {
            throw ProfileError.modelFile(
                path: url.path,
                reason: "it is not a GGUF model, and only a GGUF file or a Hugging Face model folder gives a profile (to count with another tokenizer file, use -e FILE)")
        } catch {
            throw ProfileError.modelFile(path: url.path, reason: "\(error)")
        }
        let lengthKey = "\(file.architecture ?? "<general.architecture>").context_length"
        var provenance: [String] = []
        let window: Int
        if let given = contextWindow {
            window = given
            provenance.append("window from \(windowSource)")
        } else if let length = file.contextLength, length > 0 {
            window = length
            provenance.append("window from \(lengthKey)")
        } else {
            throw ProfileError.modelFile(path: url.path, reason: "it has no \(lengthKey), so its context window is unknown; give it with --window N")
        }
        let overheads: Overheads
        if file.chatTemplate == nil {
            overheads = .init()
            provenance.append("overheads 0: the file has no tokenizer.chat_template")
        } else {
            do {
                let predictor = try PromptPredictor(gguf: file)
                overheads = try .init(measuredBy: predictor)
                provenance.append("overheads from tokenizer.chat_template" + (predictor.addsBOS ? " and the BOS token" : ""))
            } catch let error as ChatTemplateError {
                overheads = .init()
                provenance.append(
                    "overheads unknown, counted as 0: its chat template cannot be rendered (\(error.message)); the text's counts are exact, but each request's framing is missing (give another profile with -m for it)"
                )
            } catch {
                throw ProfileError.modelFile(path: url.path, reason: "\(error)")
            }
        }
        self.init(
            name: url.lastPathComponent,
            summary: [file.name, file.architecture].compactMap { $0 }.joined(separator: ", "),
            contextWindow: window, tokenizer: .file(url.path), overheads: overheads)
        self.provenance = provenance
    }
}

extension ModelProfile.Overheads {
    /// The overheads a chat template adds, measured by rendering it:
    /// `perMessage` is what a second empty message adds, `perRequest` the rest
    /// of an empty user message's framing (a default system prompt, BOS, the
    /// opened assistant turn), so `request(messages: n)` is `n` empty messages' framing.
    ///
    /// - Throws: `ChatTemplateError` when the template cannot render them.
    init(measuredBy predictor: PromptPredictor) throws {
        let one = try predictor.promptTokens([.init(role: "user", content: "")])
        let two = try predictor.promptTokens([.init(role: "user", content: ""), .init(role: "assistant", content: "")])
        self.init(perRequest: one - (two - one), perMessage: two - one)
    }
}
