// The piece kernel of the OpenAI-style patterns: cuts ASCII text into pieces
// exactly as `Cl100kScanner`, `Llama3Scanner`, `Qwen2Scanner`,
// `O200kScanner` and `TekkenScanner` do, and adds each piece's token count
// (`ck_count_pieces`) or writes its ids (`ck_encode_pieces`) from a memo
// keyed by the piece's bytes. Anything it cannot settle from ASCII bytes
// alone (a byte from 0x80 where the pattern looks), and any piece the memo
// lacks, goes back to the caller, which decides it with the scanner and the
// encoder. Tests compare it with them (`PieceKernelTests`).
//
// Why C: the loop is small enough to stay in registers only when the piece
// logic, the key and the probe are compiled together, and Swift keeps every
// variable shift behind `cl` and spills the loop (PieceCache's notes,
// issue 41). No compiler flag: x86-64's SSE2 and arm64's NEON are in every
// such CPU.

#include "CPieceKernel.h"

#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <emmintrin.h>
#include <immintrin.h>
#define CK_HAVE_SSE2 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#include <arm_neon.h>
#define CK_HAVE_NEON 1
#endif

#define CK_INLINE static inline __attribute__((always_inline))

/// The class `classify_window` gives an ASCII byte.
static uint8_t window_class(int b) {
    if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')) return CK_CLASS_LETTER;
    if (b >= '0' && b <= '9') return CK_CLASS_DIGIT;
    if (b == '\n' || b == '\r') return CK_CLASS_NEWLINE;
    if (b == ' ') return CK_CLASS_SPACE;
    if (b == '\t' || b == '\v' || b == '\f') return CK_CLASS_BLANK;
    if (b == '\'') return CK_CLASS_APOSTROPHE;
    return CK_CLASS_OTHER;
}

void ck_piece_pattern_init(ck_piece_pattern *pattern, const uint8_t ascii_classes[128]) {
    pattern->windows = 1;
    for (int b = 0; b < 256; b++) {
        pattern->classes[b] = b < 128 ? ascii_classes[b] : CK_CLASS_HIGH;
        if (b < 128 && ascii_classes[b] != window_class(b)) pattern->windows = 0;
    }
}

CK_INLINE uint64_t load_le64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

// ---------------------------------------------------------------------------
// Runs of ASCII letters: the one run long enough to be worth a vector.

/// The tiers, each a build of the same loops: plain C; SSE2 (x86-64) or
/// NEON (arm64); and, on x86-64, AVX2 and AVX-512BW, which classify a window
/// with wider vectors and otherwise run the SSE2 code, VEX- or EVEX-encoded.
enum { TIER_PORTABLE = 0, TIER_VECTOR = 1, TIER_AVX2 = 2, TIER_AVX512 = 3 };

/// Whether `b | fold` is one of the 26 letters from `first` ('a' or 'A').
CK_INLINE int in_run(uint8_t b, uint8_t fold, uint8_t first) { return (uint8_t)((b | fold) - first) < 26; }

/// The end of the run from `j` of the 26 letters from `first` ('a' or 'A'),
/// of either case with `fold` 0x20; eight bytes a step.
CK_INLINE size_t run_end_portable(const uint8_t *t, size_t j, size_t end, uint8_t fold, uint8_t first) {
    const uint64_t ones = 0x0101010101010101ull, high = ones * 0x80;
    while (j + 8 <= end) {
        uint64_t w = load_le64(t + j) | ones * fold;
        // Bit 7 of each byte's (b & 0x7f) + (0x80 - x) is set exactly when b >= x.
        uint64_t low7 = w & ~high;
        uint64_t from_first = low7 + ones * (uint8_t)(0x80 - first);
        uint64_t past_last = low7 + ones * (uint8_t)(0x80 - first - 26);
        uint64_t outside = (from_first & ~past_last & ~w & high) ^ high;
        if (outside) return j + (size_t)(__builtin_ctzll(outside) >> 3);
        j += 8;
    }
    while (j < end && in_run(t[j], fold, first)) j++;
    return j;
}

CK_INLINE size_t run_end(const uint8_t *t, size_t j, size_t end, int tier, uint8_t fold, uint8_t first) {
#if CK_HAVE_SSE2
    if (tier >= TIER_VECTOR) {
        const __m128i or_fold = _mm_set1_epi8((char)fold), a = _mm_set1_epi8((char)first), z = _mm_set1_epi8(25);
        while (j + 16 <= end) {
            __m128i y = _mm_sub_epi8(_mm_or_si128(_mm_loadu_si128((const __m128i *)(t + j)), or_fold), a);
            unsigned outside = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(y, z), y)) & 0xffff;
            if (outside) return j + (size_t)__builtin_ctz(outside);
            j += 16;
        }
    }
#elif CK_HAVE_NEON
    if (tier >= TIER_VECTOR) {
        const uint8x16_t or_fold = vdupq_n_u8(fold), a = vdupq_n_u8(first), z = vdupq_n_u8(26);
        while (j + 16 <= end) {
            uint8x16_t letters = vcltq_u8(vsubq_u8(vorrq_u8(vld1q_u8(t + j), or_fold), a), z);
            // Four bits per byte: the first non-letter's nibble is the first clear one.
            uint64_t nibbles = vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(letters), 4)), 0);
            if (~nibbles) return j + (size_t)(__builtin_ctzll(~nibbles) >> 2);
            j += 16;
        }
    }
#endif
    return run_end_portable(t, j, end, fold, first);
}

// ---------------------------------------------------------------------------
// Piece ends.

/// What `piece_end` returns when a byte from 0x80 decides the piece (a piece
/// end is never 0).
#define UNDECIDED 0

/// `\s*[\r\n]`, `\s+(?!\S)`, `\s` (and cl100k's `\s++$`) from the whitespace at `i`.
CK_INLINE size_t whitespace_piece_end(const ck_piece_pattern *p, const uint8_t *t, size_t i, size_t end) {
    size_t j = i, last_newline_end = 0;
    while (j < end) {
        uint8_t c = p->classes[t[j]];
        if (c == CK_CLASS_HIGH) return UNDECIDED;  // U+00A0, U+3000, ... are whitespace
        if (c != CK_CLASS_SPACE && c != CK_CLASS_BLANK && c != CK_CLASS_NEWLINE) break;
        if (c == CK_CLASS_NEWLINE) last_newline_end = j + 1;
        j++;
    }
    if (j == end && p->trailing_run_is_one_piece) return j;
    if (last_newline_end) return last_newline_end;
    if (j == end) return j;
    return j - i >= 2 ? j - 1 : j;  // leave one space for the next word
}

/// `[^\s\p{L}\p{N}]++[\r\n]*` from `j`, the run's second byte.
CK_INLINE size_t punctuation_piece_end(const ck_piece_pattern *p, const uint8_t *t, size_t j, size_t end) {
    while (j < end) {
        uint8_t c = p->classes[t[j]];
        if (c == CK_CLASS_HIGH) return UNDECIDED;  // may be punctuation
        if (c != CK_CLASS_OTHER && c != CK_CLASS_APOSTROPHE) break;
        j++;
    }
    while (j < end && (t[j] == '\n' || t[j] == '\r' || (p->slashes_trail_punctuation && t[j] == '/'))) j++;
    return j;
}

/// The length of the contraction at `j` (`'` then s, t, d, m, ll, ve or re,
/// in either case), 0 for none, or `UNDECIDED` (0 too, so see `*undecided`)
/// when a byte from 0x80 follows the apostrophe: `'ſ` folds to `'s`.
CK_INLINE size_t contraction_length(const uint8_t *t, size_t j, size_t end, int *undecided) {
    if (j + 1 >= end || t[j] != '\'') return 0;
    uint8_t second = t[j + 1];
    if (second >= 0x80) {
        *undecided = 1;
        return 0;
    }
    uint8_t l = second | 0x20;
    if (l == 's' || l == 't' || l == 'd' || l == 'm') return 2;
    if ((l == 'l' || l == 'v' || l == 'r') && j + 2 < end) {
        uint8_t l3 = t[j + 2] | 0x20;
        if ((l == 'l' && l3 == 'l') || (l == 'v' && l3 == 'e') || (l == 'r' && l3 == 'e')) return 3;
    }
    return 0;
}

/// The end of the word piece whose letters start at `s` (an ASCII letter).
/// cl100k's `\p{L}+` is `[A-Za-z]+`; o200k's `U*W+|U+W*` is `[A-Z]*[a-z]*`
/// (no ASCII letter is both, so neither gives a letter back), and then its
/// contraction. `UNDECIDED` when the run ends at a byte from 0x80.
CK_INLINE size_t word_piece_end(const ck_piece_pattern *p, const uint8_t *t, size_t s, size_t end, int tier, int cased) {
    size_t e;
    if (cased) {
        size_t u = (uint8_t)(t[s] - 'A') < 26 ? run_end(t, s + 1, end, tier, 0, 'A') : s;
        e = run_end(t, u, end, tier, 0, 'a');
    } else {
        e = run_end(t, s + 1, end, tier, 0x20, 'a');
    }
    if (e < end && t[e] >= 0x80) return UNDECIDED;
    if (p->contractions == CK_CONTRACTIONS_AFTER_WORDS) {
        int undecided = 0;
        size_t n = contraction_length(t, e, end, &undecided);
        if (undecided) return UNDECIDED;
        e += n;
    }
    return e;
}

/// The end of the piece that starts at `i` (< `end`), or `UNDECIDED`.
CK_INLINE size_t piece_end(const ck_piece_pattern *p, const uint8_t *t, size_t i, size_t end, int tier, int cased) {
    uint8_t c = p->classes[t[i]];
    size_t next = i + 1;
    if (c == CK_CLASS_LETTER) return word_piece_end(p, t, i, end, tier, cased);
    if (c == CK_CLASS_HIGH) return UNDECIDED;
    // One byte left is a piece of its own, whatever it is.
    if (next == end) return end;
    if (c == CK_CLASS_DIGIT) {
        size_t e = next;
        for (unsigned k = 1; k < p->max_digits && e < end; k++, e++) {
            uint8_t d = p->classes[t[e]];
            if (d == CK_CLASS_HIGH) return UNDECIDED;  // may be a digit
            if (d != CK_CLASS_DIGIT) break;
        }
        return e;
    }
    if (c == CK_CLASS_NEWLINE) return whitespace_piece_end(p, t, i, end);
    uint8_t second = t[next];
    if (second >= 0x80) return UNDECIDED;
    if (c == CK_CLASS_APOSTROPHE && p->contractions == CK_CONTRACTIONS_FIRST) {
        // '(?i:[sdmt]|ll|ve|re) comes first. `second` is ASCII (tested above),
        // so the contraction is never undecided here.
        int undecided = 0;
        size_t n = contraction_length(t, i, end, &undecided);
        if (n) return i + n;
    }
    // `[^\r\n\p{L}\p{N}]?` then letters: space, blank, apostrophe or other.
    uint8_t d = p->classes[second];
    if (d == CK_CLASS_LETTER) return word_piece_end(p, t, next, end, tier, cased);
    // ` ?[^\s\p{L}\p{N}]+[\r\n]*` (or `[\r\n/]*`)
    int second_is_punctuation = d == CK_CLASS_OTHER || d == CK_CLASS_APOSTROPHE;
    if (c == CK_CLASS_OTHER || c == CK_CLASS_APOSTROPHE) return punctuation_piece_end(p, t, next, end);
    if (c == CK_CLASS_SPACE && second_is_punctuation) return punctuation_piece_end(p, t, next + 1, end);
    return whitespace_piece_end(p, t, i, end);
}

// ---------------------------------------------------------------------------
// Windows: every piece start of 64 bytes from their masks, with no branch
// per piece (issue 41, item 2; PEER-KERNEL.md's "piece starts by bit
// algebra"). Bit k of a mask is byte k of the window. The window starts at
// a piece start, and what the pattern cuts from there is what it cuts from
// a text that begins there (no pattern looks behind), so bit 0 needs no
// state from the bytes before it.

/// A window's bytes as masks.
typedef struct {
    uint64_t letter, upper, digit, space, whitespace, newline, apostrophe, slash, high;
} window_masks;

/// The bytes a window reads: its 64 and a key's 16 from its last byte.
#define WINDOW_READS 80

#if CK_HAVE_SSE2
/// Bytes of `v` from `first` to `first + count - 1`, unsigned, as all ones.
CK_INLINE __m128i bytes_in_range(__m128i v, uint8_t first, uint8_t count) {
    __m128i y = _mm_sub_epi8(v, _mm_set1_epi8((char)first));
    return _mm_cmpeq_epi8(_mm_min_epu8(y, _mm_set1_epi8((char)(count - 1))), y);
}

CK_INLINE uint64_t bits_of(__m128i lanes, int chunk) { return (uint64_t)(uint16_t)_mm_movemask_epi8(lanes) << (16 * chunk); }

CK_INLINE window_masks classify_window(const uint8_t *t, int cased, int slashes) {
    window_masks m = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(t + 16 * k));
        __m128i space = _mm_cmpeq_epi8(v, _mm_set1_epi8(' '));
        m.letter |= bits_of(bytes_in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 26), k);
        if (cased) m.upper |= bits_of(bytes_in_range(v, 'A', 26), k);
        m.digit |= bits_of(bytes_in_range(v, '0', 10), k);
        m.space |= bits_of(space, k);
        m.whitespace |= bits_of(_mm_or_si128(bytes_in_range(v, '\t', 5), space), k);
        m.newline |= bits_of(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))), k);
        m.apostrophe |= bits_of(_mm_cmpeq_epi8(v, _mm_set1_epi8('\'')), k);
        if (slashes) m.slash |= bits_of(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')), k);
        m.high |= bits_of(v, k);
    }
    return m;
}

/// The same with two 32-byte compares a mask (the AVX2 tier's).
__attribute__((target("avx2"))) static void classify_window_avx2(const uint8_t *t, int cased, int slashes,
                                                                  window_masks *m) {
#define CK_IN_RANGE_256(V, FIRST, COUNT)                                                                           \
    _mm256_cmpeq_epi8(_mm256_min_epu8(_mm256_sub_epi8(V, _mm256_set1_epi8((char)(FIRST))),                          \
                                      _mm256_set1_epi8((char)((COUNT) - 1))),                                      \
                      _mm256_sub_epi8(V, _mm256_set1_epi8((char)(FIRST))))
#define CK_BITS_256(LANES, HALF) ((uint64_t)(uint32_t)_mm256_movemask_epi8(LANES) << (32 * (HALF)))
    *m = (window_masks){0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 2; k++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(t + 32 * k));
        __m256i space = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(' '));
        __m256i folded = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
        m->letter |= CK_BITS_256(CK_IN_RANGE_256(folded, 'a', 26), k);
        if (cased) m->upper |= CK_BITS_256(CK_IN_RANGE_256(v, 'A', 26), k);
        m->digit |= CK_BITS_256(CK_IN_RANGE_256(v, '0', 10), k);
        m->space |= CK_BITS_256(space, k);
        m->whitespace |= CK_BITS_256(_mm256_or_si256(CK_IN_RANGE_256(v, '\t', 5), space), k);
        m->newline |= CK_BITS_256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')),
                                                  _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\r'))),
                                  k);
        m->apostrophe |= CK_BITS_256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\'')), k);
        if (slashes) m->slash |= CK_BITS_256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('/')), k);
        m->high |= CK_BITS_256(v, k);
    }
#undef CK_IN_RANGE_256
#undef CK_BITS_256
}

/// The same with one 64-byte load: AVX-512BW's compares give each mask
/// whole (the AVX-512 tier's).
__attribute__((target("avx512f,avx512bw"))) static void classify_window_avx512(const uint8_t *t, int cased,
                                                                                int slashes, window_masks *m) {
#define CK_IN_RANGE_512(V, FIRST, COUNT)                                                                           \
    _mm512_cmplt_epu8_mask(_mm512_sub_epi8(V, _mm512_set1_epi8((char)(FIRST))), _mm512_set1_epi8((char)(COUNT)))
    __m512i v = _mm512_loadu_si512((const void *)t);
    uint64_t space = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' '));
    m->letter = CK_IN_RANGE_512(_mm512_or_si512(v, _mm512_set1_epi8(0x20)), 'a', 26);
    m->upper = cased ? CK_IN_RANGE_512(v, 'A', 26) : 0;
    m->digit = CK_IN_RANGE_512(v, '0', 10);
    m->space = space;
    m->whitespace = CK_IN_RANGE_512(v, '\t', 5) | space;
    m->newline = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n')) | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\r'));
    m->apostrophe = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\''));
    m->slash = slashes ? _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('/')) : 0;
    m->high = _mm512_movepi8_mask(v);
#undef CK_IN_RANGE_512
}
#define CK_HAVE_WINDOWS 1
#elif CK_HAVE_NEON
/// One bit a byte of four vectors of all-ones or zero bytes: each byte keeps
/// its bit of a byte's weight, and three pairwise adds gather them.
CK_INLINE uint64_t bits_of(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
    const uint8x16_t weights = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t ab = vpaddq_u8(vandq_u8(a, weights), vandq_u8(b, weights));
    uint8x16_t cd = vpaddq_u8(vandq_u8(c, weights), vandq_u8(d, weights));
    uint8x16_t abcd = vpaddq_u8(ab, cd);
    return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)), 0);
}

CK_INLINE uint8x16_t bytes_in_range(uint8x16_t v, uint8_t first, uint8_t count) {
    return vcltq_u8(vsubq_u8(v, vdupq_n_u8(first)), vdupq_n_u8(count));
}

#define CK_MASK_OF(EXPR)                                                                                            \
    bits_of((EXPR)(v[0]), (EXPR)(v[1]), (EXPR)(v[2]), (EXPR)(v[3]))

CK_INLINE uint8x16_t letter_lanes(uint8x16_t x) { return bytes_in_range(vorrq_u8(x, vdupq_n_u8(0x20)), 'a', 26); }
CK_INLINE uint8x16_t upper_lanes(uint8x16_t x) { return bytes_in_range(x, 'A', 26); }
CK_INLINE uint8x16_t digit_lanes(uint8x16_t x) { return bytes_in_range(x, '0', 10); }
CK_INLINE uint8x16_t space_lanes(uint8x16_t x) { return vceqq_u8(x, vdupq_n_u8(' ')); }
CK_INLINE uint8x16_t whitespace_lanes(uint8x16_t x) { return vorrq_u8(bytes_in_range(x, '\t', 5), space_lanes(x)); }
CK_INLINE uint8x16_t newline_lanes(uint8x16_t x) {
    return vorrq_u8(vceqq_u8(x, vdupq_n_u8('\n')), vceqq_u8(x, vdupq_n_u8('\r')));
}
CK_INLINE uint8x16_t apostrophe_lanes(uint8x16_t x) { return vceqq_u8(x, vdupq_n_u8('\'')); }
CK_INLINE uint8x16_t slash_lanes(uint8x16_t x) { return vceqq_u8(x, vdupq_n_u8('/')); }
CK_INLINE uint8x16_t high_lanes(uint8x16_t x) { return vcgeq_u8(x, vdupq_n_u8(0x80)); }

CK_INLINE window_masks classify_window(const uint8_t *t, int cased, int slashes) {
    uint8x16_t v[4] = {vld1q_u8(t), vld1q_u8(t + 16), vld1q_u8(t + 32), vld1q_u8(t + 48)};
    window_masks m;
    m.letter = CK_MASK_OF(letter_lanes);
    m.upper = cased ? CK_MASK_OF(upper_lanes) : 0;
    m.digit = CK_MASK_OF(digit_lanes);
    m.space = CK_MASK_OF(space_lanes);
    m.whitespace = CK_MASK_OF(whitespace_lanes);
    m.newline = CK_MASK_OF(newline_lanes);
    m.apostrophe = CK_MASK_OF(apostrophe_lanes);
    m.slash = slashes ? CK_MASK_OF(slash_lanes) : 0;
    m.high = CK_MASK_OF(high_lanes);
    return m;
}
#define CK_HAVE_WINDOWS 1
#endif

#if CK_HAVE_WINDOWS
/// The contractions a window's candidate apostrophes start (`'s`, `'t`,
/// `'d`, `'m`, `'ll`, `'ve`, `'re`, either case): their apostrophes, the
/// bytes after those inside them, and the byte after each. Apostrophes are
/// few, so one at a time.
typedef struct {
    uint64_t at, inside, after;
} window_contractions;

CK_INLINE window_contractions find_contractions(const uint8_t *t, uint64_t candidates, int after_words) {
    window_contractions c = {0, 0, 0};
    for (; candidates; candidates &= candidates - 1) {
        unsigned k = (unsigned)__builtin_ctzll(candidates);
        // o200k's contraction ends a word: the letters of one before it are no word.
        if (after_words && ((c.inside >> (k - 1)) & 1)) continue;
        // A candidate's next byte is an ASCII letter, so never undecided.
        int undecided = 0;
        unsigned n = (unsigned)contraction_length(t, k, WINDOW_READS, &undecided);
        if (!n) continue;
        c.at |= 1ull << k;
        c.inside |= ((1ull << (n - 1)) - 1) << (k + 1);
        if (k + n < 64) c.after |= 1ull << (k + n);
    }
    return c;
}

/// The piece starts of the 64 bytes from `t` (a piece start) that no byte
/// past them decides, as bits: bit 0 and every start before the window's
/// last run (its last bytes of one kind: letters, digits, whitespace or
/// punctuation), whose end and inner starts the next bytes may change. A
/// byte from 0x80, and the two shapes the masks below do not settle, end
/// the window where they are. `t` has `WINDOW_READS` bytes.
///
/// How each rule of the patterns becomes masks (P is punctuation,
/// `[^\s\p{L}\p{N}]`, apostrophes included):
/// - `[\r\n]*` after punctuation: the newlines from a P run's end are its
///   piece's (`absorbed`, by a carry through the newlines from there).
///   o200k's `[\r\n/]*` takes a slash after them too: a window ends there.
/// - A P run starts a piece, unless a space before it does (` ?`) or it is
///   absorbed.
/// - Whitespace: a run starts a piece (its absorbed newlines aside); so
///   does its last byte when that is not a newline (`\s+(?!\S)` leaves it,
///   `[^\r\n\p{L}\p{N}]?\p{L}+` or ` ?P` takes it, or `\s` is it); and so
///   does the byte after its last newline when more follows
///   (`\s*[\r\n]`). Which newline is the last is found by a carry from
///   each byte after a newline through the spaces: it must come out on a
///   byte that is not a newline, or the window ends there.
/// - Letters: a run starts a piece unless the byte before it does and may
///   lead a word (space, tab, a lone P): then that byte's piece is the
///   word's. o200k's cased words also start at a capital after a small
///   letter.
/// - Contractions: cl100k's start at an apostrophe that starts a piece;
///   o200k's end a word. Either way the bytes inside start nothing and the
///   letter after starts a piece.
/// - Digits: a run starts a piece, and `\p{N}{1,3}` again every three.
CK_INLINE uint64_t window_starts(const ck_piece_pattern *p, const uint8_t *t, int tier, int cased) {
    window_masks m;
#if CK_HAVE_SSE2
    if (tier == TIER_AVX512)
        classify_window_avx512(t, cased, p->slashes_trail_punctuation, &m);
    else if (tier == TIER_AVX2)
        classify_window_avx2(t, cased, p->slashes_trail_punctuation, &m);
    else
#endif
        m = classify_window(t, cased, p->slashes_trail_punctuation);
    (void)tier;
    const uint64_t L = m.letter, D = m.digit, W = m.whitespace, N = m.newline, S = m.space, A = m.apostrophe;
    const uint64_t P = ~(L | D | W | m.high), R = W & ~N;
    // Bytes from `known` on decide nothing.
    unsigned known = m.high ? (unsigned)__builtin_ctzll(m.high) : 64;

    uint64_t absorbed = ((N + (N & (P << 1))) ^ N) & N;
    uint64_t trailing_slash = (absorbed << 1) & m.slash;
    if (trailing_slash && (unsigned)__builtin_ctzll(trailing_slash) < known) known = (unsigned)__builtin_ctzll(trailing_slash);
    uint64_t p_starts = P & ~(P << 1) & ~(S << 1) & ~absorbed;

    uint64_t letter_runs = L & ~(L << 1);
    window_contractions c = {0, 0, 0};
    if (p->contractions == CK_CONTRACTIONS_FIRST) {
        c = find_contractions(t, A & p_starts & (L >> 1), 0);
    } else if (p->contractions == CK_CONTRACTIONS_AFTER_WORDS) {
        c = find_contractions(t, A & (L << 1) & (L >> 1), 1);
        p_starts &= ~c.at;
    }
    uint64_t leads = (R | p_starts) & (letter_runs >> 1) & ~c.at;
    uint64_t letter_starts = letter_runs & ~(leads << 1);
    if (cased) letter_starts |= m.upper & ((L & ~m.upper) << 1);

    uint64_t kept = W & ~absorbed;
    uint64_t after_newline = R & ((N & kept) << 1);
    uint64_t newline_after_spaces = (R + after_newline) & ~R & N;
    if (newline_after_spaces && (unsigned)__builtin_ctzll(newline_after_spaces) < known)
        known = (unsigned)__builtin_ctzll(newline_after_spaces);
    uint64_t space_starts = (kept & ~(kept << 1)) | (R & ~(W >> 1)) | after_newline;

    uint64_t digit_starts = D;
    if (p->max_digits > 1) {
        digit_starts = D & ~(D << 1);
        for (uint64_t hop = digit_starts; (hop = (hop << 3) & D & (D << 1) & (D << 2));) digit_starts |= hop;
    }

    uint64_t starts = (1 | p_starts | letter_starts | space_starts | digit_starts | (c.after & L)) & ~c.inside;

    // The window's last run: the run of byte `known - 1`'s kind.
    if (known < 2) return 1;
    unsigned last = known - 1;
    uint64_t kind = (L & (0 - ((L >> last) & 1))) | (D & (0 - ((D >> last) & 1))) | (W & (0 - ((W >> last) & 1)))
                    | (P & (0 - ((P >> last) & 1)));
    uint64_t before = ~kind & ((1ull << last) - 1);
    unsigned run = before ? 64 - (unsigned)__builtin_clzll(before) : 0;
    return (starts & ((1ull << run) - 1)) | 1;
}
#endif

// ---------------------------------------------------------------------------
// The table.

/// Masks of a piece's first `n` bytes in a key's two words.
static const uint64_t low_masks[16] = {
    0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull, 0xffffffffffffull, 0xffffffffffffffull,
    ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull,
};
static const uint64_t high_masks[16] = {
    0, 0, 0, 0, 0, 0, 0, 0,
    0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull, 0xffffffffffffull, 0xffffffffffffffull,
};

/// The key of `t[i..<i+n]`, 1 ≤ n ≤ 15. With 16 bytes readable, two loads and
/// two masks; otherwise through a zeroed copy.
CK_INLINE ck_piece_key make_key(const uint8_t *t, size_t i, size_t n, size_t end) {
    ck_piece_key key;
    if (i + 16 <= end) {
        key.low = load_le64(t + i) & low_masks[n];
        key.high = load_le64(t + i + 8) & high_masks[n];
    } else {
        uint8_t padded[16] = {0};
        memcpy(padded, t + i, n);
        key.low = load_le64(padded);
        key.high = load_le64(padded + 8);
    }
    key.high |= (uint64_t)n << 56;
    return key;
}

/// The key's hash, whose top bits choose its set.
CK_INLINE uint64_t key_hash(ck_piece_key key) {
    return ((key.low * 0x9E3779B97F4A7C15ull) ^ key.high) * 0xBF58476D1CE4E5B9ull;
}

/// The set of a key with this hash: the product's top bits are its best
/// mixed. Two shifts, so that a table of one set (`set_bits` 0) shifts by 64
/// nowhere.
CK_INLINE ck_piece_set *set_of_hash(const ck_piece_table *table, uint64_t hash) {
    return table->sets + (size_t)((hash >> 1) >> (63 - table->set_bits));
}

/// The key's set.
CK_INLINE ck_piece_set *set_of(const ck_piece_table *table, ck_piece_key key) {
    return set_of_hash(table, key_hash(key));
}

// ---------------------------------------------------------------------------
// The loop.

/// Whether a tier cuts `p`'s pieces by windows: the vector tiers, where the
/// classes are the ones `classify_window` tests for (so that the masks and
/// the scanners' table cannot disagree) and digits come one or three at a
/// time. The portable tier cuts piece by piece: it is what the windows are
/// held to (scripts/piece-kernel-check.c).
CK_INLINE int uses_windows(const ck_piece_pattern *p, int tier) {
#if CK_HAVE_WINDOWS
    return tier >= TIER_VECTOR && p->windows && (p->max_digits == 1 || p->max_digits == 3);
#else
    (void)p;
    (void)tier;
    return 0;
#endif
}

/// For each way of a set, all ones if it holds `key` (at most one does),
/// else zero. Which way holds a piece is a coin toss to the predictor: no
/// branch per way. The shift drops the way's count from the comparison.
typedef struct {
    uint64_t way[4];
} ck_way_masks;

CK_INLINE ck_way_masks match_ways(const ck_piece_key *ways, ck_piece_key key) {
    ck_way_masks m;
    for (int w = 0; w < 4; w++) m.way[w] = 0 - (uint64_t)(((ways[w].low ^ key.low) | (ways[w].high ^ key.high) << 4) == 0);
    return m;
}

CK_INLINE uint64_t any_way(ck_way_masks m) { return m.way[0] | m.way[1] | m.way[2] | m.way[3]; }

/// The token count of the way that matched, from the keys the comparison
/// loaded: a mask, not a second load from an address the match decides.
CK_INLINE size_t matched_count(const ck_piece_key *ways, ck_way_masks m) {
    uint64_t high = (ways[0].high & m.way[0]) | (ways[1].high & m.way[1]) | (ways[2].high & m.way[2])
                    | (ways[3].high & m.way[3]);
    return (size_t)(high >> 60);
}

/// Adds the piece's count to `tokens` if the table holds it.
CK_INLINE int probe(const ck_piece_table *table, ck_piece_key key, size_t *tokens) {
    const ck_piece_key *ways = set_of(table, key)->keys;
    ck_way_masks m = match_ways(ways, key);
    *tokens += matched_count(ways, m);
    return any_way(m) != 0;
}

CK_INLINE ck_count_result count_pieces(const ck_piece_table *table, const ck_piece_pattern *p, const uint8_t *t,
                                       size_t i, size_t end, size_t pause_at, size_t *misses, size_t miss_capacity,
                                       int tier, int cased) {
    ck_count_result r = {i, 0, 0, CK_COUNT_END};
    const int windows = uses_windows(p, tier);
    while (i < end) {
        if (i >= pause_at) {
            r.stop = CK_COUNT_PAUSED;
            break;
        }
#if CK_HAVE_WINDOWS
        if (windows && end - i >= WINDOW_READS) {
            uint64_t starts = window_starts(p, t + i, tier, cased) & ~1ull;
            if (starts) {
                const uint8_t *w = t + i;
                size_t s = 0;
                do {
                    size_t e = (size_t)__builtin_ctzll(starts), n = e - s;
                    starts &= starts - 1;
                    if (n > CK_PIECE_TABLE_LONGEST_PIECE || !probe(table, make_key(w, s, n, WINDOW_READS), &r.tokens)) {
                        if (r.misses == miss_capacity) {
                            r.stop = CK_COUNT_MISSES_FULL;
                            break;
                        }
                        misses[2 * r.misses] = i + s;
                        misses[2 * r.misses + 1] = i + e;
                        r.misses++;
                    }
                    s = e;
                } while (starts && i + s < pause_at);
                i += s;
                if (r.stop != CK_COUNT_END) break;
                continue;
            }
        }
#endif
        size_t e = piece_end(p, t, i, end, tier, cased);
        if (e == UNDECIDED) {
            r.stop = CK_COUNT_UNDECIDED;
            break;
        }
        size_t n = e - i;
        // A piece longer than the table holds is listed too: the caller's memo has it.
        if (n > CK_PIECE_TABLE_LONGEST_PIECE || !probe(table, make_key(t, i, n, end), &r.tokens)) {
            if (r.misses == miss_capacity) {
                r.stop = CK_COUNT_MISSES_FULL;
                break;
            }
            misses[2 * r.misses] = i;
            misses[2 * r.misses + 1] = e;
            r.misses++;
        }
        i = e;
    }
    r.position = i;
    return r;
}

/// Writes a slot's `CK_PIECE_TABLE_IDS` ids to `out`, widened: all four
/// whatever the piece's count, so that no branch depends on it.
CK_INLINE void store_ids(int64_t *out, const uint32_t *ids, int tier) {
#if CK_HAVE_SSE2
    if (tier >= TIER_VECTOR) {
        __m128i four = _mm_loadu_si128((const __m128i *)ids), zero = _mm_setzero_si128();
        _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi32(four, zero));
        _mm_storeu_si128((__m128i *)(out + 2), _mm_unpackhi_epi32(four, zero));
        return;
    }
#elif CK_HAVE_NEON
    if (tier >= TIER_VECTOR) {
        uint32x4_t four = vld1q_u32(ids);
        vst1q_s64(out, vreinterpretq_s64_u64(vmovl_u32(vget_low_u32(four))));
        vst1q_s64(out + 2, vreinterpretq_s64_u64(vmovl_u32(vget_high_u32(four))));
        return;
    }
#endif
    for (int k = 0; k < CK_PIECE_TABLE_IDS; k++) out[k] = (int64_t)ids[k];
}

/// The ids of the way whose mask is all ones, or zeros.
CK_INLINE void select_ids(uint32_t out[CK_PIECE_TABLE_IDS], const uint32_t ids[4][CK_PIECE_TABLE_IDS], ck_way_masks m,
                          int tier) {
    (void)tier;
#if CK_HAVE_SSE2
    if (tier >= TIER_VECTOR) {
        __m128i v = _mm_and_si128(_mm_loadu_si128((const __m128i *)ids[0]), _mm_set1_epi64x((long long)m.way[0]));
        v = _mm_or_si128(v, _mm_and_si128(_mm_loadu_si128((const __m128i *)ids[1]), _mm_set1_epi64x((long long)m.way[1])));
        v = _mm_or_si128(v, _mm_and_si128(_mm_loadu_si128((const __m128i *)ids[2]), _mm_set1_epi64x((long long)m.way[2])));
        v = _mm_or_si128(v, _mm_and_si128(_mm_loadu_si128((const __m128i *)ids[3]), _mm_set1_epi64x((long long)m.way[3])));
        _mm_storeu_si128((__m128i *)out, v);
        return;
    }
#endif
    for (int k = 0; k < CK_PIECE_TABLE_IDS; k++) {
        out[k] = (uint32_t)((ids[0][k] & m.way[0]) | (ids[1][k] & m.way[1]) | (ids[2][k] & m.way[2]) | (ids[3][k] & m.way[3]));
    }
}

/// The token count of the piece `t[i..<i+n]` and its ids in `ids`, or more
/// than `CK_PIECE_TABLE_IDS` for a piece the table lacks, longer than it
/// holds, or with more tokens than it keeps ids for. The hit's count and
/// ids are chosen with masks: the ids' line is read from the set's address,
/// beside the keys', not from an address the match decides.
CK_INLINE size_t probe_ids(const ck_piece_table *table, const uint8_t *t, size_t i, size_t n, size_t end,
                           uint32_t ids[CK_PIECE_TABLE_IDS], int tier) {
    if (n > CK_PIECE_TABLE_LONGEST_PIECE) return CK_PIECE_TABLE_IDS + 1;
    ck_piece_key key = make_key(t, i, n, end);
    const ck_piece_set *set = set_of(table, key);
    ck_way_masks m = match_ways(set->keys, key);
    select_ids(ids, set->ids, m, tier);
    return any_way(m) ? matched_count(set->keys, m) : CK_PIECE_TABLE_IDS + 1;
}

CK_INLINE ck_encode_result encode_pieces(const ck_piece_table *table, const ck_piece_pattern *p, const uint8_t *t,
                                         size_t i, size_t end, size_t pause_at, int64_t *out, size_t capacity,
                                         int tier, int cased) {
    ck_encode_result r = {i, 0, 0, CK_ENCODE_END};
    size_t written = 0;
    const int windows = uses_windows(p, tier);
    while (i < end) {
        if (i >= pause_at) {
            r.stop = CK_ENCODE_PAUSED;
            break;
        }
        if (capacity - written < CK_PIECE_TABLE_IDS) {
            r.stop = CK_ENCODE_FULL;
            break;
        }
#if CK_HAVE_WINDOWS
        if (windows && end - i >= WINDOW_READS) {
            uint64_t starts = window_starts(p, t + i, tier, cased) & ~1ull;
            if (starts) {
                const uint8_t *w = t + i;
                size_t s = 0;
                do {
                    size_t e = (size_t)__builtin_ctzll(starts);
                    starts &= starts - 1;
                    uint32_t chosen[CK_PIECE_TABLE_IDS];
                    size_t tokens = probe_ids(table, w, s, e - s, WINDOW_READS, chosen, tier);
                    if (tokens > CK_PIECE_TABLE_IDS) {
                        r.stop = CK_ENCODE_MISS;
                        r.miss_end = i + e;
                        break;
                    }
                    store_ids(out + written, chosen, tier);
                    written += tokens;
                    s = e;
                } while (starts && i + s < pause_at && capacity - written >= CK_PIECE_TABLE_IDS);
                i += s;
                if (r.stop != CK_ENCODE_END) break;
                continue;
            }
        }
#endif
        size_t e = piece_end(p, t, i, end, tier, cased);
        if (e == UNDECIDED) {
            r.stop = CK_ENCODE_UNDECIDED;
            break;
        }
        uint32_t chosen[CK_PIECE_TABLE_IDS];
        size_t tokens = probe_ids(table, t, i, e - i, end, chosen, tier);
        // Missed, longer than the table holds, or more tokens than it has ids
        // for: the caller encodes it, in its place.
        if (tokens > CK_PIECE_TABLE_IDS) {
            r.stop = CK_ENCODE_MISS;
            r.miss_end = e;
            break;
        }
        store_ids(out + written, chosen, tier);
        written += tokens;
        i = e;
    }
    r.position = i;
    r.written = written;
    return r;
}

int ck_piece_table_keep(const ck_piece_table *table, const uint8_t *piece, size_t n, uint8_t tokens,
                        const uint32_t *ids) {
    if (n == 0 || n > CK_PIECE_TABLE_LONGEST_PIECE || tokens == 0 || tokens > 15) return 0;
    ck_piece_key key = make_key(piece, 0, n, n);
    // One hash for the set and the 1-in-32 test below.
    uint64_t hash = key_hash(key);
    ck_piece_set *set = set_of_hash(table, hash);
    // A piece listed twice in one call's misses is kept once: a second copy
    // would push out a piece for nothing.
    if (any_way(match_ways(set->keys, key))) return 0;
    int dropped = (set->keys[3].high >> 56) != 0;
    // A full set gives the piece its last way, and keeps the other three,
    // unless the piece is one of the 1 in 32 (by hash bits the set index
    // does not use) that take the first: pushed down in turn, five pieces
    // that share a set would each be gone before they came again.
    size_t way = 0;
    if (dropped && ((hash >> 20) & 31) != 0) {
        way = 3;
    } else {
        memmove(set->keys + 1, set->keys, 3 * sizeof set->keys[0]);
        memmove(set->ids + 1, set->ids, 3 * sizeof set->ids[0]);
    }
    key.high |= (uint64_t)tokens << 60;
    set->keys[way] = key;
    for (size_t k = 0; k < CK_PIECE_TABLE_IDS; k++) set->ids[way][k] = k < tokens && tokens <= CK_PIECE_TABLE_IDS ? ids[k] : 0;
    return dropped;
}

// A tier's two entry points. One loop per letter rule, so that neither tests
// the rule per piece.
#define CK_ENTRY_POINTS(ATTRIBUTES, SUFFIX, TIER)                                                                    \
    ATTRIBUTES ck_count_result ck_count_pieces##SUFFIX(const ck_piece_table *table, const ck_piece_pattern *pattern, \
                                                      const uint8_t *text, size_t from, size_t end, size_t pause_at, \
                                                      size_t *misses, size_t miss_capacity) {                        \
        return pattern->cased_words                                                                                  \
                   ? count_pieces(table, pattern, text, from, end, pause_at, misses, miss_capacity, TIER, 1)         \
                   : count_pieces(table, pattern, text, from, end, pause_at, misses, miss_capacity, TIER, 0);        \
    }                                                                                                                \
    ATTRIBUTES ck_encode_result ck_encode_pieces##SUFFIX(                                                            \
        const ck_piece_table *table, const ck_piece_pattern *pattern, const uint8_t *text, size_t from, size_t end,  \
        size_t pause_at, int64_t *ids, size_t capacity) {                                                            \
        return pattern->cased_words                                                                                  \
                   ? encode_pieces(table, pattern, text, from, end, pause_at, ids, capacity, TIER, 1)                \
                   : encode_pieces(table, pattern, text, from, end, pause_at, ids, capacity, TIER, 0);               \
    }

CK_ENTRY_POINTS(, , TIER_VECTOR)
CK_ENTRY_POINTS(, _portable, TIER_PORTABLE)

#if CK_HAVE_SSE2
int ck_count_avx2_available(void) {
    unsigned a, b, c, d;
    // AVX (ecx bit 28) with OSXSAVE (bit 27), and the OS saving the vector
    // state (XCR0 bits 1 and 2); then AVX2 (ebx bit 5), BMI1 (3), BMI2 (8).
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28))) return 0;
    unsigned xcr0_low, xcr0_high;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 5)) && (b & (1u << 3)) && (b & (1u << 8));
}

// The same loops compiled for AVX2 and BMI2: variable shifts without `cl`
// (`shlx`), `andn`, `tzcnt`, three-operand vector instructions.
CK_ENTRY_POINTS(__attribute__((target("avx2,bmi,bmi2"))), _avx2, TIER_AVX2)

int ck_count_avx512_available(void) {
    unsigned a, b, c, d;
    if (!ck_count_avx2_available() || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    // AVX-512F (ebx bit 16) and BW (bit 30), and the OS saving the opmask
    // and upper vector state (XCR0 bits 5 to 7).
    unsigned xcr0_low, xcr0_high;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    return (b & (1u << 16)) && (b & (1u << 30)) && (xcr0_low & 0xe0) == 0xe0;
}

// And for AVX-512BW, which classifies a window with one load.
CK_ENTRY_POINTS(__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2"))), _avx512, TIER_AVX512)
#else
int ck_count_avx2_available(void) { return 0; }

int ck_count_avx512_available(void) { return 0; }

// Other CPUs than x86-64 have no such tiers; the entry points exist for
// the header's sake and run the baseline.
#define CK_BASELINE_ENTRY_POINTS(SUFFIX)                                                                               \
    ck_count_result ck_count_pieces##SUFFIX(const ck_piece_table *table, const ck_piece_pattern *pattern,            \
                                            const uint8_t *text, size_t from, size_t end, size_t pause_at,           \
                                            size_t *misses, size_t miss_capacity) {                                  \
        return ck_count_pieces(table, pattern, text, from, end, pause_at, misses, miss_capacity);                    \
    }                                                                                                                \
    ck_encode_result ck_encode_pieces##SUFFIX(const ck_piece_table *table, const ck_piece_pattern *pattern,          \
                                              const uint8_t *text, size_t from, size_t end, size_t pause_at,         \
                                              int64_t *ids, size_t capacity) {                                       \
        return ck_encode_pieces(table, pattern, text, from, end, pause_at, ids, capacity);                           \
    }

CK_BASELINE_ENTRY_POINTS(_avx2)
CK_BASELINE_ENTRY_POINTS(_avx512)
#endif
