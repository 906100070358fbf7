#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// What `ck_ascii_blocks` found in the bytes it scanned.
typedef struct {
    /// Bytes scanned, every one ASCII and none NUL.
    size_t scanned;
    /// Line feeds among them.
    size_t newlines;
    /// Offset of the last of those line feeds, or -1 when there is none.
    ptrdiff_t last_newline;
} ck_ascii_run;

/// Scans `bytes` 64 at a time, counting line feeds, and stops at the first
/// byte that is not ASCII or is a NUL, or at the last block of fewer than 64
/// bytes: the caller reads those its own way. Uses SSE2 on x86-64 and NEON
/// on arm64 (both in every such CPU, so no run-time dispatch), the portable
/// path elsewhere.
ck_ascii_run ck_ascii_blocks(const uint8_t *bytes, size_t count);

/// The same scan eight bytes at a time in plain C: what other CPUs run, and
/// what tests compare the vector paths against.
ck_ascii_run ck_ascii_blocks_portable(const uint8_t *bytes, size_t count);

#endif
