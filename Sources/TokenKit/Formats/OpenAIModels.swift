/// tiktoken 0.14's table of OpenAI model names (`tiktoken/model.py`): which
/// encoding a model uses, by its exact name or, for dated and fine-tuned
/// names (`gpt-4o-2024-08-06`, `ft:gpt-4o-mini:acme::x1`), by a prefix.
public enum OpenAIModels {
    /// `MODEL_TO_ENCODING`, in tiktoken's order: model name → encoding name.
    public static let encodingsByName: [(model: String, encoding: String)] = [
        ("o1", "o200k_base"), ("o3", "o200k_base"), ("o4-mini", "o200k_base"),
        ("gpt-5", "o200k_base"), ("gpt-4.1", "o200k_base"), ("gpt-4o", "o200k_base"), ("gpt-4", "cl100k_base"),
        ("gpt-3.5-turbo", "cl100k_base"), ("gpt-3.5", "cl100k_base"), ("gpt-35-turbo", "cl100k_base"),
        ("davinci-002", "cl100k_base"), ("babbage-002", "cl100k_base"),
        ("text-embedding-ada-002", "cl100k_base"), ("text-embedding-3-small", "cl100k_base"), ("text-embedding-3-large", "cl100k_base"),
        ("text-davinci-003", "p50k_base"), ("text-davinci-002", "p50k_base"), ("text-davinci-001", "r50k_base"),
        ("text-curie-001", "r50k_base"), ("text-babbage-001", "r50k_base"), ("text-ada-001", "r50k_base"),
        ("davinci", "r50k_base"), ("curie", "r50k_base"), ("babbage", "r50k_base"), ("ada", "r50k_base"),
        ("code-davinci-002", "p50k_base"), ("code-davinci-001", "p50k_base"), ("code-cushman-002", "p50k_base"),
        ("code-cushman-001", "p50k_base"), ("davinci-codex", "p50k_base"), ("cushman-codex", "p50k_base"),
        ("text-davinci-edit-001", "p50k_edit"), ("code-davinci-edit-001", "p50k_edit"),
        ("text-similarity-davinci-001", "r50k_base"), ("text-similarity-curie-001", "r50k_base"),
        ("text-similarity-babbage-001", "r50k_base"), ("text-similarity-ada-001", "r50k_base"),
        ("text-search-davinci-doc-001", "r50k_base"), ("text-search-curie-doc-001", "r50k_base"),
        ("text-search-babbage-doc-001", "r50k_base"), ("text-search-ada-doc-001", "r50k_base"),
        ("code-search-babbage-code-001", "r50k_base"), ("code-search-ada-code-001", "r50k_base"),
        ("gpt2", "gpt2"), ("gpt-2", "gpt2")
    ]

    /// `MODEL_PREFIX_TO_ENCODING`, in tiktoken's order (the first match wins).
    public static let encodingsByPrefix: [(prefix: String, encoding: String)] = [
        ("o1-", "o200k_base"), ("o3-", "o200k_base"), ("o4-mini-", "o200k_base"),
        ("gpt-5", "o200k_base"), ("gpt-4.5-", "o200k_base"), ("gpt-4.1-", "o200k_base"), ("chatgpt-4o-", "o200k_base"),
        ("gpt-4o-", "o200k_base"), ("gpt-4-", "cl100k_base"), ("gpt-3.5-turbo-", "cl100k_base"), ("gpt-35-turbo-", "cl100k_base"),
        ("gpt-oss-", "o200k_harmony"),
        ("ft:gpt-4o", "o200k_base"), ("ft:gpt-4", "cl100k_base"), ("ft:gpt-3.5-turbo", "cl100k_base"),
        ("ft:davinci-002", "cl100k_base"), ("ft:babbage-002", "cl100k_base")
    ]

    private static let exact = Dictionary(encodingsByName, uniquingKeysWith: { first, _ in first })

    /// tiktoken's `encoding_name_for_model`: the exact name first, then the
    /// first prefix that matches; nil where tiktoken raises `KeyError`.
    /// (`gpt2` names r50k_base's ranks, as `Tokenizer.named` accepts it.)
    public static func encodingName(forModel name: String) -> String? {
        if let encoding = exact[name] { return encoding }
        return encodingsByPrefix.first { name.hasPrefix($0.prefix) }?.encoding
    }

    /// Every model name of the exact table, for suggestions.
    public static var modelNames: [String] { encodingsByName.map(\.model) }
}
