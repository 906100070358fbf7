import Testing

/// Everything about tokenizers read from model files (GGUF, tokenizer.json);
/// run alone with `swift test --filter OpenModels`.
@Suite enum OpenModels {}
