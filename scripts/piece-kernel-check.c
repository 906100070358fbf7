// CPieceKernel's baseline tier (SSE2 on x86-64, NEON on arm64) and, where
// the CPU has them, its AVX2 and AVX-512 tiers, against the portable tier, on random bytes:
// what scripts/check-kernel-tiers runs here and, for the NEON tier, which an
// x86-64 machine cannot run natively, under QEMU. The portable tier is the one the Swift
// tests compare with the scanners and the encoders (`PieceKernelTests`); this
// harness holds the vector tiers to it, cut for cut, count for count and id
// for id, with an empty table and with one that holds most pieces.
#include "CPieceKernel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef ck_count_result (*count_entry)(const ck_piece_table *, const ck_piece_pattern *, const uint8_t *, size_t,
                                       size_t, size_t, size_t *, size_t);
typedef ck_encode_result (*encode_entry)(const ck_piece_table *, const ck_piece_pattern *, const uint8_t *, size_t,
                                         size_t, size_t, int64_t *, size_t);

/// ASCII classes close to the scanners' (the harness compares tiers with
/// each other, so only that every class occurs matters).
static void init_pattern(ck_piece_pattern *p, int variant) {
    uint8_t ascii[128];
    for (int b = 0; b < 128; b++) {
        ascii[b] = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ? CK_CLASS_LETTER
                   : b >= '0' && b <= '9'                             ? CK_CLASS_DIGIT
                   : b == '\n' || b == '\r'                           ? CK_CLASS_NEWLINE
                   : b == ' '                                         ? CK_CLASS_SPACE
                   : b == '\t' || b == '\v' || b == '\f'              ? CK_CLASS_BLANK
                   : b == '\''                                        ? CK_CLASS_APOSTROPHE
                                                                      : CK_CLASS_OTHER;
    }
    ck_piece_pattern_init(p, ascii);
    // cl100k, Qwen 2, o200k and tekken's ways.
    p->max_digits = variant % 2 ? 1 : 3;
    p->trailing_run_is_one_piece = variant == 0;
    p->cased_words = variant >= 2;
    p->contractions = variant == 3 ? CK_CONTRACTIONS_NONE : variant == 2 ? CK_CONTRACTIONS_AFTER_WORDS : CK_CONTRACTIONS_FIRST;
    p->slashes_trail_punctuation = variant >= 2;
}

/// Text drawn from a small alphabet that reaches every rule: words of any
/// letters in both cases, contractions, digits, whitespace of each kind,
/// punctuation, any ASCII byte and, now and then, a byte from 0x80.
static void random_text(uint8_t *t, size_t n, int high_per_mille) {
    static const char *parts[] = {"the", " cat", "'s", "'LL", "'ve", "'ll", " 's", " 12345", "1234567890", "7", "  ", "\t",
                                  "\f", "\v", "\n", "\r", "\r\n", " \n ", "\n \n", "  \n\t \n   ", ".", ",", ".\n", "... ",
                                  " --", "/", "//\n", "\n/", ".\n/\n", "'", "Hello", "WORLD", "camelCase", "aB", "x", " ",
                                  "    ", "!?"};
    size_t i = 0;
    while (i < n) {
        if (rand() % 1000 < high_per_mille) {
            t[i++] = (uint8_t)(0x80 + rand() % 128);
            continue;
        }
        if (rand() % 10 == 0) {
            t[i++] = (uint8_t)(rand() % 128);  // any ASCII byte
            continue;
        }
        if (rand() % 4 == 0) {
            // A word of any letters, either case, up to 20 long.
            for (int k = rand() % 20; k >= 0 && i < n; k--) t[i++] = (uint8_t)((rand() % 2 ? 'a' : 'A') + rand() % 26);
            continue;
        }
        const char *part = parts[rand() % (sizeof parts / sizeof parts[0])];
        for (size_t k = 0; part[k] && i < n; k++) t[i++] = (uint8_t)part[k];
    }
}

static uint32_t hash_piece(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 16777619u;
    return h;
}

/// Keeps every piece the portable tier cuts from `t`, with a made-up count
/// (1 to 6: some more than the table has ids for) and ids from its bytes.
static void fill_table(ck_piece_table *table, const ck_piece_pattern *p, const uint8_t *t, size_t n) {
    size_t misses[2 * 64];
    size_t i = 0;
    while (i < n) {
        ck_count_result r = ck_count_pieces_portable(table, p, t, i, n, (size_t)-1, misses, 64);
        for (size_t k = 0; k < r.misses; k++) {
            size_t a = misses[2 * k], b = misses[2 * k + 1];
            if (b - a > CK_PIECE_TABLE_LONGEST_PIECE) continue;
            uint32_t h = hash_piece(t + a, b - a), ids[CK_PIECE_TABLE_IDS];
            for (int j = 0; j < CK_PIECE_TABLE_IDS; j++) ids[j] = h + (uint32_t)j;
            ck_piece_table_keep(table, t + a, b - a, (uint8_t)(1 + h % 6), ids);
        }
        i = r.position;
        if (r.stop == CK_COUNT_UNDECIDED) i++;  // past the byte from 0x80, not to a piece start: only pieces to keep
    }
}

static int same_count(count_entry a, count_entry b, const ck_piece_table *table, const ck_piece_pattern *p,
                      const uint8_t *t, size_t n, size_t pause_every) {
    size_t ma[2 * 16], mb[2 * 16];
    size_t i = 0;
    while (i < n) {
        size_t pause = pause_every ? i + pause_every : (size_t)-1;
        ck_count_result ra = a(table, p, t, i, n, pause, ma, 16), rb = b(table, p, t, i, n, pause, mb, 16);
        if (ra.position != rb.position || ra.misses != rb.misses || ra.tokens != rb.tokens || ra.stop != rb.stop ||
            memcmp(ma, mb, 2 * ra.misses * sizeof ma[0]) != 0) {
            printf("count differs from %zu: position %zu/%zu, misses %zu/%zu, tokens %zu/%zu, stop %d/%d\n", i,
                   ra.position, rb.position, ra.misses, rb.misses, ra.tokens, rb.tokens, ra.stop, rb.stop);
            return 0;
        }
        // Past a piece the kernel hands back, as the caller's scanner would
        // go: one byte on is enough to keep comparing.
        i = ra.position + (ra.stop == CK_COUNT_UNDECIDED || (ra.stop == CK_COUNT_PAUSED && ra.position == i));
    }
    return 1;
}

static int same_encode(encode_entry a, encode_entry b, const ck_piece_table *table, const ck_piece_pattern *p,
                       const uint8_t *t, size_t n, size_t capacity) {
    static int64_t ia[4096], ib[4096];
    size_t i = 0;
    while (i < n) {
        memset(ia, 0xff, sizeof ia);
        memset(ib, 0xff, sizeof ib);
        ck_encode_result ra = a(table, p, t, i, n, (size_t)-1, ia, capacity);
        ck_encode_result rb = b(table, p, t, i, n, (size_t)-1, ib, capacity);
        if (ra.position != rb.position || ra.written != rb.written || ra.stop != rb.stop ||
            (ra.stop == CK_ENCODE_MISS && ra.miss_end != rb.miss_end) ||
            memcmp(ia, ib, ra.written * sizeof ia[0]) != 0) {
            printf("encode differs from %zu: position %zu/%zu, written %zu/%zu, stop %d/%d\n", i, ra.position,
                   rb.position, ra.written, rb.written, ra.stop, rb.stop);
            return 0;
        }
        if (ra.written > capacity) {
            printf("encode wrote %zu ids into room for %zu\n", ra.written, capacity);
            return 0;
        }
        i = ra.stop == CK_ENCODE_MISS ? ra.miss_end : ra.position + (ra.stop == CK_ENCODE_UNDECIDED);
    }
    return 1;
}

int main(void) {
    enum { sets_log2 = 8, rounds = 3000 };
    static ck_piece_set sets[1 << sets_log2];
    static uint8_t text[1 << 14];
    ck_piece_table table = {sets, sets_log2};
    count_entry counts[3] = {ck_count_pieces, ck_count_avx2_available() ? ck_count_pieces_avx2 : NULL,
                             ck_count_avx512_available() ? ck_count_pieces_avx512 : NULL};
    encode_entry encodes[3] = {ck_encode_pieces, ck_count_avx2_available() ? ck_encode_pieces_avx2 : NULL,
                               ck_count_avx512_available() ? ck_encode_pieces_avx512 : NULL};
    const char *names[3] = {"baseline", "avx2", "avx512"};
    int failures = 0;
    srand(41);
    for (int round = 0; round < rounds && failures < 5; round++) {
        ck_piece_pattern pattern;
        init_pattern(&pattern, round % 4);
        size_t n = 1 + (size_t)rand() % (round % 10 == 0 ? sizeof text : 600);
        random_text(text, n, round % 3 == 0 ? 0 : round % 3 == 1 ? 5 : 80);
        memset(sets, 0, sizeof sets);
        if (round % 2) fill_table(&table, &pattern, text, n);
        for (int tier = 0; tier < 3; tier++) {
            if (!counts[tier]) continue;
            size_t pause_every = round % 5 == 0 ? 1 + (size_t)rand() % 40 : 0;
            size_t capacity = CK_PIECE_TABLE_IDS + (size_t)rand() % (round % 4 == 0 ? 8 : 4000);
            int ok = same_count(counts[tier], ck_count_pieces_portable, &table, &pattern, text, n, pause_every) &&
                     same_encode(encodes[tier], ck_encode_pieces_portable, &table, &pattern, text, n, capacity);
            if (!ok) {
                failures++;
                printf("round %d: the %s tier differs from the portable one (pattern %d, %zu bytes)\n", round,
                       names[tier], round % 4, n);
            }
        }
    }
    printf("%d of %d texts differ\n", failures, rounds);
    return failures != 0;
}
