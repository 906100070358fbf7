@testable import ContextKit
import Foundation
import Testing
import TestSupport

@Suite struct FileMappingTests {
    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString).txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A mapped file is cut where the buffered path would test cuts: the
    /// chunks are the file's bytes in order, each ends at a safe cut, the
    /// counts add up to the whole text's, and a stretch with no cut (one
    /// letter repeated) is tested in linear work.
    @Test(arguments: PieceBoundaryEncodings.all)
    func mappedChunksAreTheFileCutWhereItIsSafe(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        var fuzz = TextFuzz(seed: 77)
        var text: [UInt8] = []
        while text.count < 300_000 { text += fuzz.text(fragments: 2_000) }
        text += [UInt8](repeating: UInt8(ascii: "a"), count: 200_000) + Array(" and after it.\n".utf8)
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try FileByteSource(path: path)
        var reader = ChunkReader(source: source, boundary: PieceBoundary(tokenizer.preTokenizer), blockSize: 1 << 12, mapFrom: 1)
        var joined: [UInt8] = [], tokens = 0, chunks = 0
        while let chunk = try reader.next() {
            defer { chunk.release() }
            #expect(chunk.isMapped)
            let copy = Array(chunk.text)
            try chunk.checkUnchanged()
            tokens += tokenizer.count(utf8: chunk.text)
            joined += copy
            chunks += 1
        }
        #expect(joined == text)
        #expect(chunks > 50)
        #expect(tokens == text.withUnsafeBufferPointer { tokenizer.count(utf8: $0) })
        #expect(reader.work.positionsTested <= 2 * text.count, "tested \(reader.work.positionsTested) positions")
        #expect(reader.work.bytesMoved == 0)
    }

    /// Files under the size to map, and standard input, are read as before.
    @Test func smallFilesAreRead() throws {
        let path = try temporaryFile(Array("small text\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = ChunkReader(source: try FileByteSource(path: path), boundary: nil)
        let chunk = try #require(try reader.next())
        defer { chunk.release() }
        #expect(!chunk.isMapped && chunk.count == 11)
    }

    /// Another process truncates a mapped file while it is counted: touching
    /// the lost pages would end the process with SIGBUS. The guard maps
    /// zeros there instead and the chunk's check fails with the "shrank"
    /// error, whether the cut takes whole pages (they fault) or only part of
    /// the last one (no fault: the size check catches it).
    @Test(arguments: [1 << 20, (4 << 20) - 100])
    func aTruncatedMappedFileFailsInsteadOfEndingTheProcess(newSize: Int) throws {
        let text = [UInt8]((0..<(4 << 20)).map { UInt8(ascii: $0 % 61 == 60 ? "\n" : "x") })
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tokenizer = try Tokenizer.named("cl100k_base")
        var reader = ChunkReader(source: try FileByteSource(path: path), boundary: PieceBoundary(tokenizer.preTokenizer), blockSize: 1 << 16, mapFrom: 1)
        let first = try #require(try reader.next())
        #expect(first.isMapped)
        try first.checkUnchanged()
        first.release()
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(newSize))
        try handle.close()
        var failure: InputError?
        var zeros = 0
        while let chunk = try reader.next() {
            defer { chunk.release() }
            zeros += chunk.text.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }  // touches every page
            do { try chunk.checkUnchanged() } catch let error as InputError {
                failure = failure ?? error  // read on: every lost page is touched
            }
        }
        #expect(zeros > 0, "the lost bytes read as zeros")
        let error = try #require(failure)
        #expect(error.reason.contains("shrank") && error.reason.contains("4,194,304 bytes when opened"), "\(error)")
    }

    /// Cut and grown back to its size before the check (rewritten in place):
    /// the size looks right, but the pages touched while it was short read
    /// as zeros, and the guard remembers that they were lost.
    @Test func aFileCutAndGrownBackWhileMappedStillFails() throws {
        let text = [UInt8](repeating: UInt8(ascii: "y"), count: 4 << 20)
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = ChunkReader(source: try FileByteSource(path: path), boundary: nil, mapFrom: 1)
        let chunk = try #require(try reader.next())
        defer { chunk.release() }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 1 << 20)
        #expect(chunk.text[(3 << 20)...].allSatisfy { $0 == 0 })
        try handle.truncate(atOffset: UInt64(text.count))
        try handle.close()
        #expect(throws: InputError.self) { try chunk.checkUnchanged() }
    }

    /// An unchanged file passes every chunk's check.
    @Test func anUnchangedMappedFilePassesItsChecks() throws {
        let path = try temporaryFile([UInt8](repeating: UInt8(ascii: "b"), count: 100_000) + Array(" end".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = ChunkReader(source: try FileByteSource(path: path), boundary: nil, mapFrom: 1)
        let chunk = try #require(try reader.next())
        defer { chunk.release() }
        #expect(chunk.isMapped && chunk.isLast && chunk.count == 100_004)
        try chunk.checkUnchanged()
    }
}
