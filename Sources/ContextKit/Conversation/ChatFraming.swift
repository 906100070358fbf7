import Foundation

/// How a model turns a conversation into prompt tokens.
public enum ChatFraming: Sendable {
    /// The model's own chat template rendered (tools passed to it), then its
    /// exact tokenizer with special tokens recognised, BOS added as the server
    /// adds it: what llama.cpp's server charges.
    case template(PromptPredictor)
    /// OpenAI's published counting (Cookbook `num_tokens_from_messages`):
    /// `perMessage` per message plus the tokens of every value it holds,
    /// `perName` more for a `name`, `replyPriming` once for the opened reply.
    case openAI(perMessage: Int, perName: Int, replyPriming: Int)
    /// A fixed cost per request and per message around each message's text:
    /// Apple's on-device session (22 per session, from the field notes) and
    /// any profile without a template.
    case fixed(ModelProfile.Overheads)

    /// The Cookbook's `tokens_per_name`: a message with a `name` costs one more token.
    public static let openAITokensPerName = 1

    /// The framing a profile implies: a GGUF model or a Hugging Face folder
    /// (its `tokenizer.json` beside a `tokenizer_config.json`) with a chat
    /// template renders it; an OpenAI model counts the Cookbook's way, with
    /// the profile's per-message (3) and per-request (3, the reply priming)
    /// overheads; any other profile (Apple's included) its fixed overheads.
    ///
    /// - Parameters:
    ///   - profile: the model.
    ///   - tokenizer: the profile's tokenizer when the caller has loaded it,
    ///     so that a template's predictor does not load the file again.
    /// - Throws: `ConversationError.templateFailed` when the model file's
    ///   template cannot be parsed; what `PromptPredictor(gguf:)` throws.
    public static func inferred(for profile: ModelProfile, tokenizer: Tokenizer? = nil) throws -> ChatFraming {
        if case .file(let path) = profile.tokenizer, path.lowercased().hasSuffix(".gguf"),
            let file = try? GGUFFile(contentsOf: URL(fileURLWithPath: path)), file.chatTemplate != nil
        {
            do {
                return .template(try PromptPredictor(gguf: file, tokenizer: tokenizer))
            } catch let error as ChatTemplateError {
                throw ConversationError.templateFailed(reason: error.message)
            }
        }
        if case .file(let path) = profile.tokenizer, path.hasSuffix("tokenizer.json"),
            let folder = try? HuggingFaceModelFolder(URL(fileURLWithPath: path)), let template = folder.chatTemplate
        {
            do {
                return .template(try PromptPredictor(folder, tokenizer: tokenizer ?? Tokenizer.load(contentsOf: folder.tokenizerURL), template: template.text))
            } catch let error as ChatTemplateError {
                throw ConversationError.templateFailed(reason: error.message)
            }
        }
        if SchemaRuntime.inferred(for: profile) == .openai {
            return .openAI(perMessage: profile.overheads.perMessage, perName: openAITokensPerName, replyPriming: profile.overheads.perRequest)
        }
        return .fixed(profile.overheads)
    }
}
