import ContextKitJSON

/// The tokenizer files written as JSON: a Hugging Face `tokenizer.json` and a
/// Mistral tekken file. Parsed once, then told apart by their keys, since
/// neither has a fixed name (`tekken.json`, `tekken_240911.json`, …).
enum JSONModelFile {
    /// The file's JSON object; `path` names it in errors.
    ///
    /// - Throws: `ModelFileError.malformed` with the line, column and byte of
    ///   invalid JSON, or when the document is not an object.
    static func parseObject(_ bytes: UnsafeRawBufferPointer, path: String) throws -> OrderedJSON {
        let root: OrderedJSON
        do {
            root = try JSONParser.parse(bytes.bindMemory(to: UInt8.self))
        } catch {
            throw ModelFileError.malformed(path: path, reason: "invalid JSON at line \(error.line), column \(error.column) (byte \(error.byteOffset)): \(error.reason)")
        }
        guard root.members != nil else { throw ModelFileError.malformed(path: path, reason: "it is not a JSON object") }
        return root
    }

    /// The tokenizer of a mapped JSON tokenizer file. When `cache` has the
    /// tables of this version of the file, the `model` section is stepped
    /// over instead of parsed (it is most of the file) and the rest read as
    /// usual; otherwise the file is read whole and a BPE model's tables stored.
    static func tokenizer(file: MappedFile, name: String, cache: ModelFileCache) throws -> Tokenizer {
        if let cached = cache.load(for: file),
            let root = try? JSONParser.parseObject(file.bytes.bindMemory(to: UInt8.self), omitting: "model"), !TekkenFile.isTekken(root)
        {
            file.release(file.base, file.count)  // read once, to step over; not needed again
            return try HuggingFaceTokenizerFile.Reader(path: file.path, root: root).tokenizer(name: name, cached: cached)
        }
        let root = try parseObject(file.bytes, path: file.path)
        if TekkenFile.isTekken(root) { return try TekkenFile.tokenizer(root: root, path: file.path, name: name) }
        return try HuggingFaceTokenizerFile.Reader(path: file.path, root: root).tokenizer(name: name, cache: cache, file: file)
    }

    /// The tokenizer of a JSON tokenizer file: tekken when it has tekken's
    /// `config` and `vocab`, else a Hugging Face tokenizer.json.
    static func tokenizer(json bytes: UnsafeRawBufferPointer, path: String, name: String) throws -> Tokenizer {
        let root = try parseObject(bytes, path: path)
        if TekkenFile.isTekken(root) { return try TekkenFile.tokenizer(root: root, path: path, name: name) }
        return try HuggingFaceTokenizerFile.tokenizer(root: root, path: path, name: name)
    }
}
