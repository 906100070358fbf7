#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TokenKit

/// Where bytes come from: a file, standard input, a pipe.
package protocol ByteSource {
    /// Fills the start of `buffer`; returns how many bytes, 0 at the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// The whole input mapped into memory, when it is a regular file that
    /// could be mapped: `ChunkReader` then hands out slices of it instead of
    /// reading copies. Nil for pipes, terminals and what cannot be mapped.
    var mapping: MappedFile? { get }
}

extension ByteSource {
    /// Read in chunks, unless the source says otherwise.
    package var mapping: MappedFile? { nil }
}

/// A file descriptor read with `read(2)`, in whatever sizes the kernel gives.
package final class FileByteSource: ByteSource {
    private let fd: Int32
    private let owned: Bool
    package let path: String
    /// Bytes still to read of a regular file: its size when it was opened. A
    /// file that grows while it is read (a log being written) is counted as it
    /// was then, rather than chased to whatever end it reaches.
    private var remaining: Int?

    /// Files of at least this many bytes are mapped rather than read. A small
    /// file is one read into one buffer of its size, cheaper than setting up
    /// and tearing down a mapping (which a folder of thousands of files would
    /// pay per file); past a block (`StreamCounter`'s 4 MiB) the copy and the
    /// fresh pages of every block's buffer are what mapping saves.
    package static let mappingThreshold = 1 << 20

    /// Opens `path` for reading; the error names the path and the reason.
    /// A regular file of `mappingFrom` bytes or more is mapped.
    package init(path: String, mappingFrom: Int = FileByteSource.mappingThreshold) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        self.fd = fd
        self.owned = true
        self.path = path
        var status = stat()
        // Size 0 says nothing for files the kernel makes up as they are read (/proc).
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 {
            remaining = Int(status.st_size)
            // Counted in place: no copy into buffers, no buffer to allocate per
            // chunk. A file that cannot be mapped is read as before.
            // Known risk, as for any tool that maps its input (ripgrep maps large
            // files too): a file truncated by another process while it is counted
            // ends the process with SIGBUS when its lost pages are read.
            if status.st_size >= mappingFrom { mapping = try? MappedFile(descriptor: fd, path: path) }
        }
    }

    /// The file mapped as it was when opened (its size then), if it is a regular file.
    package private(set) var mapping: MappedFile?

    /// Reads a descriptor that is already open (standard input is `0`).
    package init(descriptor: Int32, name: String) {
        fd = descriptor
        owned = false
        path = name
    }

    deinit { if owned { close(fd) } }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = min(buffer.count, remaining ?? .max)
        guard wanted > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(fd, buffer.baseAddress, wanted)
            #else
            let n = Darwin.read(fd, buffer.baseAddress, wanted)
            #endif
            if n >= 0 {
                remaining? -= n
                return n
            }
            if errno == EINTR { continue }
            throw InputError(path: path, reason: String(cString: strerror(errno)))
        }
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
