import Foundation

extension Tokenizer {
    /// Reads any tokenizer file ContextKit understands, recognised by its
    /// content rather than its name: a GGUF model (by its `GGUF` magic bytes; only
    /// the header is read, however large the model), a SentencePiece `.model`
    /// (a protobuf `ModelProto`, by its first piece), a Hugging Face
    /// `tokenizer.json` or a Mistral tekken file (JSON objects, told apart by
    /// their keys), or a `.tiktoken` vocabulary (lines of
    /// `base64 rank`). A `.tiktoken` file that is one of the built-in encodings
    /// gets that encoding's pattern and special tokens; any other is split with
    /// cl100k's pattern.
    ///
    /// - Throws: `ModelFileError` when the file is of no known format, is
    ///   truncated, or holds a tokenizer ContextKit does not implement;
    ///   `TokenKitError.unreadableFile` or `.malformedVocabulary` when it
    ///   cannot be read or a `.tiktoken` line is broken.
    public static func load(contentsOf url: URL) throws -> Tokenizer {
        try load(contentsOf: url, cache: .standard)
    }

    /// `load(contentsOf:)`, with the prepared tables of merge-list model files
    /// (GGUF `gpt2` and `gemma4`, Hugging Face BPE) kept in `cache`.
    static func load(contentsOf url: URL, cache: ModelFileCache) throws -> Tokenizer {
        let file = try MappedFile(path: url.path)
        let bytes = file.bytes
        if GGUFFile.hasMagic(bytes) { return try GGUFFile(file: file).tokenizer(cache: cache) }
        if SentencePieceModelFile.hasSignature(bytes) {
            return try withExtendedLifetime(file) {
                try SentencePieceModelFile(bytes: bytes, path: url.path).tokenizer(bytes: bytes)
            }
        }
        let firstVisible = bytes.prefix(4096).first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if firstVisible == UInt8(ascii: "{") {
            return try JSONModelFile.tokenizer(file: file, name: url.lastPathComponent, cache: cache)
        }
        if looksLikeTiktoken(bytes) {
            let checksum = Vocabulary.hash(bytes.bindMemory(to: UInt8.self).baseAddress!, bytes.count)
            if let builtIn = OpenAIEncoding.withOwnRanks.first(where: { $0.shippedChecksum == checksum }) {
                return try builtIn.tokenizer()
            }
            let vocabulary = try TiktokenFile.parse(bytes, path: url.path)
            return try Tokenizer(name: url.lastPathComponent, vocabulary: vocabulary, preTokenizer: .cl100k, specialTokens: [:])
        }
        if bytes.count >= 1, bytes.count < 4, bytes.elementsEqual(GGUFFile.magic.prefix(bytes.count)) {
            throw ModelFileError.truncated(path: url.path, reason: "it has only \(bytes.count) bytes of a GGUF header")
        }
        throw ModelFileError.unrecognizedFormat(path: url.path)
    }

    /// What the tokenizer is, for people: `tiktoken BPE`, or for a model file
    /// its algorithm and pre-tokenizer (`byte-level BPE, llama.cpp pre-tokenizer qwen2`).
    public var modelDescription: String {
        switch model {
        case .tiktoken: return "tiktoken BPE"
        case .openModel(let pipeline): return pipeline.summary
        }
    }

    /// The first line is `base64 rank`.
    private static func looksLikeTiktoken(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let line = bytes.prefix(256).prefix { $0 != 0x0A }
        guard let space = line.firstIndex(of: 0x20), space > line.startIndex, space < line.endIndex - 1 else { return false }
        let base64 = line[line.startIndex..<space], rank = line[(space + 1)...]
        let isBase64 = base64.allSatisfy { b in
            (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2B || b == 0x2F || b == 0x3D
        }
        return isBase64 && rank.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x0D }
    }
}
