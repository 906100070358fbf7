/// llama.cpp's pre-tokenizer types (`tokenizer.ggml.pre` in a GGUF file): for
/// each, the regexes llama.cpp applies in sequence (each one cuts the pieces
/// of the one before, keeping matches and the text between them), and the
/// tokenizer flags the type implies. Where llama.cpp rewrites a model's
/// original tokenizer.json pattern for its own regex engine, the original is
/// used here: ICU reads it as Hugging Face does, and the well-known ones run on
/// hand-written scanners (see `SplitStep.split`).
struct LlamaPreType: Sendable {
    /// Every `tokenizer.ggml.pre` value that means this type.
    let names: [String]
    /// The split patterns, applied in order.
    let patterns: [String]
    /// A piece that is a token is emitted whole, merges or not.
    var ignoreMerges = false
    /// llama.cpp adds BOS unless the file says otherwise.
    var addsBOSByDefault = false

    /// The type llama.cpp uses for `name`.
    init?(name: String) {
        guard let type = Self.all.first(where: { $0.names.contains(name) }) else { return nil }
        self = type
    }

    private init(_ names: [String], _ patterns: [String], ignoreMerges: Bool = false, addsBOS: Bool = false) {
        self.names = names
        self.patterns = patterns
        self.ignoreMerges = ignoreMerges
        self.addsBOSByDefault = addsBOS
    }

    /// Every name ContextKit accepts, for error messages.
    static var knownNames: [String] { all.flatMap(\.names).sorted() }

    /// Names llama.cpp knows but ContextKit does not implement, with the reason.
    static let unsupported: [String: String] = [
        "kimi-k2": "llama.cpp splits Kimi-K2 text with custom code, not a regex",
        "afmoe": "llama.cpp groups AFMoE digits with custom code, not a regex",
        "whitespace": "the whitespace tokenizer drops whitespace and lowercases, which ContextKit does not implement",
        "gemma4": "Gemma 4 vocabularies (BPE over raw UTF-8 with byte fallback) are not implemented yet",
        "granite-embed-multi-311m": "Gemma 4-style vocabularies are not implemented yet",
        "sarvam-moe": "Gemma 4-style vocabularies are not implemented yet"
    ]

    // The patterns, named after llama.cpp's pre types.
    private static let gpt2 = #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"#
    private static let llama3 = #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
    private static let qwen2 = #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
    private static let gpt4o =
        #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
    private static let poro = #" ?[^(\s|.,!?…。，、।۔،)]+"#
    private static let deepseek3 = ##"[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"##

    /// llama.cpp's table (src/llama-vocab.cpp), type by type.
    static let all: [LlamaPreType] = [
        LlamaPreType(["default"], [#"[\p{P}\$\+<=>\^~\|]+"#, gpt2, #"\p{N}+"#, "[0-9][0-9][0-9]"]),
        LlamaPreType(
            ["llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2", "jina-v5-nano"],
            [llama3], ignoreMerges: true, addsBOS: true),
        LlamaPreType(["dbrx", "smaug-bpe"], [llama3]),
        LlamaPreType(["glm4", "chatglm-bpe"], [llama3]),
        LlamaPreType(
            ["jais-2"],
            [
                #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s{512}(?!\S)|\s{256}(?!\S)|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1}"#
            ]),
        LlamaPreType(
            ["deepseek-llm"],
            [
                #"[\r\n]"#,
                #"\s?[A-Za-z\x{B5}\x{C0}-\x{D6}\x{D8}-\x{F6}\x{F8}-\x{1BA}\x{1BC}-\x{1BF}\x{1C4}-\x{293}\x{295}-\x{2AF}\x{370}-\x{373}\x{376}\x{377}\x{37B}-\x{37D}\x{37F}\x{386}\x{388}-\x{38A}\x{38C}\x{38E}-\x{3A1}\x{3A3}-\x{3F5}\x{3F7}-\x{481}\x{48A}-\x{52F}\x{531}-\x{556}\x{10A0}-\x{10C5}\x{13A0}-\x{13F5}\x{13F8}-\x{13FD}\x{1C90}-\x{1CBA}\x{1CBD}-\x{1CBF}\x{1D00}-\x{1D2B}\x{1D6B}-\x{1D77}\x{1D79}-\x{1D9A}\x{1E00}-\x{1F15}\x{1F18}-\x{1F1D}\x{1F20}-\x{1F45}\x{1F48}-\x{1F4D}\x{1F50}-\x{1F57}\x{1F59}\x{1F5B}\x{1F5D}\x{1F5F}-\x{1F7D}\x{1F80}-\x{1FB4}\x{1FB6}-\x{1FBC}\x{1FBE}\x{1FC2}-\x{1FC4}\x{1FC6}-\x{1FCC}\x{1FD0}-\x{1FD3}\x{1FD6}-\x{1FDB}\x{1FE0}-\x{1FEC}\x{1FF2}-\x{1FF4}\x{1FF6}-\x{1FFC}\x{2102}\x{2107}\x{210A}-\x{2113}\x{2115}\x{2119}-\x{211D}\x{2124}\x{2126}\x{2128}\x{212A}-\x{212D}\x{212F}-\x{2134}\x{2139}\x{213C}-\x{213F}\x{2145}-\x{2149}\x{214E}\x{2183}\x{2184}\x{2C00}-\x{2C7B}\x{2C7E}-\x{2CE4}\x{2CEB}-\x{2CEE}\x{2CF2}\x{2CF3}\x{A640}-\x{A66D}\x{A680}-\x{A69B}\x{A722}-\x{A76F}\x{A771}-\x{A787}\x{A78B}-\x{A78E}\x{AB70}-\x{ABBF}\x{FB00}-\x{FB06}\x{FB13}-\x{FB17}\x{FF21}-\x{FF3A}\x{FF41}-\x{FF5A}\x{10400}-\x{1044F}\x{104B0}-\x{104D3}\x{104D8}-\x{104FB}\x{10C80}-\x{10CB2}\x{10CC0}-\x{10CF2}\x{118A0}-\x{118DF}\x{1E900}-\x{1E943}]+"#,
                #"\s?[!-/:-~！-／：-～‘-‟　-。]+"#,
                #"\s+$"#,
                #"[一-龥ࠀ-一가-퟿]+"#,
                #"\p{N}+"#
            ]),
        LlamaPreType(["deepseek-coder"], [#"[\r\n]"#, #"\s?\p{L}+"#, #"\s?\p{P}+"#, #"[一-龥ࠀ-一가-퟿]+"#, #"\p{N}"#]),
        LlamaPreType(["deepseek-v3", "hunyuan-dense", "joyai-llm", "hy_v4"], [#"\p{N}{1,3}"#, #"[一-龥぀-ゟ゠-ヿ]+"#, deepseek3]),
        LlamaPreType(
            ["spark2_5"],
            [
                #"\p{N}{1,3}"#, #"[一-龥぀-ゟ゠-ヿ]+"#,
                ##"[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+|[\r\n]|\s+(?!\S)|\s+"##,
                #"\p{N}"#
            ]),
        LlamaPreType(
            ["youtu"],
            [
                #"[가-힣ㄱ-ㆎ]+|[！…“”‘’—：；，、-〿︰-﹏]+|[ㄅ-ㄯ]+|[一-龥぀-ゟ゠-ヿ]+"#,
                #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
            ],
            ignoreMerges: true),
        LlamaPreType(["falcon"], [#"[\p{P}\$\+<=>\^~\|`]+"#, gpt2, "[0-9][0-9][0-9]"]),
        LlamaPreType(["starcoder", "refact", "command-r", "smollm", "codeshell", "exaone", "minerva-7b", "mellum2"], [#"\p{N}"#, gpt2]),
        LlamaPreType(
            [
                "gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de", "a.x-4.0", "mellum",
                "modern-bert", "jina-v1-en", "jina-v2-code", "roberta-bpe", "exaone4", "mpt", "olmo", "jais",
                "trillion", "granite-docling"
            ], [gpt2]),
        LlamaPreType(["qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "megrez", "stablelm2", "hunyuan", "solar-open"], [qwen2]),
        LlamaPreType(["grok-2"], [qwen2]),
        LlamaPreType(["qwen35"], [#"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#]),
        LlamaPreType(["poro-chat", "bloom", "gpt3-finnish"], [poro]),
        LlamaPreType(["viking"], [poro, #"\p{N}"#]),
        LlamaPreType(
            ["tekken"],
            [
                #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
            ],
            ignoreMerges: true, addsBOS: true),
        LlamaPreType(
            ["chameleon"],
            [
                #"<sentinel:[0-9]+>"#, #"(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z"#, #"([\t\n]|    |  )"#, #"\p{N}"#,
                #"[\p{P}!-/:-@\[-`{-~]"#, #"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"#
            ],
            addsBOS: true),
        LlamaPreType(["gpt-4o", "llama4", "kanana2", "talkie", "minimax-m2"], [gpt4o]),
        LlamaPreType(
            ["granite-embed-multi-97m"],
            [
                #"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"#
            ],
            ignoreMerges: true),
        LlamaPreType(["tiny_aya", "cohere2moe"], [#"\d{1,3}(?=(?:\d{3})*\b)"#, gpt4o]),
        LlamaPreType(["superbpe"], [#"\p{N}+"#, #"(?=(\d{3})+(?!\d))"#]),
        LlamaPreType(["bailingmoe", "bailingmoe2", "llada-moe"], [#"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+"#]),
        LlamaPreType(["seed-coder"], [#"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+"#]),
        LlamaPreType(["ufakzeka"], [#"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#]),
        LlamaPreType(["laguna"], [#"[^\n]+|[\n]+"#, qwen2]),
        LlamaPreType(
            ["exaone-moe"], [#"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+"#]),
        LlamaPreType(
            ["minicpm5"], [#"\p{N}{1,3}"#, #"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"#],
            ignoreMerges: true)
    ]

    /// The split steps: scanners for the well-known patterns, ICU for the rest.
    func steps() throws -> [SplitStep] {
        try patterns.map { try SplitStep.split(pattern: $0) }
    }
}
