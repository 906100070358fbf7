import Foundation
import Testing
@testable import ContextKit

@Suite struct FileByteSourceTests {
    func readAll(_ source: FileByteSource) throws -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { return all }
            all += buffer[..<n]
        }
    }

    @Test func aFileThatGrowsAfterOpeningIsReadAsItWasWhenOpened() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("grows-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "a"), count: 1000).write(to: URL(fileURLWithPath: path))
        let source = try FileByteSource(path: path)
        let appender = try #require(FileHandle(forWritingAtPath: path))
        try appender.seekToEnd()
        try appender.write(contentsOf: Data(repeating: UInt8(ascii: "b"), count: 5000))
        try appender.close()
        let read = try readAll(source)
        #expect(read.count == 1000 && read.allSatisfy { $0 == UInt8(ascii: "a") })
    }

    @Test func aFileOfSizeZeroAtOpeningIsReadToItsEnd() throws {
        // Files under /proc say 0 bytes and have content.
        let read = try readAll(try FileByteSource(path: "/proc/self/status"))
        #expect(String(decoding: read, as: UTF8.self).contains("Name:"))
    }
}
