// CByteScan's vector path against its portable path and a byte-at-a-time
// reference, on random buffers at every alignment: what
// scripts/check-kernel-tiers runs here and under QEMU for the NEON path.
#include "CByteScan.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same(ck_ascii_run a, size_t scanned, size_t newlines, ptrdiff_t last) {
    return a.scanned == scanned && a.newlines == newlines && a.last_newline == last;
}

int main(void) {
    static uint8_t buffer[1 << 16];
    int failures = 0;
    srand(7);
    for (int round = 0; round < 20000; round++) {
        size_t count = (size_t)rand() % (round % 10 == 0 ? 40000 : 900);
        int odd = rand() % 4 == 0 ? 0 : rand() % 3 == 0 ? 20 : 1;  // per mille: NUL or not ASCII
        int feeds = rand() % 4 == 0 ? 3 : 60;                      // per mille: line feeds
        size_t offset = (size_t)rand() % 16;
        for (size_t k = 0; k < count; k++) {
            int r = rand() % 1000;
            buffer[offset + k] = r < feeds ? '\n' : r < feeds + odd ? (r % 2 ? 0 : (uint8_t)(0x80 + rand() % 128)) : (uint8_t)(32 + rand() % 95);
        }
        const uint8_t *text = buffer + offset;
        size_t scanned = 0, newlines = 0;
        ptrdiff_t last = -1;
        while (scanned < count / 64 * 64 && text[scanned] != 0 && text[scanned] < 0x80) {
            if (text[scanned] == '\n') {
                newlines++;
                last = (ptrdiff_t)scanned;
            }
            scanned++;
        }
        ck_ascii_run vector = ck_ascii_blocks(text, count), portable = ck_ascii_blocks_portable(text, count);
        if (!same(vector, scanned, newlines, last) || !same(portable, scanned, newlines, last)) {
            if (++failures <= 5)
                printf("round %d (%zu bytes at offset %zu): expected %zu/%zu/%td, vector %zu/%zu/%td, portable %zu/%zu/%td\n", round, count, offset,
                       scanned, newlines, last, vector.scanned, vector.newlines, vector.last_newline, portable.scanned, portable.newlines,
                       portable.last_newline);
        }
    }
    printf("%d of 20000 buffers differ\n", failures);
    return failures != 0;
}
