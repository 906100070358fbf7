import Foundation
import Testing
import TestSupport

/// tokcount given inputs that are not well-behaved files: each ends, within a
/// deadline, with a count or a message naming the path. (Invalid UTF-8, NUL
/// bytes, permission errors and a link to itself named directly are in
/// `TokcountTests`.) Every run here is killed at its deadline, so a hang is
/// a failure, not a stuck suite.
@Suite struct BadInputTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
        /// Killed at the deadline: the read did not end by itself.
        var killed: Bool
    }

    static let deadline: TimeInterval = 30

    /// The `inputs` of a `--json` report.
    static func inputs(_ run: Run) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return json?["inputs"] as? [[String: Any]] ?? []
    }

    /// Runs tokcount under coreutils' `timeout -s KILL`: a timer inside this
    /// process could starve behind the other tests' blocked threads.
    func tokcount(_ arguments: [String], deadline: TimeInterval = deadline) throws -> Run {
        let scratch = try TempDir()
        let out = scratch.url.appendingPathComponent("out"), err = scratch.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", String(Int(deadline)), ToolRunner.productsDirectory.appendingPathComponent("tokcount").path] + arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        process.waitUntilExit()
        let status = process.terminationStatus
        return Run(
            status: status, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self), seconds: Date().timeIntervalSince(start),
            killed: status == 124 || status == 137)
    }

    @Test func aSymbolicLinkLoopInAFolderIsReportedAndTheWalkEnds() throws {
        let dir = try TempDir()
        try dir.write("tree/a.txt", "hello world")
        try FileManager.default.createSymbolicLink(atPath: dir.path("tree/up"), withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: dir.path("tree/self"), withDestinationPath: "self")
        try FileManager.default.createSymbolicLink(atPath: dir.path("tree/ping"), withDestinationPath: "pong")
        try FileManager.default.createSymbolicLink(atPath: dir.path("tree/pong"), withDestinationPath: "ping")
        let r = try tokcount(["--json", "-e", "cl100k_base", dir.path("tree")])
        #expect(!r.killed)
        #expect(r.stderr.contains("\(dir.path("tree/self")): Too many levels of symbolic links"))
        #expect(r.stderr.contains("\(dir.path("tree/ping")): Too many levels of symbolic links"))
        let counted = try Self.inputs(r).filter { $0["status"] as? String == "counted" }
        #expect(counted.map { $0["path"] as? String } == [dir.path("tree/a.txt")])
        #expect(counted.first?["tokens"] as? Int == 2)
    }

    @Test func aFIFONamedDirectlyIsReadAsAStream() throws {
        let dir = try TempDir()
        let fifo = dir.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data("hello world".utf8))
            try? handle.close()
        }
        writer.start()
        let r = try tokcount(["--json", "-e", "cl100k_base", fifo])
        #expect(!r.killed && r.status == 0)
        #expect(try Self.inputs(r).first?["tokens"] as? Int == 2)
    }

    @Test func aFIFOInAFolderIsSkippedNotWaitedOn() throws {
        let dir = try TempDir()
        try dir.write("tree/a.txt", "hello world")
        #expect(mkfifo(dir.path("tree/pipe"), 0o600) == 0)  // no writer: opening it would block forever
        let r = try tokcount(["--json", "-e", "cl100k_base", dir.path("tree")], deadline: 20)
        #expect(!r.killed && r.status == 0)
        #expect(try Self.inputs(r).map { $0["path"] as? String } == [dir.path("tree/a.txt")])
    }

    @Test func devZeroIsRefusedAsADevice() throws {
        let r = try tokcount(["/dev/zero"], deadline: 20)
        #expect(!r.killed && r.status == 1)
        #expect(r.stderr.contains("/dev/zero: a device, not a file"))
    }

    /// `--binary` lifts the NUL check, so nothing but the read itself can stop;
    /// an endless device must be refused, not counted until memory or patience ends.
    @Test func devZeroWithBinaryIsRefusedNotReadForever() throws {
        let r = try tokcount(["--binary", "/dev/zero"], deadline: 20)
        #expect(!r.killed, "still reading /dev/zero after \(Int(r.seconds)) s")
        #expect(r.status == 1 && r.stderr.contains("/dev/zero: a device, not a file"))
    }

    /// A log file still being written: the count is of the file as it was
    /// when tokcount opened it, and ends even if the writer never stops.
    @Test func aFileGrowingWhileReadEnds() throws {
        let dir = try TempDir()
        let path = try dir.write("growing.log", String(repeating: "a line of a log file that keeps growing\n", count: 25_000))
        let stop = Locked(false)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            _ = try? handle.seekToEnd()
            let block = Data(String(repeating: "another line appended while tokcount reads\n", count: 24_000).utf8)
            var written = 0
            // Bounded: at most 1 GB, and until the test says stop.
            while !stop.value && written < 1 << 30 {
                handle.write(block)
                written += block.count
            }
            try? handle.close()
        }
        writer.start()
        let r = try tokcount(["--json", "-e", "cl100k_base", path], deadline: 20)
        stop.value = true
        #expect(!r.killed, "still reading after \(Int(r.seconds)) s")
        // Exactly the size at open is `FileByteSourceTests`' to check: here the
        // moment of opening races the writer.
        let bytes = try #require(try Self.inputs(r).first?["bytes"] as? Int)
        #expect(bytes >= 1_000_000, "counted \(bytes) bytes of a file that had 1,000,000 before tokcount started")
    }

    @Test func aTextFileCutInsideACharacterIsCountedWithAWarning() throws {
        let dir = try TempDir()
        let file = try dir.write("cut.txt", Data(Array("prix: 5 ".utf8) + [0xE2, 0x82]))  // "€" cut after two of its three bytes
        let r = try tokcount(["-e", "cl100k_base", file])
        #expect(r.status == 0)
        #expect(r.stderr.contains("\(file): invalid UTF-8 at byte offset 8"))
    }

    @Test func aTruncatedVocabularyOrModelFileIsNamedWithWhatIsWrong() throws {
        let dir = try TempDir()
        let text = try dir.write("t.txt", "hello")
        let tiktoken = try dir.write("cut.tiktoken", "IQ== 0\nIg== 1\nIw")
        let r = try tokcount(["-e", tiktoken, text])
        #expect(r.status == 2)
        #expect(r.stderr.contains("cut.tiktoken:3"), "\(r.stderr)")
        let gguf = try dir.write("cut.gguf", Data(Array("GGUF".utf8) + [3, 0, 0, 0, 0, 0]))
        let g = try tokcount(["-e", gguf, text])
        #expect(g.status == 2)
        #expect(g.stderr.contains("truncated"), "\(g.stderr)")
    }
}

/// A value shared with a writer thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
