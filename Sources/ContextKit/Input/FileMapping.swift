import CMappedFile

/// A large regular file mapped read-only for `ChunkReader`, which then hands
/// out chunks that point into the mapping instead of copying the file out
/// with `read(2)` (why: `ChunkReader`'s notes). Guarded: a page lost to a
/// truncation while the file is counted reads as zeros and marks the mapping
/// (`lostPages`), so that input fails instead of the process ending with
/// SIGBUS.
package final class FileMapping: @unchecked Sendable {
    // @unchecked Sendable: the bytes are read-only and the guard's state is atomic in C.
    /// The file's first `count` bytes.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The open file, kept open while any chunk of it is in use.
    private let source: FileByteSource

    /// Maps the first `count` bytes of `fd`, `source`'s descriptor; nil when
    /// they cannot be mapped (the caller reads the file instead).
    init?(source: FileByteSource, descriptor fd: Int32, count: Int) {
        guard count > 0, let start = ck_map_guarded(fd, count) else { return nil }
        bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
        self.source = source
    }

    /// Throws the file's "shrank" error when a page was lost to a truncation
    /// (read as zeros) or the file is now shorter than it was when mapped
    /// (the bytes past its new end in its last page read as zeros with no
    /// fault). Sees every fault that happened on any thread before the call.
    func checkUnchanged() throws {
        if ck_guarded_pages_lost(bytes.baseAddress) != 0 { throw source.shrank() }
        try source.checkUnshrunk()
    }

    /// Unmaps the whole pages before `end` once the chunks up to there are
    /// counted (chunks are released in order; pages unmapped already are
    /// skipped), so memory stays at the chunks
    /// in flight however large the file. Unmapped rather than dropped with
    /// `madvise(MADV_DONTNEED)`: on this machine's Linux 6.18, pages dropped
    /// that way past the first 24 MiB of a 100 MB file were mapped again
    /// (the mapping's RSS reached 53 MB three quarters through; `tokcount
    /// -j 1` on it peaked at 111 MB against 39 MB reading it).
    func release(before end: Int) {
        ck_unmap_guarded_prefix(bytes.baseAddress, end)
    }

    deinit { ck_unmap_guarded(bytes.baseAddress) }
}
