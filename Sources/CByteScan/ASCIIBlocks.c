// The ASCII fast path of ContextKit's TextStats: line feeds counted 64 bytes
// a step. Swift's SIMD types do not lower to vector compares and mask
// extraction on this toolchain (`pointwiseMin` stays a call and `any` a loop
// over lanes), hence this file. Performance notes: TextStats.swift.
#include "CByteScan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__) || defined(_M_ARM64)
#include <arm_neon.h>
#define CK_NEON 1
#endif

/// The exact place of the last line feed in the 64-byte block at `block`,
/// which holds one.
static ptrdiff_t last_feed_in_block(const uint8_t *bytes, ptrdiff_t block) {
    ptrdiff_t k = block + 63;
    while (bytes[k] != '\n') k--;
    return k;
}

/// Ends a scan whose blocks before `at` were clean and whose block at `at`
/// is not: counts that block's line feeds up to its first byte that is not
/// ASCII or is NUL, and stops there. The vector paths call it once per stop.
static ck_ascii_run finish(const uint8_t *bytes, size_t at, size_t newlines, ptrdiff_t last_block) {
    ck_ascii_run run = {at, newlines, last_block >= 0 ? last_feed_in_block(bytes, last_block) : -1};
    while (bytes[run.scanned] != 0 && bytes[run.scanned] < 0x80) {
        if (bytes[run.scanned] == '\n') {
            run.newlines++;
            run.last_newline = (ptrdiff_t)run.scanned;
        }
        run.scanned++;
    }
    return run;
}

ck_ascii_run ck_ascii_blocks_portable(const uint8_t *bytes, size_t count) {
    const uint64_t high = 0x8080808080808080ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    const uint64_t feeds = 0x0A0A0A0A0A0A0A0Aull;
    size_t newlines = 0;
    ptrdiff_t last_block = -1;
    size_t i = 0;
    for (; i + 64 <= count; i += 64) {
        uint64_t w[8];
        uint64_t any_high = 0, all_nonzero = high;
        for (int k = 0; k < 8; k++) {
            // Byte order does not matter: every test below is per byte.
            uint64_t x;
            __builtin_memcpy(&x, bytes + i + 8 * k, 8);
            w[k] = x;
            any_high |= x;
            // In an ASCII word adding 0x7F sets a byte's high bit unless the byte is zero.
            all_nonzero &= x + low7;
        }
        if ((any_high & high) != 0 || all_nonzero != high) return finish(bytes, i, newlines, last_block);
        size_t lines = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t marks = ~((w[k] ^ feeds) + low7) & high;
            lines += (size_t)(((marks >> 7) * 0x0101010101010101ull) >> 56);
        }
        newlines += lines;
        if (lines != 0) last_block = (ptrdiff_t)i;
    }
    ck_ascii_run run = {i, newlines, last_block >= 0 ? last_feed_in_block(bytes, last_block) : -1};
    return run;
}

#if defined(__SSE2__)
/// The 64 bits of a block's four 16-byte masks, byte k's bit at k.
static inline uint64_t mask64(__m128i a, __m128i b, __m128i c, __m128i d) {
    return (uint64_t)(uint16_t)_mm_movemask_epi8(a) | (uint64_t)(uint16_t)_mm_movemask_epi8(b) << 16
        | (uint64_t)(uint16_t)_mm_movemask_epi8(c) << 32 | (uint64_t)(uint16_t)_mm_movemask_epi8(d) << 48;
}

ck_ascii_run ck_ascii_blocks(const uint8_t *bytes, size_t count) {
    const __m128i feed = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    size_t newlines = 0;
    ptrdiff_t last_block = -1;
    size_t i = 0;
    while (i + 64 <= count) {
        // Byte lanes count line feeds, at most four a block, so they are
        // summed into the total every 63 blocks, before one can overflow.
        __m128i lanes = zero;
        for (int blocks = 0; blocks < 63 && i + 64 <= count; blocks++, i += 64) {
            const __m128i *p = (const __m128i *)(bytes + i);
            __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1);
            __m128i c = _mm_loadu_si128(p + 2), d = _mm_loadu_si128(p + 3);
            __m128i high = _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d));
            __m128i nul = _mm_cmpeq_epi8(_mm_min_epu8(_mm_min_epu8(a, b), _mm_min_epu8(c, d)), zero);
            __m128i fa = _mm_cmpeq_epi8(a, feed), fb = _mm_cmpeq_epi8(b, feed);
            __m128i fc = _mm_cmpeq_epi8(c, feed), fd = _mm_cmpeq_epi8(d, feed);
            if (_mm_movemask_epi8(_mm_or_si128(high, nul)) != 0) {
                // The exact stop from the block's masks, and the line feeds before it.
                __m128i sums = _mm_sad_epu8(lanes, zero);
                newlines += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
                uint64_t stops = mask64(a, b, c, d)
                    | mask64(_mm_cmpeq_epi8(a, zero), _mm_cmpeq_epi8(b, zero), _mm_cmpeq_epi8(c, zero), _mm_cmpeq_epi8(d, zero));
                int stop = __builtin_ctzll(stops);
                uint64_t before = mask64(fa, fb, fc, fd) & ((1ull << stop) - 1);
                ck_ascii_run run = {i + (size_t)stop, newlines + (size_t)__builtin_popcountll(before), -1};
                if (before != 0) run.last_newline = (ptrdiff_t)i + 63 - __builtin_clzll(before);
                else if (last_block >= 0) run.last_newline = last_feed_in_block(bytes, last_block);
                return run;
            }
            // A match is -1 in its lane: subtracting the sum adds the count.
            lanes = _mm_sub_epi8(lanes, _mm_add_epi8(_mm_add_epi8(fa, fb), _mm_add_epi8(fc, fd)));
            int any = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(fa, fb), _mm_or_si128(fc, fd)));
            last_block = any ? (ptrdiff_t)i : last_block;
        }
        __m128i sums = _mm_sad_epu8(lanes, zero);
        newlines += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
    ck_ascii_run run = {i, newlines, last_block >= 0 ? last_feed_in_block(bytes, last_block) : -1};
    return run;
}
#elif defined(CK_NEON)
ck_ascii_run ck_ascii_blocks(const uint8_t *bytes, size_t count) {
    const uint8x16_t feed = vdupq_n_u8('\n');
    size_t newlines = 0;
    ptrdiff_t last_block = -1;
    size_t i = 0;
    while (i + 64 <= count) {
        // As in the SSE2 path: byte lanes summed every 63 blocks.
        uint8x16_t lanes = vdupq_n_u8(0);
        for (int blocks = 0; blocks < 63 && i + 64 <= count; blocks++, i += 64) {
            uint8x16_t a = vld1q_u8(bytes + i), b = vld1q_u8(bytes + i + 16);
            uint8x16_t c = vld1q_u8(bytes + i + 32), d = vld1q_u8(bytes + i + 48);
            uint8x16_t largest = vmaxq_u8(vmaxq_u8(a, b), vmaxq_u8(c, d));
            uint8x16_t smallest = vminq_u8(vminq_u8(a, b), vminq_u8(c, d));
            if (vmaxvq_u8(largest) >= 0x80 || vminvq_u8(smallest) == 0) {
                return finish(bytes, i, newlines + vaddlvq_u8(lanes), last_block);
            }
            uint8x16_t fa = vceqq_u8(a, feed), fb = vceqq_u8(b, feed);
            uint8x16_t fc = vceqq_u8(c, feed), fd = vceqq_u8(d, feed);
            lanes = vsubq_u8(lanes, vaddq_u8(vaddq_u8(fa, fb), vaddq_u8(fc, fd)));
            int any = vmaxvq_u8(vorrq_u8(vorrq_u8(fa, fb), vorrq_u8(fc, fd))) != 0;
            last_block = any ? (ptrdiff_t)i : last_block;
        }
        newlines += vaddlvq_u8(lanes);
    }
    ck_ascii_run run = {i, newlines, last_block >= 0 ? last_feed_in_block(bytes, last_block) : -1};
    return run;
}
#else
ck_ascii_run ck_ascii_blocks(const uint8_t *bytes, size_t count) {
    return ck_ascii_blocks_portable(bytes, count);
}
#endif
