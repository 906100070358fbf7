import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file mapped read-only into memory. Pages are read from disk only
/// when touched, so opening a model of several gigabytes to read its header
/// costs the same as opening a small file.
final class MappedFile: @unchecked Sendable {
    let path: String
    let base: UnsafeRawPointer
    let count: Int
    private let mapping: UnsafeMutableRawPointer?

    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw TokenKitError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw TokenKitError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw TokenKitError.unreadableFile(path: path, reason: "not a regular file")
        }
        count = Int(info.st_size)
        if count == 0 {
            mapping = nil
            base = UnsafeRawPointer(bitPattern: 1)!   // never read: every read is bounds-checked against count
            return
        }
        let p = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let p, p != MAP_FAILED else {
            throw TokenKitError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        mapping = p
        base = UnsafeRawPointer(p)
    }

    deinit {
        if let mapping { munmap(mapping, count) }
    }

    /// The first `n` bytes (fewer if the file is shorter).
    func prefix(_ n: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: min(n, count))
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
