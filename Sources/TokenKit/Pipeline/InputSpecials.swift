import ContextKitJSON

/// The special tokens a tokenizer file says to put around one input: what
/// Hugging Face `tokenizers` adds for `encode(text, add_special_tokens=True)`,
/// read from `tokenizer.json`'s `post_processor` (`TemplateProcessing`'s
/// single-input template, `BertProcessing` and `RobertaProcessing`, also inside
/// a `Sequence`). Empty for every other tokenizer.
///
/// ```swift
/// let tokenizer = try Tokenizer.load(contentsOf: bertTokenizerJSON)
/// tokenizer.inputSpecials.leading   // ["[CLS]"]
/// tokenizer.inputSpecials.trailing  // ["[SEP]"]
/// ```
public struct InputSpecials: Sendable, Equatable {
    /// The special tokens' texts before the input, in order.
    public let leading: [String]
    /// The special tokens' texts after the input, in order.
    public let trailing: [String]

    /// Specials from their texts.
    public init(leading: [String] = [], trailing: [String] = []) {
        self.leading = leading
        self.trailing = trailing
    }

    /// How many tokens are added around one input.
    public var count: Int { leading.count + trailing.count }

    /// The specials `post_processor` describes; none for a missing or null
    /// one, or for processors that add no token (`ByteLevel`).
    init(postProcessor: OrderedJSON?) {
        var leading: [String] = [], trailing: [String] = []
        let processors = postProcessor?["processors"]?.elements ?? [postProcessor].compactMap { $0 }
        for p in processors {
            switch p["type"]?.stringValue {
            case "TemplateProcessing":
                var sawInput = false
                for piece in p["single"]?.elements ?? [] {
                    if piece["Sequence"] != nil { sawInput = true }
                    guard let id = piece["SpecialToken"]?["id"]?.stringValue else { continue }
                    // A special token of the template may stand for several tokens.
                    let texts = p["special_tokens"]?[id]?["tokens"]?.elements?.compactMap(\.stringValue) ?? [id]
                    if sawInput { trailing += texts } else { leading += texts }
                }
            case "BertProcessing", "RobertaProcessing":
                leading.append(p["cls"]?.elements?.first?.stringValue ?? (p["type"]?.stringValue == "BertProcessing" ? "[CLS]" : "<s>"))
                trailing.append(p["sep"]?.elements?.first?.stringValue ?? (p["type"]?.stringValue == "BertProcessing" ? "[SEP]" : "</s>"))
            default:
                break
            }
        }
        self.init(leading: leading, trailing: trailing)
    }
}
