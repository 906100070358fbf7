import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only into memory, unmapped when the last user
/// lets go. Pages are read from disk only when touched, so opening a model of
/// several gigabytes to read its header costs the same as opening a small
/// file; `readAhead` reads the whole file in at once instead, for a file that
/// is about to be read through (a prepared vocabulary, the class table).
///
/// The files mapped are never rewritten in place (the caches are replaced by
/// rename), so a mapping stays valid while it lives.
package final class MappedFile: @unchecked Sendable {
    // @unchecked Sendable: a read-only mapping of a file that is never rewritten in place (see above); every property is a constant.
    package let path: String
    package let base: UnsafeRawPointer
    package let count: Int
    private let mapping: UnsafeMutableRawPointer?
    /// Which file was mapped, and which version of it (from the open file, so
    /// it describes exactly the bytes mapped).
    let identity: FileIdentity

    /// Maps the file at `path`.
    ///
    /// - Throws: `TokenKitError.unreadableFile` when it cannot be opened, is
    ///   not a regular file, or cannot be mapped.
    package convenience init(path: String, readAhead: Bool = false) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw TokenKitError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        try self.init(descriptor: fd, path: path, readAhead: readAhead)
    }

    /// Maps the file open as `fd` (which stays the caller's to close); `path` names it.
    ///
    /// - Throws: `TokenKitError.unreadableFile` when it is not a regular file or cannot be mapped.
    package init(descriptor fd: Int32, path: String, readAhead: Bool = false) throws {
        self.path = path
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw TokenKitError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw TokenKitError.unreadableFile(path: path, reason: "not a regular file")
        }
        count = Int(info.st_size)
        identity = FileIdentity(info)
        if count == 0 {
            mapping = nil
            base = UnsafeRawPointer(bitPattern: 1)!  // never read: every read is bounds-checked against count
            return
        }
        #if os(Linux)
            let flags = readAhead ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE
        #else
            let flags = MAP_PRIVATE
        #endif
        let p = mmap(nil, count, PROT_READ, flags, fd, 0)
        guard let p, p != MAP_FAILED else {
            throw TokenKitError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        mapping = p
        base = UnsafeRawPointer(p)
    }

    deinit {
        if let mapping { munmap(mapping, count) }
    }

    /// Lets the kernel drop the pages of `count` bytes at `start` (inside the
    /// mapping) from this process: they stay in the page cache and are read
    /// back if touched again. Used after reading through a large part once
    /// (a checksum), so that peak memory is what is used, not what was checked.
    package func release(_ start: UnsafeRawPointer, _ count: Int) {
        guard let mapping else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let from = (start - UnsafeRawPointer(mapping) + page - 1) / page * page
        let to = min((start - UnsafeRawPointer(mapping) + count) / page * page, self.count / page * page)
        guard to > from else { return }
        madvise(mapping + from, to - from, MADV_DONTNEED)
    }

    /// The first `n` bytes (fewer if the file is shorter).
    func prefix(_ n: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base, count: min(n, count))
    }

    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}

/// What tells one version of a file from another without reading it: the
/// device and inode (which file), its size and its modification time to the
/// nanosecond (which version). Rewriting a file changes its modification
/// time, so a cache keyed by this (and the path) never serves an old version.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: UInt64
    var modifiedSeconds: UInt64
    var modifiedNanoseconds: UInt64

    /// The identity in a file's status.
    init(_ info: stat) {
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = UInt64(info.st_size)
        modifiedSeconds = UInt64(bitPattern: Int64(modified.tv_sec))
        modifiedNanoseconds = UInt64(modified.tv_nsec)
    }

    /// The identity of the file at `path` now; nil when it has none to give.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// Its five fields, in the order above, as a cache header stores them.
    var words: [UInt64] { [device, inode, size, modifiedSeconds, modifiedNanoseconds] }

    /// The identity a cache header stored as `words`; nil for five zeros (none stored).
    init?<Words: Collection>(words: Words) where Words.Element == UInt64 {
        let w = Array(words)
        guard w.count == 5, w.contains(where: { $0 != 0 }) else { return nil }
        (device, inode, size, modifiedSeconds, modifiedNanoseconds) = (w[0], w[1], w[2], w[3], w[4])
    }
}
