#ifndef CPIECEKERNEL_H
#define CPIECEKERNEL_H

#include <stddef.h>
#include <stdint.h>

/// What an ASCII byte is to the OpenAI-style patterns (cl100k, Llama 3,
/// Qwen 2, o200k, tekken): Swift fills these from its character tables
/// (`ck_piece_pattern_init`), so the kernel and the scanners cannot disagree.
enum {
    CK_CLASS_LETTER = 0,
    CK_CLASS_DIGIT = 1,
    /// `\r` and `\n`.
    CK_CLASS_NEWLINE = 2,
    /// U+0020, the one character ` ?` takes before punctuation.
    CK_CLASS_SPACE = 3,
    /// Whitespace other than the above (tab, vertical tab, form feed).
    CK_CLASS_BLANK = 4,
    /// `'`, which may start a contraction.
    CK_CLASS_APOSTROPHE = 5,
    /// Anything else ASCII: `[^\s\p{L}\p{N}]`.
    CK_CLASS_OTHER = 6,
    /// A byte of a multi-byte character: the kernel hands the piece back.
    CK_CLASS_HIGH = 7,
};

/// Where a pattern matches contractions (`'s`, `'t`, `'re`, `'ve`, `'m`,
/// `'ll`, `'d`, in either case).
enum {
    /// Nowhere (tekken).
    CK_CONTRACTIONS_NONE = 0,
    /// As a piece of their own, tried first (cl100k, Llama 3, Qwen 2).
    CK_CONTRACTIONS_FIRST = 1,
    /// At the end of a word's piece (o200k's `C?`).
    CK_CONTRACTIONS_AFTER_WORDS = 2,
};

/// One pattern, as the kernel reads it.
typedef struct {
    /// Every byte's class; bytes from 0x80 are `CK_CLASS_HIGH`.
    uint8_t classes[256];
    /// `\p{N}{1,3}` (3) or `\p{N}` (1).
    uint8_t max_digits;
    /// cl100k's `\s++$`: whitespace that ends the text is one piece.
    uint8_t trailing_run_is_one_piece;
    /// o200k's and tekken's letters, `U*W+|U+W*`: in ASCII, a piece's word
    /// is `[A-Z]*[a-z]*`. Otherwise cl100k's `\p{L}+`, `[A-Za-z]+`.
    uint8_t cased_words;
    /// `CK_CONTRACTIONS_NONE`, `_FIRST` or `_AFTER_WORDS`.
    uint8_t contractions;
    /// o200k's and tekken's `[\r\n/]*` after punctuation; else `[\r\n]*`.
    uint8_t slashes_trail_punctuation;
    /// Set by `ck_piece_pattern_init` when the ASCII classes are the ones the
    /// vector tiers test for with compares (letters A-Z and a-z, digits 0-9,
    /// tab, vertical tab and form feed the blanks): they cut 64 bytes at a
    /// time; otherwise piece by piece.
    uint8_t windows;
} ck_piece_pattern;

/// Fills `pattern`'s classes from those of the 128 ASCII bytes; the caller
/// sets the other fields.
void ck_piece_pattern_init(ck_piece_pattern *pattern, const uint8_t ascii_classes[128]);

/// A piece of 1 to 15 bytes as a 16-byte key: its bytes, zero-padded, in
/// little-endian words; its length in bits 56-59 of `high` (0: an empty
/// slot) and, in the table, its token count in bits 60-63, so that a hit
/// reads one cache line.
typedef struct {
    uint64_t low;
    uint64_t high;
} ck_piece_key;

/// The longest piece the count table holds.
#define CK_PIECE_TABLE_LONGEST_PIECE 15

/// The most tokens a piece of the table has ids for: a piece of more is
/// counted from the table but encoded by the caller.
#define CK_PIECE_TABLE_IDS 4

/// One set of the table: four keys on one 64-byte line, and their ids on
/// the next. The ids are apart from the keys so that a count reads one line
/// a hit, and beside them so that an encode's second line is the one the
/// CPU fetches with the first (pairs of lines come together into L2).
typedef struct {
    ck_piece_key keys[4];
    /// The first of a key's ids that it has (its count, at most
    /// `CK_PIECE_TABLE_IDS`) are its tokens.
    uint32_t ids[4][CK_PIECE_TABLE_IDS];
} ck_piece_set;

/// A memo of pieces, their token counts and ids, in sets of four. The
/// caller owns the memory.
typedef struct {
    /// `1 << set_bits` sets, 64-byte aligned, zeroed before first use.
    ck_piece_set *sets;
    /// log2 of the number of sets.
    uint32_t set_bits;
} ck_piece_table;

/// Why `ck_count_pieces` returned.
enum {
    /// The text is counted to its end.
    CK_COUNT_END = 0,
    /// `misses` is full: the piece at `position` was not counted.
    CK_COUNT_MISSES_FULL = 1,
    /// The piece at `position` depends on a byte from 0x80: the caller's
    /// scanner decides it.
    CK_COUNT_UNDECIDED = 2,
    /// `position` reached `pause_at` (a piece start at or past it).
    CK_COUNT_PAUSED = 3,
};

/// Where `ck_count_pieces` stopped and what it counted on the way.
typedef struct {
    /// A piece start: every piece before it is counted in `tokens` or listed in `misses`.
    size_t position;
    /// Pieces listed in `misses`.
    size_t misses;
    /// Tokens of the pieces from `from` to `position` that the table held.
    size_t tokens;
    /// `CK_COUNT_END`, `_MISSES_FULL`, `_UNDECIDED` or `_PAUSED`.
    int stop;
} ck_count_result;

/// Counts the tokens of the pieces of `text[from..<end]`, from the piece
/// start `from`, while every piece is ASCII. A piece the table lacks (or
/// longer than it holds) is not counted but listed in `misses`, as start and
/// end, for the caller to encode and keep; counting is a sum, so order does
/// not matter. `end` is the text's end (the pattern looks at it); the kernel
/// reads no byte past it. The baseline vector tier: SSE2 on x86-64 and
/// NEON on arm64 (in every such CPU), the portable loop elsewhere.
ck_count_result ck_count_pieces(const ck_piece_table *table, const ck_piece_pattern *pattern, const uint8_t *text,
                                size_t from, size_t end, size_t pause_at, size_t *misses, size_t miss_capacity);

/// The same compiled for AVX2 and BMI2 (a function target attribute, no
/// compiler flag): call it only when `ck_count_avx2_available()`. Other
/// CPUs than x86-64 run `ck_count_pieces`.
ck_count_result ck_count_pieces_avx2(const ck_piece_table *table, const ck_piece_pattern *pattern,
                                     const uint8_t *text, size_t from, size_t end, size_t pause_at, size_t *misses,
                                     size_t miss_capacity);

/// Whether this CPU and its OS run `ck_count_pieces_avx2` (AVX2, BMI1, BMI2
/// and the vector state saved); 0 on CPUs other than x86-64.
int ck_count_avx2_available(void);

/// The same compiled for AVX-512BW: call it only when
/// `ck_count_avx512_available()`. Other CPUs than x86-64 run
/// `ck_count_pieces`.
ck_count_result ck_count_pieces_avx512(const ck_piece_table *table, const ck_piece_pattern *pattern,
                                       const uint8_t *text, size_t from, size_t end, size_t pause_at, size_t *misses,
                                       size_t miss_capacity);

/// Whether this CPU and its OS run the AVX-512 tier (AVX-512F and BW, the
/// AVX2 tier's features, and the opmask and upper vector state saved); 0
/// on CPUs other than x86-64.
int ck_count_avx512_available(void);

/// The same in plain C: what other CPUs run, and what tests compare the
/// vector tiers against (`CONTEXTKIT_KERNEL=portable` selects it).
ck_count_result ck_count_pieces_portable(const ck_piece_table *table, const ck_piece_pattern *pattern,
                                         const uint8_t *text, size_t from, size_t end, size_t pause_at,
                                         size_t *misses, size_t miss_capacity);

/// Keeps the piece `piece[0..<n]` (1 to 15 bytes) with its token count
/// (1 to 15) and, for a count of at most `CK_PIECE_TABLE_IDS`, its ids
/// (`ids[0..<tokens]`; otherwise `ids` is not read and may be NULL) in its
/// set's first way, the set's other pieces moving down one, while the set
/// has a free way; in a full set, in its last way, in place of the piece
/// there (one piece in 32, chosen by its hash, takes the first way
/// instead, and the last is dropped). Returns whether a piece was dropped;
/// keeps nothing (and returns 0) for a piece the table holds already, or a
/// length or count out of range.
int ck_piece_table_keep(const ck_piece_table *table, const uint8_t *piece, size_t n, uint8_t tokens,
                        const uint32_t *ids);

/// Why `ck_encode_pieces` returned.
enum {
    /// The text is encoded to its end.
    CK_ENCODE_END = 0,
    /// The piece from `position` to `miss_end` is not in the table, or has
    /// more tokens than it keeps ids for: the caller encodes it.
    CK_ENCODE_MISS = 1,
    /// The piece at `position` depends on a byte from 0x80: the caller's
    /// scanner decides it.
    CK_ENCODE_UNDECIDED = 2,
    /// `position` reached `pause_at` (a piece start at or past it).
    CK_ENCODE_PAUSED = 3,
    /// Fewer than `CK_PIECE_TABLE_IDS` ids of room were left in `ids`.
    CK_ENCODE_FULL = 4,
};

/// Where `ck_encode_pieces` stopped and what it wrote on the way.
typedef struct {
    /// A piece start: the ids of every piece before it are written.
    size_t position;
    /// Ids written to `ids`.
    size_t written;
    /// With `CK_ENCODE_MISS`, the end of the piece at `position`.
    size_t miss_end;
    /// `CK_ENCODE_END`, `_MISS`, `_UNDECIDED`, `_PAUSED` or `_FULL`.
    int stop;
} ck_encode_result;

/// Writes the ids of the pieces of `text[from..<end]`, from the piece start
/// `from`, to `ids`, in order, while every piece is ASCII and the table has
/// its ids: it stops at the first piece that is not (`CK_ENCODE_MISS`), for
/// the caller to encode and keep. Each piece stores `CK_PIECE_TABLE_IDS`
/// ids and advances by its count, so it stops when fewer than that are
/// left of `capacity`. Cuts as `ck_count_pieces` does; the baseline tier.
ck_encode_result ck_encode_pieces(const ck_piece_table *table, const ck_piece_pattern *pattern, const uint8_t *text,
                                  size_t from, size_t end, size_t pause_at, int64_t *ids, size_t capacity);

/// The same compiled for AVX2 and BMI2: call it only when
/// `ck_count_avx2_available()`.
ck_encode_result ck_encode_pieces_avx2(const ck_piece_table *table, const ck_piece_pattern *pattern,
                                       const uint8_t *text, size_t from, size_t end, size_t pause_at, int64_t *ids,
                                       size_t capacity);

/// The same compiled for AVX-512BW (and AVX2, BMI2), which classifies 64
/// bytes with one load: call it only when `ck_count_avx512_available()`.
ck_encode_result ck_encode_pieces_avx512(const ck_piece_table *table, const ck_piece_pattern *pattern,
                                         const uint8_t *text, size_t from, size_t end, size_t pause_at, int64_t *ids,
                                         size_t capacity);

/// The same in plain C.
ck_encode_result ck_encode_pieces_portable(const ck_piece_table *table, const ck_piece_pattern *pattern,
                                           const uint8_t *text, size_t from, size_t end, size_t pause_at,
                                           int64_t *ids, size_t capacity);

#endif
