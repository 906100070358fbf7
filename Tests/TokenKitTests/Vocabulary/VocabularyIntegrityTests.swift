import Foundation
import TestSupport
import Testing
@testable import TokenKit

@Suite("Vocabulary files")
struct VocabularyIntegrityTests {
    @Test("shipped files match the SHA-256 in PROVENANCE.md", arguments: OpenAIEncoding.withOwnRanks)
    func provenance(encoding: OpenAIEncoding) throws {
        let provenance = try String(contentsOf: TestRepository.root.appendingPathComponent("Sources/TokenKit/Resources/PROVENANCE.md"), encoding: .utf8)
        let row = try #require(provenance.split(separator: "\n").first { $0.hasPrefix("| \(encoding.rawValue).tiktoken |") })
        let expected = row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
        let url = try #require(encoding.resourceURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.hasPrefix(expected + " "))
    }

    @Test(
        "shipped files load with the token counts tiktoken reports",
        arguments: [
            (OpenAIEncoding.cl100k_base, 100_256), (.o200k_base, 199_998), (.r50k_base, 50_256), (.p50k_base, 50_280)
        ])
    func tokenCounts(encoding: OpenAIEncoding, tokens: Int) throws {
        #expect(try encoding.tokenizer().vocabulary.tokenCount == tokens)
    }

    func parse(_ text: String) throws -> Vocabulary {
        try Array(text.utf8).withUnsafeBytes { try TiktokenFile.parse($0, path: "test.tiktoken") }
    }

    @Test("a damaged line is refused, naming the file and the line")
    func damagedLines() throws {
        #expect(throws: TokenKitError.malformedVocabulary(path: "test.tiktoken", line: 2, reason: "invalid base64")) {
            try parse("YQ== 0\nY!== 1\n")
        }
        #expect(throws: TokenKitError.malformedVocabulary(path: "test.tiktoken", line: 3, reason: "expected 'base64 rank'")) {
            try parse("YQ== 0\nYg== 1\nYw==\n")
        }
        #expect(throws: TokenKitError.malformedVocabulary(path: "test.tiktoken", line: 2, reason: "the rank is not a whole number")) {
            try parse("YQ== 0\nYg== x1\n")
        }
        #expect(throws: TokenKitError.malformedVocabulary(path: "test.tiktoken", line: 2, reason: "token 0 repeats the bytes of an earlier token")) {
            _ = try parse("YQ== 1\nYQ== 0\n")
        }
        #expect(throws: TokenKitError.malformedVocabulary(path: "test.tiktoken", line: 1, reason: "the file has no tokens")) {
            try parse("")
        }
        let message = TokenKitError.malformedVocabulary(path: "v.tiktoken", line: 7, reason: "invalid base64").description
        #expect(message.hasPrefix("v.tiktoken:7: invalid base64"))
    }

    @Test("a repeated rank is refused")
    func repeatedRank() {
        #expect(throws: TokenKitError.self) { try parse("YQ== 0\nYg== 0\n") }
    }

    @Test("a vocabulary without every single byte is not byte-level BPE and is refused")
    func missingBytes() throws {
        let vocabulary = try parse("YQ== 0\nYg== 1\n")
        #expect(throws: TokenKitError.self) {
            try Tokenizer(name: "tiny", vocabulary: vocabulary, preTokenizer: .cl100k, specialTokens: [:])
        }
    }

    @Test("a .tiktoken file of the user's loads and encodes like the built-in one")
    func userFile() throws {
        let url = try #require(OpenAIEncoding.cl100k_base.resourceURL)
        let tokenizer = try Tokenizer(contentsOf: url, preTokenizer: .cl100k)
        #expect(tokenizer.encodeOrdinary("hello world") == [15339, 1917])
    }

    @Test("an altered built-in file is refused by its checksum")
    func alteredFile() throws {
        let url = try #require(OpenAIEncoding.cl100k_base.resourceURL)
        var data = try Data(contentsOf: url)
        data[data.count / 2] ^= 0x01
        #expect(throws: TokenKitError.self) {
            try OpenAIEncoding.cl100k_base.verifyShippedChecksum(of: data, path: "cl100k_base.tiktoken")
        }
        try OpenAIEncoding.cl100k_base.verifyShippedChecksum(of: Data(contentsOf: url), path: "cl100k_base.tiktoken")
    }

    @Test("a missing file is an error naming the path")
    func missingFile() {
        #expect(throws: TokenKitError.self) {
            try Tokenizer(contentsOf: URL(fileURLWithPath: "/nonexistent/x.tiktoken"))
        }
    }

    /// The prepared form remembers the identity its source had when it was
    /// verified, so a later load can skip reading the source; the header's
    /// checksum covers it, so a damaged identity is a damaged file.
    @Test("the cache keeps the verified source's identity")
    func cacheKeepsTheVerifiedSourceIdentity() throws {
        let vocabulary = try parse("YQ== 0\nYg== 1\nYWI= 2\n")
        let name = "test-\(UUID().uuidString)"
        let checksum: UInt64 = 0x1234_5678
        let url = try #require(VocabularyCache.url(name: name, sourceChecksum: checksum))
        defer { try? FileManager.default.removeItem(at: url) }
        let identity = try #require(FileIdentity(path: #filePath))
        VocabularyCache.store(vocabulary, name: name, sourceChecksum: checksum, verifiedSource: identity)
        let loaded = try #require(VocabularyCache.load(name: name, sourceChecksum: checksum))
        #expect(loaded.verifiedSource == identity)
        #expect(loaded.vocabulary.tokenCount == 3)
        #expect(VocabularyCache.load(name: name, sourceChecksum: checksum + 1) == nil)

        var bytes = [UInt8](try Data(contentsOf: url))
        bytes[VocabularyCache.sourceIdentityWords.lowerBound * 8] ^= 1
        try Data(bytes).write(to: url)
        #expect(VocabularyCache.load(name: name, sourceChecksum: checksum) == nil)
    }
}
