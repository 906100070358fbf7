#ifndef CMAPPEDFILE_H
#define CMAPPEDFILE_H

#include <stddef.h>

/// Maps the first `length` bytes of the regular file open as `fd` read-only,
/// and guards the mapping: if another process truncates the file meanwhile,
/// touching a page past its new end maps a page of zeros there and marks the
/// mapping (`ck_guarded_pages_lost`) instead of ending the process with
/// SIGBUS. The first call installs the SIGBUS handler; faults outside every
/// guarded mapping go to the handler that was there before, or end the
/// process as they would have. Returns NULL when the file cannot be mapped
/// or 64 guarded mappings are live already: the caller then reads instead.
const void *ck_map_guarded(int fd, size_t length);

/// Whether a page of this guarded mapping was lost to a truncation (and read
/// as zeros). Answers for faults on any thread that happened before the call.
int ck_guarded_pages_lost(const void *mapping);

/// Unmaps the whole pages of a guarded mapping before byte `end` (the rest
/// of the page that holds `end` stays), and stops guarding them: a file read
/// through once holds only the pages still in use. Pages already unmapped
/// are skipped, so calls may come in any order.
void ck_unmap_guarded_prefix(const void *mapping, size_t end);

/// Unmaps what is left of a mapping from `ck_map_guarded` and stops guarding it.
void ck_unmap_guarded(const void *mapping);

#endif
