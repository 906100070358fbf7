#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Render

/// Where bytes come from: a file, standard input, a pipe.
package protocol ByteSource {
    /// Fills the start of `buffer`; returns how many bytes, 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// The whole source mapped, when it is a regular file of at least
    /// `minimum` bytes that nothing has been read from yet and mapping works;
    /// nil to be read instead.
    mutating func mapping(atLeast minimum: Int) -> FileMapping?
}

extension ByteSource {
    package mutating func mapping(atLeast minimum: Int) -> FileMapping? { nil }
}

/// A file descriptor read with `read(2)`, in whatever sizes the kernel gives,
/// or, for a large regular file, mapped (`mapping(atLeast:)`).
///
/// A plain mapping of a file that another process truncates while it is
/// counted ends the whole process with SIGBUS when its lost pages are
/// touched (`tokcount a.txt f b.txt` with `f` cut from 300 to 150 MB mid-run:
/// signal 7, nothing printed, `a.txt` and `b.txt` lost too), so the mapping
/// is guarded (`FileMapping`) and a truncation is that input's error, as a
/// read past the new end is on the read path. Memory stays at
/// `ChunkReader`'s blocks in flight either way.
package final class FileByteSource: ByteSource {
    private let fd: Int32
    private let owned: Bool
    package let path: String
    /// Bytes still to read of a regular file: its size when it was opened. A
    /// file that grows while it is read (a log being written) is counted as it
    /// was then, rather than chased to whatever end it reaches; one that ends
    /// before (truncated meanwhile) is an error, not a smaller count.
    private var remaining: Int?
    /// The size of a regular file when it was opened.
    private var openedSize = 0

    /// Opens `path` for reading; the error names the path and the reason.
    package init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        self.fd = fd
        self.owned = true
        self.path = path
        var status = stat()
        // Size 0 says nothing for files the kernel makes up as they are read (/proc).
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 {
            remaining = Int(status.st_size)
            openedSize = Int(status.st_size)
        }
    }

    /// Reads a descriptor that is already open (standard input is `0`).
    package init(descriptor: Int32, name: String) {
        fd = descriptor
        owned = false
        path = name
    }

    deinit { if owned { close(fd) } }

    package func mapping(atLeast minimum: Int) -> FileMapping? {
        guard let remaining, remaining == openedSize, openedSize >= minimum else { return nil }
        return FileMapping(source: self, descriptor: fd, count: openedSize)
    }

    /// Throws when the file is now smaller than when it was opened.
    func checkUnshrunk() throws {
        var status = stat()
        if fstat(fd, &status) == 0, Int(status.st_size) < openedSize { throw shrank() }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = min(buffer.count, remaining ?? .max)
        guard wanted > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
                let n = Glibc.read(fd, buffer.baseAddress, wanted)
            #else
                let n = Darwin.read(fd, buffer.baseAddress, wanted)
            #endif
            if n > 0 || (n == 0 && remaining == nil) {
                remaining? -= n
                return n
            }
            if n == 0 { throw shrank() }
            if errno == EINTR { continue }
            throw InputError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

extension FileByteSource {
    /// The error for a regular file that ended before the size it had when
    /// opened: another process truncated or rewrote it while it was counted.
    func shrank() -> InputError {
        var status = stat()
        let now = fstat(fd, &status) == 0 ? " to \(NumberFormat.grouped(Int(status.st_size))) bytes" : ""
        return InputError(
            path: path,
            reason: "the file shrank\(now) while it was being counted (it had \(NumberFormat.grouped(openedSize)) bytes when opened); "
                + "count it again once nothing is writing to it")
    }
}

/// An input that could not be read, with the reason in the user's words.
package struct InputError: Error, Equatable, CustomStringConvertible, Sendable {
    package let path: String
    package let reason: String
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    package var description: String { "\(path): \(reason)" }
}
