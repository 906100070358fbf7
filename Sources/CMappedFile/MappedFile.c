// Guarded file mappings for ContextKit's ChunkReader: tokcount counts a large
// file where the page cache holds it instead of copying it out with read(2),
// and a truncation while it counts is an error for that file rather than a
// SIGBUS for the whole process. Here in C because the handler must run no
// Swift (no retain, no allocation) inside a signal. Why and what it bought:
// ChunkReader.swift.
#include "CMappedFile.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

enum { slot_count = 64 };

/// One guarded mapping: `start` is 0 when the slot is free, and is written
/// after `length` (and cleared before the unmap), so the handler never sees
/// a start without its length. Its first `released` bytes are unmapped
/// already (raised before they are), and may hold someone else's mapping by
/// now: a fault there is not this slot's.
typedef struct {
    _Atomic(uintptr_t) start;
    _Atomic(size_t) length;
    _Atomic(size_t) released;
    atomic_int lost;
} guarded_slot;

static guarded_slot slots[slot_count];
static struct sigaction previous_action;
static uintptr_t page_size;
static int handler_installed;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_bus_error(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < slot_count; i++) {
        uintptr_t start = atomic_load(&slots[i].start);
        if (start == 0 || address < start) continue;
        size_t offset = address - start;
        if (offset < atomic_load(&slots[i].released) || offset >= atomic_load(&slots[i].length)) continue;
        // mmap is a plain system call: safe here, though POSIX does not list it.
        void *page = (void *)(address & ~(page_size - 1));
        if (mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            atomic_store(&slots[i].lost, 1);
            return;  // the faulting load runs again and reads zeros
        }
        break;
    }
    // Not a guarded page: whoever handled SIGBUS before does (Swift's
    // backtracer, say), or the default action ends the process when the
    // fault repeats.
    if (previous_action.sa_flags & SA_SIGINFO) {
        previous_action.sa_sigaction(signal, info, context);
    } else if (previous_action.sa_handler == SIG_DFL || previous_action.sa_handler == SIG_IGN) {
        struct sigaction fallback = {0};
        fallback.sa_handler = SIG_DFL;
        sigaction(SIGBUS, &fallback, NULL);
    } else {
        previous_action.sa_handler(signal);
    }
}

static void install_handler(void) {
    page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct sigaction action = {0};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    handler_installed = sigaction(SIGBUS, &action, &previous_action) == 0;
}

static guarded_slot *slot_of(const void *mapping) {
    for (int i = 0; i < slot_count; i++) {
        if (atomic_load(&slots[i].start) == (uintptr_t)mapping) return &slots[i];
    }
    return NULL;
}

const void *ck_map_guarded(int fd, size_t length) {
    if (length == 0) return NULL;
    pthread_once(&install_once, install_handler);
    if (!handler_installed) return NULL;
    void *mapping = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping == MAP_FAILED) return NULL;
    pthread_mutex_lock(&slot_lock);
    guarded_slot *slot = slot_of(NULL);
    if (slot != NULL) {
        atomic_store(&slot->lost, 0);
        atomic_store(&slot->released, 0);
        atomic_store(&slot->length, length);
        atomic_store(&slot->start, (uintptr_t)mapping);
    }
    pthread_mutex_unlock(&slot_lock);
    if (slot == NULL) {
        munmap(mapping, length);
        return NULL;
    }
    return mapping;
}

int ck_guarded_pages_lost(const void *mapping) {
    guarded_slot *slot = slot_of(mapping);
    return slot != NULL && atomic_load(&slot->lost);
}

void ck_unmap_guarded_prefix(const void *mapping, size_t end) {
    pthread_mutex_lock(&slot_lock);
    guarded_slot *slot = slot_of(mapping);
    if (slot != NULL) {
        size_t from = atomic_load(&slot->released);
        size_t to = end / page_size * page_size;
        if (to > from) {
            atomic_store(&slot->released, to);
            munmap((char *)mapping + from, to - from);
        }
    }
    pthread_mutex_unlock(&slot_lock);
}

void ck_unmap_guarded(const void *mapping) {
    pthread_mutex_lock(&slot_lock);
    guarded_slot *slot = slot_of(mapping);
    if (slot != NULL) {
        size_t from = atomic_load(&slot->released), length = atomic_load(&slot->length);
        atomic_store(&slot->start, 0);
        if (length > from) munmap((char *)mapping + from, length - from);
    }
    pthread_mutex_unlock(&slot_lock);
}
