import Foundation
import TestSupport
import Testing
@testable import TokenKit

/// `SHA256` against FIPS 180-4's examples, `sha256sum` on every length
/// around the padding boundaries, and the digests PROVENANCE.md records
/// for the shipped vocabularies.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    ])
    func theStandardsExamples(message: String, digest: String) {
        #expect(SHA256.hex(message.utf8) == digest)
    }

    @Test func aMillionAsFedInPieces() {
        var hash = SHA256()
        for _ in 0..<1000 { hash.update([UInt8](repeating: 0x61, count: 1000)) }
        #expect(hash.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func everyLengthUpTo200AgreesWithSha256sum() throws {
        let scratch = try TempDir()
        var generator = SystemRandomNumberGenerator()
        var expected: [String: String] = [:]
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let name = "m\(length)"
            _ = try scratch.write(name, Data(bytes))
            expected[scratch.path(name)] = SHA256.hex(bytes)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = expected.keys.sorted()
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = output.split(separator: "\n")
        #expect(lines.count == 201)
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1)
            let path = String(parts[1].drop(while: { $0 == " " || $0 == "*" }))
            #expect(expected[path] == String(parts[0]), "\(path)")
        }
    }

    @Test(arguments: OpenAIEncoding.withOwnRanks) func theShippedVocabulariesHaveTheirRecordedDigests(encoding: OpenAIEncoding) throws {
        let provenance = try String(contentsOf: TestRepository.root.appendingPathComponent("Sources/TokenKit/Resources/PROVENANCE.md"), encoding: .utf8)
        let row = try #require(provenance.split(separator: "\n").first { $0.hasPrefix("| \(encoding.rawValue).tiktoken |") })
        let recorded = row.split(separator: "|")[1].trimmingCharacters(in: .whitespaces)
        let data = try Data(contentsOf: try #require(encoding.resourceURL))
        #expect(SHA256.hex(data) == recorded)
    }

    @Test func theDigestLeavesTheHashAsItWas() {
        var hash = SHA256()
        hash.update("ab".utf8)
        _ = hash.digest()
        hash.update("c".utf8)
        #expect(hash.hexDigest() == SHA256.hex("abc".utf8))
    }
}
