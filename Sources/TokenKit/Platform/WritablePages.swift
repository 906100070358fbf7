import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Maps pages of memory now, written, instead of as each is first touched:
/// one system call instead of a fault per page.
///
/// - A memo's tables (`PieceCache.Storage`): a set is read before it is
///   written, so a page touched lazily is mapped twice: to the kernel's
///   shared zero page on the read, then to a page of its own on the first
///   write, and that second fault flushes the page's old mapping from every
///   core running the process. With `tokcount -j 2`, each of the two
///   workers' memos paid an inter-processor interrupt for each of its 1,024
///   table pages: `perf` put 3.5% of a 100 MB count in `native_write_msr`
///   under `do_wp_page` (`bench/run`'s "2 cores" row).
/// - The ids of a long text (`IDCollector.collect`): a first encode of 10 MB
///   of English writes 17 MB of ids to fresh pages. Mapped ahead for one id
///   per four bytes of text, `tokbench cl100k_base encode` (median of 7
///   processes, one CPU) took its first call 37.1 → 34.9 ms, with warm calls
///   (whose pages the allocator reuses) unchanged.
///
/// Where the kernel cannot (before Linux 5.14, or elsewhere), pages stay lazy.
enum WritablePages {
    /// Maps the whole pages of `start..<start + count`.
    static func map(_ start: UnsafeMutableRawPointer, _ count: Int) {
        #if os(Linux)
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let from = (Int(bitPattern: start) + page - 1) / page * page
            let to = (Int(bitPattern: start) + count) / page * page
            guard to > from, let first = UnsafeMutableRawPointer(bitPattern: from) else { return }
            _ = madvise(first, to - from, MADV_POPULATE_WRITE)
        #endif
    }
}
