import Foundation

/// GGUF files for tests of profiles read from a model file.
public enum GGUFFixtures {
    /// llama.cpp's GPT-2 vocabulary test file: a `gpt2.context_length`
    /// (1,024) but no chat template.
    public static let gpt2Vocabulary = TestRepository.gguf.appendingPathComponent("ggml-vocab-gpt-2.gguf")

    /// Writes the GPT-2 vocabulary with its `gpt2.context_length` key renamed
    /// (one letter, so the header stays valid) to `url`: a GGUF that gives no window.
    public static func writeVocabularyWithoutContextLength(to url: URL) throws {
        var data = try Data(contentsOf: gpt2Vocabulary)
        guard let key = data.range(of: Data("gpt2.context_length".utf8)) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: gpt2Vocabulary.path])
        }
        data[key.upperBound - 1] = UInt8(ascii: "X")
        try data.write(to: url)
    }
}
