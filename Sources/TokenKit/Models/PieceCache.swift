import CPieceKernel
import Foundation

/// A memo of pre-tokenized pieces and their tokens, which a tokenizer keeps
/// between calls (`Pool`): short pieces (3 to 16 bytes) in two four-way
/// set-associative tables, longer ones (to 1 KB) in a third, whose bytes and
/// tokens live in arenas.
///
/// ## Why it is faster
///
/// Counting English is bound by memory latency, not by work: nearly every
/// piece is one vocabulary lookup, and cl100k's hash table (4 MB, o200k's
/// 8 MB) is far larger than a core's L2 cache, so each lookup is a cache miss.
/// Text is Zipfian: a few thousand distinct pieces make up most of a long
/// text. The short tables hold 65,536 + 32,768 of them in 2 MB (the lines an
/// English text uses stay in L2) and remember the whole result of a piece,
/// so a word of several tokens skips the backtracking encoder's trie walk as
/// well. CJK text is mostly long pieces (runs of ideographs with no spaces),
/// each a backtracking walk of many tokens; the long table replays a run
/// seen before, in this call or an earlier one.
///
/// ## Why it never changes an id
///
/// A short entry is keyed by the piece's exact bytes: its length and all of
/// its at most 16 bytes (one zero-padded word for a piece of up to 8 bytes,
/// two overlapping words for a longer one). A long entry is found by hash and
/// length and then compared byte for byte with its own copy of the piece.
/// Either way an entry holds what the encoder returned for those very bytes,
/// and the encoding of a piece depends on nothing else, so a hit returns
/// exactly what the encoder would. A short set holds the four pieces most
/// recently missed there; a full long set keeps seven and turns its last
/// way over (`keepLong`).
///
/// ## Memory and worst case
///
/// 1 MB + 1 MB of short tables, 2 MB of long entries, the piece kernel's
/// 2 MB of keys and ids (`PieceKernel`), a 4 MB byte arena and a 12 MB token arena
/// (2,097,152 tokens) per memo, whatever the text, and at
/// most one memo per core per tokenizer: when a long piece's bytes or tokens
/// do not fit, a new generation starts (`generation`) and every long entry
/// is dropped at once. Every piece costs at most three lookups and one copy
/// more than without the memo, so time stays linear; pieces over 1 KB
/// (adversarial runs) go straight to the encoder.
///
/// ## Performance notes
///
/// Measured with `tokbench` (bench/run's corpora, cl100k, count, CPU time,
/// best of 9): scanning alone runs at about 5× the speed of counting, so the
/// lookup was the cost to cut. Wall-clock figures on this 2-core VM swing by
/// ±25% between runs of one binary, so each change was also checked with
/// cachegrind on one warm round (`tokbench ... 3` minus `... 2`, 2 MB of the
/// corpus), whose counts do not vary.
/// - Direct-mapped, 8,192 entries of 32 bytes: English +13%, code +38%; two
///   ways at the same size changed little, because the English corpus has
///   7,320 distinct short pieces and the table thrashed; 16,384 entries of 32
///   bytes, two ways: English +60% and code +31% over no memo (79 → 126 and
///   59 → 78 MB/s under load).
/// - That table still missed 2.2% of a warm English pass (28,757 of 1.54M
///   lookups: three or more pieces sharing a set), and each miss is a whole
///   encode: `perf` put 17% of the time there. Most short pieces have at
///   most 8 bytes and two tokens, which fit 16 bytes, so four share a cache
///   line. Simulated on the corpora's pieces (warm misses, English / code):
///   4,096 + 2,048 four-way sets (512 KB) 2,956 / 38,490; 16,384 + 8,192
///   (2 MB) 244 / 3,117. The code corpus has 38,431 distinct short pieces,
///   so only the larger tables hold it, and English loses nothing by them:
///   a table larger than the pieces in use costs only the lines those
///   pieces touch.
/// - Which way holds a piece is a coin toss to the branch predictor, so the
///   ways are compared without branches, and the small key is one load and
///   a mask rather than a branch on the length: cachegrind's mispredicted
///   branches on English went from 327 to 197 per KB.
/// - The hit path is inlined into the scan loop and the rest is not:
///   inlining the encoder too left the loop a call with a large prologue.
///   The scan loop takes its memo from the pool without a closure: through
///   one, the compiler kept `encode` a call (57 instructions a piece).
/// - All of it together, one warm round of 2 MB of the English corpus
///   (cachegrind, before → after): 33.7 → 30.2 instructions a byte, L2
///   misses 41.6 → 34.2 per KB, mispredicted branches 327 → 197 per KB;
///   the code corpus, before the branchless key: 45.6 → 38.1 instructions,
///   85.4 → 42.6 L2 misses per KB. Wall clock: `reports/bench.md`.
/// - Rejected: huge pages for the tables (`madvise`): no change that the
///   VM's noise let us see, and cachegrind does not model the TLB.
/// - Rejected: seeding the short tables with the vocabulary's tokens of 3
///   to 16 bytes when a memo is made, as gigatoken seeds its piece table
///   (tiktoken encodes a piece that is a token as that token, so it is
///   exact; seeded from the highest id down, so the lowest ranks stay where
///   more than four tokens share a set). Seeding cl100k's 95,365 such tokens
///   cost about what the misses it saved did. A/B in one binary, `tokbench
///   cl100k_base count 2`, first call, CPU ms, three runs each: 1 MB of the
///   English corpus 5.3–6.8 seeded, 5.0–5.7 not (warm 2.8); 10 MB
///   30.7–32.1 seeded, 30.1–30.6 not (warm 27.8). Of the 1 MB text's 6,853
///   distinct pieces of three or more bytes, 5,236 are tokens: a miss is
///   one encode of a short piece, and a text has few distinct ones. A
///   seeded image kept in the vocabulary cache would save the seeding but
///   add 2 MB to checksum at every load, for at most the ~1.5 ms the misses
///   cost a text's first call.
/// - CJK, one warm round of 2 MB of the CJK corpus (cachegrind, count,
///   instructions a byte / L2 misses per KB, cl100k): the long table lived
///   for one call (its entries pointed into the call's text), so a warm pass
///   encoded every long piece again: 79.7 / 141. Entries that keep their own
///   copy of the piece and outlive the call: 46.1 / 86. The rest was pieces
///   of 3 to 16 bytes whose tokens fit no short entry (a few rare
///   ideographs, three tokens each), encoded on every pass: they go to the
///   long table too, and with `UTF8Cursor`'s undecoded three-byte runs,
///   28.7 / 66 (o200k 69.7 / 216 → 31.7 / 62). English and code unchanged
///   (30.2 → 30.1, 38.9 → 38.7).
/// - The arenas are sized for a text of a few MB of CJK seen again: the
///   corpus's 2 MB holds 9,946 distinct long pieces, 600 KB and 242,405
///   tokens. A text whose long pieces overflow them starts generation after
///   generation and gains nothing on a second pass, but loses nothing either.
/// - CJK's long pieces (issue 41, stop 55). The Debian zh/ja corpus (3 MB
///   of Chinese and Japanese manual pages) has 31,353 distinct long pieces
///   of 1.2 MB, seen 43,780 times in all: 1.9 a set on average, so about
///   one piece in eight shared its set with four or more others (Poisson).
///   Each new piece took its set's first way and
///   pushed the last out, so a set's five or more pieces were each gone
///   before they came again, and every warm pass encoded 7,822 pieces and
///   257 KB again (the memo's `misses` and `bytesUsed`, pass after pass).
///   `perf` put a third of a warm count in the long pieces' path, half of
///   that in encoding. Now a full set gives a new piece its last way only
///   (one in `longInsertionsOnTop` excepted): 3,700 misses a warm pass.
///   `tokbench cl100k_base count 6`, one CPU, 7 processes alternated with
///   the binary before, median (minimum) of the warm calls, CPU ms: Debian
///   zh/ja 22.04 (18.39) → 18.62 (15.62), first call 53.29 → 50.82; Markov
///   CJK 6.32 (5.72) → 6.00 (5.61), 4 processes. Tried first: twice the
///   sets (4 MB), with the old policy: 1,340 misses a warm pass, Debian
///   zh/ja 21.07 → 17.05, but every first call paid for mapping 2 MB more
///   (Markov CJK 17.60 → 18.90, Debian zh/ja 49.38 → 51.55), and with the
///   long table mapped lazily instead, CJK's and code's first calls paid
///   3–5 ms of faults. Rejected for this. Then the entries were packed into
///   16 bytes (a 32-bit tag of the hash, since a match is compared byte for
///   byte anyway, and the arenas' offsets in bit fields), so that a set of
///   the same two cache lines holds eight: twice the ways in the same 2 MB.
///   Against the four-way binary, 3–5 alternated processes on the busy
///   machine (a CI run beside them), warm median (minimum): Debian zh/ja
///   21.76 (20.32) → 18.25 (14.93); llama-bpe's tokenizer.json on it,
///   whose misses cost a merge-list encode each, 30.20 (27.85) → 17.71
///   (15.93); Markov CJK 6.29 (5.71) → 5.99 (5.66).
/// - Pieces of one or two bytes skip the memo: the vocabulary answers them
///   from direct tables with one load. Since issue 41 (stop 51) that load
///   is inlined in the hit path (`PieceEncoder.shortPieceID`, for
///   tiktoken's encoder, which encodes a piece that is a token as that
///   token) instead of behind the call for unmemoized pieces. `tokbench
///   SPEC MODE 6`, median of 5–7 alternated processes, warm CPU ms: cl100k
///   count English 26.35 → 25.16, code 18.20 → 17.38, CJK 5.16 → 5.16;
///   cl100k encode English 27.95 → 26.14; o200k count English 28.45 →
///   29.04 and code 19.25 → 19.35 (slower: the same code in o200k's loop,
///   whose scanner is larger), o200k encode English 28.89 → 28.74. A first
///   version that called `rawID` (too large to inline, so a call) gained
///   about 1% on every row.
/// - A short text makes no memo (`minimumText`): zeroing one costs about as
///   much as counting 30 KB of text. It uses a kept one if there is one, and
///   short texts make one once together they reach `minimumText` (`Pool`).
/// - The tables' pages are mapped when the memo is made (`WritablePages`), not
///   as each is first touched: a lazy page was faulted twice, and the second
///   fault interrupted the other core. `tokcount -e cl100k_base -j 2` on the
///   100 MB corpus, median of 15 alternated runs: 154.3 → 135.0 ms wall,
///   288 → 257 ms CPU, 7,459 → 2,584 page faults (`-j 1` unchanged, 246.5 →
///   247.6 ms); a 70 KB text, whose memo is new, 11.7 → 11.4 ms; 3 MB more
///   peak memory there.
/// - Adversarial text, issue 41 (item 4: every doubling of the adversarial
///   rows, 1 to 8 MiB, ≤ 2.1× the time). Measured as `bench/run --only
///   adversarial` now measures every point: `tokbench SPEC MODE 6 FILE`
///   pinned to one CPU, the median of the 5 warm calls, the median of 3
///   processes, CPU ms at 1 / 2 / 4 / 8 MiB, on the 2-core VM with another
///   build running. Before (main c8d65c6), the rows of "Adversarial inputs":
///   one letter and spaces, both encodings, count and encode, every step
///   1.94–2.03× (the 2.34× / 2.50× of cl100k letter in reports/bench.md were
///   its 1 MiB point alone being the fastest of 3 calls); random base64
///   cl100k count 19.2 / 59.6 / 122.6 / 254.6 (3.10×, 2.06×, 2.08×), encode
///   28.5 / 79.2 / 147.0 / 299.6 (2.78×, 1.86×, 2.04×); o200k count 24.8 /
///   54.7 / 111.0 / 230.7 (2.20×, 2.03×, 2.08×), encode 35.2 / 63.7 / 139.0
///   / 291.1 (1.81×, 2.18×, 2.09×). The cause is the memo's capacity, not
///   the encoder: 1 MiB of base64 has 108,495 distinct pieces of three or
///   more bytes (81,643 of 3 to 8 bytes, 25,538 of 9 to 16, 5,933 longer)
///   against 65,536 + 32,768 short ways, so a warm pass replays much of it
///   (first call 48.6 ms, warm 24.1); 2 MiB has 212,128 and thrashes: every
///   piece pays the short lookup, `missed`'s wide and long lookups, the
///   encode into the arena and a store that is evicted before it is used
///   (callgrind, 2 MiB warm: `missed` 54% of the instructions).
/// - So the scan loop (`Pool.scan`, the OpenAI encodings' and single-scanner
///   model files') sends the text through the memo in
///   windows of 16 KB and, after a window in which the memo thrashed
///   (`isThrashing`: over one miss per 64 bytes, and most misses evicted an
///   entry), sends the next 256 KB straight to the encoder; entries already
///   in the memo stay. Ids cannot change: the bypass is the encoder the
///   memo would have called (`PieceCacheThrashingTests`). After, same
///   method: base64 cl100k count 18.4 / 44.8 / 98.2 / 196.9 (2.43×, 2.19×,
///   2.00×), encode 22.5 / 53.7 / 116.9 / 240.1 (2.39×, 2.18×, 2.05×);
///   o200k count 22.6 / 49.8 / 98.6 / 197.3 (2.20×, 1.98×, 2.00×), encode
///   26.8 / 59.1 / 117.9 / 236.4 (2.21×, 1.99×, 2.01×). The 10 million
///   distinct words (first call, count): 1.20–1.34 → 1.01–1.07 s for 40 MB,
///   2.50–2.52 → 1.95–2.11 s for 80 MB. English, CJK and code (`tokbench
///   cl100k_base count 6`, median of the 5 warm calls, median of 8
///   processes alternated with the old binary, ms): 26.75 → 26.96, 5.18 →
///   5.25, 18.57 → 18.79, first calls 29.1 → 29.3, 13.2 → 13.0, 28.5 → 28.8.
///   `bench/bench.py --only adversarial` on this binary (every point the
///   median of 5 calls a round, 5 rounds; load 4.1 before, 2.7 after), the
///   "Adversarial inputs" rows, CPU ms: base64 cl100k count 18.4 / 46.4 /
///   102.0 / 198.8 (2.52×, 2.20×, 1.95×), encode 22.5 / 59.3 / 123.3 / 241.9
///   (2.64×, 2.08×, 1.96×); o200k count 22.6 / 49.8 / 98.4 / 195.9 (2.20×,
///   1.98×, 1.99×), encode 26.9 / 58.7 / 116.9 / 237.9 (2.18×, 1.99×,
///   2.04×); letter and spaces 1.98–2.04× every step; gigatoken, which
///   keeps a piece cache too, cl100k base64 2.31× at 1 → 2 MiB; distinct
///   words 0.94 s / 1.87 s (1.99×).
/// - What stays above 2.1×: base64's 1 → 2 MiB (cl100k 2.43×, o200k 2.20×)
///   and cl100k's 2 → 4 MiB (2.19×). A warm 1 MiB pass still replays what
///   the memo holds, and no bypass can make a piece the encoder must encode
///   as cheap as one the memo replays; only a memo that never helped a text
///   of that size would make the first doubling linear.
/// - Rejected: a window of 4,096 pieces (a counter in the scan loop), with
///   "more than 1,024 evictions" as the test: the 2 MiB pass still spent
///   most of its time in `missed` (cl100k count 51.1 ms at 2 MiB, 2.73× the
///   1 MiB point); with "over one piece in eight missed, most of them
///   evicting", 45.1 ms (2.49×), but the per-piece counter cost the warm
///   CJK pass 5.36 → 5.55 ms and code 18.91 → 19.26 ms: hence windows of
///   bytes, which add no work per piece.
///
/// ### Issue 41: gigatoken's kernel, tried piece by piece (stop 49)
///
/// gigatoken 0.10.0's source (`src/pretokenize/fast`, `src/bpe`) puts its
/// lead in two things: it overlaps its probes (a batch of pieces is cut,
/// each probe's line is prefetched, then the batch is probed) and it
/// decides piece starts from 64-byte class masks with no branch per piece. Both were built here and
/// measured against main `22f593d`, cl100k count, `tokbench` pinned to one
/// CPU, the median of 5 warm calls, the median of 3–5 processes alternated
/// with the old binary (10 MB English, 5 MB code, 2 MB CJK, ms), and with
/// cachegrind on one warm round of 2 MB of English (main: 60.1M
/// instructions, 374K mispredicted branches; 201K of them in the scanner
/// inlined in the loop, 62K in `otherPieceEnd`, 58K in the memo).
/// - Rejected: batches of 32 pieces, each one's small-table set prefetched
///   (`__builtin_prefetch` through a C header) before any is probed. Warm
///   English 29.3 → 42.8, code 20.9 → 28.5, CJK 5.7 → 6.7; cachegrind
///   73.3M instructions and 631K mispredicts (687K with the prefetch made
///   branch-free). The sets an English text uses sit in L2, so there was
///   little latency to hide, and cut apart from the probes, the scanner's
///   branches lost the history that had predicted them.
/// - Rejected: a SIMD block classifier (a C target: AVX-512BW, AVX2, NEON
///   and portable tiers chosen at run time with no compiler flag) and a
///   cutter that decides cl100k's ASCII pieces from its masks, every
///   alternative computed and one selected, checked against the scanner
///   on the corpora (equal counts). Warm English 26.3 → 41.9, code 18.5 →
///   24.9, CJK 5.14 → 5.67; cachegrind 92.8M instructions, 368K
///   mispredicts. The scanner's mispredicts fell from 263K to 27K, but the
///   cutter's own tests took 62K and the memo's rose from 58K to 215K:
///   which table a piece goes to (its length)
///   had been predicted from the scanner's branches, and with none left it
///   is a coin toss again. The masks cost about 130 instructions a piece
///   against the scanner's 58: the whole loop spills registers, and
///   the baseline x86-64 that Swift compiles for has no `shrx`, so every
///   variable shift goes through `cl`.
/// - So the two only pay together, in one loop that branches neither on a
///   piece's kind nor on its length: one short table for pieces of 1 to 16
///   bytes (gigatoken's key is one masked 16-byte load), a count that adds a
///   piece's token count without a loop over its tokens, and the cutter,
///   compiled for BMI2 and AVX2. Swift has no per-function target
///   attribute, so that loop would be C with `target(...)` functions and
///   run-time dispatch, this memo staying as the portable path: a kernel
///   rewrite, not a step. Stop 52 began it for counting with the
///   OpenAI-style patterns (`PieceKernel`, whose notes have its
///   figures): one C loop of
///   cutting, keying and probing a table of 1 to 15 bytes, with a count per
///   piece, in SSE2 or NEON with no dispatch; not yet the block cutter.
/// - Seeding the short tables with the vocabulary (the entry above),
///   measured again on code and CJK, first call: English 28.59 → 28.83,
///   code 28.37 → 28.00, CJK 13.03 → 13.51 (warm unchanged). Code's first
///   call is 10 ms over its warm one, but in pieces of several tokens that
///   are not tokens themselves (`missed` is 23% of its samples), which no
///   vocabulary seeds.
@usableFromInline
struct PieceCache {
    /// Texts shorter than this are encoded without the memo, until such
    /// texts add up to this many bytes.
    static let minimumText = 64 * 1_024
    /// The longest piece kept in the small table, in bytes.
    static let maximumSmallPiece = 8
    /// Sets of four `SmallEntry`s (one cache line each); a power of two.
    static let smallSets = 16_384
    /// The longest piece kept in the short tables, in bytes.
    static let maximumPiece = 16
    /// Sets of four `Entry`s (two cache lines each); a power of two.
    static let wideSets = 8_192
    /// The most tokens an `Entry` holds.
    static let maximumTokens = 4
    /// One more than the largest id an `Entry` holds (18 bits each); a piece
    /// with a larger id is simply not kept there.
    static let idLimit: UInt32 = 1 << 18
    /// One more than the largest id a `SmallEntry` holds (24 bits each).
    static let smallIDLimit: UInt32 = 1 << 24

    /// A piece of 3 to 8 bytes with one or two tokens: `key` is its bytes,
    /// zero-padded; `value` packs its length (4 bits, 0 for an empty slot),
    /// whether it has two tokens (1 bit), the end of the first token if so
    /// (3 bits) and the two ids (24 bits each).
    struct SmallEntry {
        var key: UInt64
        var value: UInt64
    }

    /// Any other piece of 3 to 16 bytes: `head` and `tail` are its first and
    /// last eight bytes (for a piece of under eight bytes, `head` is its bytes
    /// zero-padded and `tail` is 0); `meta` packs its length (5 bits, 0 for an
    /// empty slot), its token count (3 bits), the end of each token but the
    /// last (4 bits each, three) and the first id (18 bits); `more` the next
    /// three ids (18 bits each).
    struct Entry {
        var head: UInt64
        var tail: UInt64
        var meta: UInt64
        var more: UInt64
    }

    /// A piece of 17 to `maximumLongPiece` bytes: its hash and length, where
    /// its bytes and its tokens are in the arenas, and the arenas' generation
    /// it was stored in; 16 bytes, so that a set's eight are two cache lines.
    struct LongEntry {
        /// The low half of the piece's hash (the high half chooses its set); a
        /// match is then compared byte for byte, so a shared tag costs a
        /// `memcmp`, never a wrong id.
        var tag: UInt32
        /// An entry of an earlier generation points into arenas since reused
        /// (0: an empty slot).
        var generation: UInt32
        /// The first byte in the byte arena (22 bits), the length less one (10
        /// bits), the first token in the token arena (21 bits) and the token
        /// count (11 bits; 0 where a model drops unknown characters): the
        /// arenas' capacities and `maximumLongPiece` fit them.
        var place: UInt64

        init(hash: UInt64, firstByte: Int, length: Int, firstToken: Int, tokenCount: Int, generation: UInt32) {
            tag = UInt32(truncatingIfNeeded: hash)
            self.generation = generation
            place =
                UInt64(firstByte) | UInt64(length &- 1) << 22 | UInt64(firstToken) << 32 | UInt64(tokenCount) << 53
        }

        @inline(__always) var firstByte: Int { Int(truncatingIfNeeded: place & 0x3F_FFFF) }
        @inline(__always) var length: Int { Int(truncatingIfNeeded: place >> 22 & 0x3FF) &+ 1 }
        @inline(__always) var firstToken: Int { Int(truncatingIfNeeded: place >> 32 & 0x1F_FFFF) }
        @inline(__always) var tokenCount: Int { Int(truncatingIfNeeded: place >> 53) }
    }

    /// Sets of `longWays` `LongEntry`s; a power of two. Where more pieces of
    /// a text share a set than it has ways, some miss on every pass, so sets
    /// are wide: the Debian zh/ja corpus's 31,353 long pieces are 1.9 a set
    /// of 16,384 (see "CJK's long pieces" in the notes above).
    static let longSets = 16_384
    /// `LongEntry`s a set holds.
    static let longWays = 8
    /// The longest piece kept: longer ones are rare outside adversarial text,
    /// and keeping them would hold their tokens for nothing.
    static let maximumLongPiece = 1_024
    /// Bytes of long pieces the byte arena holds.
    static let longByteCapacity = 4 << 20
    /// Tokens of long pieces the token arena holds (ids, and each token's
    /// length). When a piece's bytes or tokens do not fit, a new generation
    /// starts: every long entry is dropped and both arenas start over.
    static let longTokenCapacity = 2 << 20

    let small: UnsafeMutablePointer<SmallEntry>
    let entries: UnsafeMutablePointer<Entry>
    let long: UnsafeMutablePointer<LongEntry>
    let arenaBytes: UnsafeMutablePointer<UInt8>
    let arenaIDs: UnsafeMutablePointer<UInt32>
    let arenaLengths: UnsafeMutablePointer<UInt16>
    /// The piece kernel's table (`PieceKernel`): one key per piece of 1 to
    /// 15 bytes, its count, and its ids when it has at most four.
    let kernelTable: ck_piece_table
    /// Where the piece kernel lists the pieces its table lacked (start and
    /// end of each, `countMissCapacity` of them).
    let kernelMissList: UnsafeMutablePointer<Int>
    var bytesUsed = 0
    var tokensUsed = 0
    /// Pieces the memo did not hold and had the encoder encode, since the
    /// memo was made (`isThrashing`).
    var misses = 0
    /// Entries dropped to make room for a new piece, in any table, since the
    /// memo was made (`isThrashing`).
    var evictions = 0

    /// Bytes of text a scan loop sends through the memo before it checks
    /// whether the memo is thrashing (a window ends at the first piece end
    /// past it: a bound on bytes, not a count of pieces, adds nothing to the
    /// loop's work per piece).
    static let window = 16 * 1_024
    /// Bytes encoded without the memo after a thrashing window, before the
    /// next window tries the memo again.
    static let bypass = 16 * window

    /// Whether the memo thrashed since the counts were `misses` and
    /// `evictions`, one `window` ago: more than one miss per 64 bytes (random
    /// base64 has about 20 pieces of three or more bytes per 64 bytes, English
    /// about 14), and most misses evicted an entry. Then the text's pieces are
    /// too many and too rarely repeated for the tables (random base64,
    /// millions of distinct words), and every piece costs the lookups, the
    /// encode and a store for nothing. A text being learnt (the first call
    /// on CJK or code) misses into free ways and evicts little; a text the
    /// memo holds (a warm English pass) misses well under one piece in 100.
    @inline(__always)
    func isThrashing(missesBefore: Int, evictionsBefore: Int) -> Bool {
        Self.thrashed(misses: misses &- missesBefore, evictions: evictions &- evictionsBefore)
    }

    /// `isThrashing`'s test on a window's misses and evictions, in whichever
    /// table (the piece kernel's too).
    @inline(__always)
    static func thrashed(misses: Int, evictions: Int) -> Bool {
        misses > window / 64 && 2 &* evictions > misses
    }
    /// The arenas' generation (never 0, which marks an empty long entry).
    var generation: UInt32 = 1

    /// The tables of one memo, allocated once and zeroed, each set on cache
    /// lines of its own: 1 MB of small entries, 1 MB of wide ones, 2 MB of
    /// long ones, the piece kernel's 2 MB of keys and ids and its list of misses,
    /// and the arenas (4 MB of bytes, 12 MB of tokens). The tables'
    /// pages are mapped at once (`WritablePages`); the arenas' as they are
    /// first written, so a memo holds only the long pieces it used.
    final class Storage {
        fileprivate let tables: UnsafeMutableRawPointer
        fileprivate let bytes: UnsafeMutablePointer<UInt8>
        fileprivate let ids: UnsafeMutablePointer<UInt32>
        fileprivate let lengths: UnsafeMutablePointer<UInt16>
        private let allocation: UnsafeMutableRawPointer

        static let smallBytes = smallSets * 4 * MemoryLayout<SmallEntry>.stride
        static let wideBytes = wideSets * 4 * MemoryLayout<Entry>.stride
        static let longBytes = longSets * longWays * MemoryLayout<LongEntry>.stride
        static let kernelSetBytes = kernelSets * MemoryLayout<ck_piece_set>.stride
        static let kernelMissBytes = 2 * countMissCapacity * MemoryLayout<Int>.stride
        static let tableBytes = smallBytes + wideBytes + longBytes + kernelSetBytes + kernelMissBytes

        /// nil when the memory cannot be had: the text is then encoded without a memo.
        init?() {
            // `LongEntry.place`'s bit fields hold the arenas' offsets and a long
            // piece's length and count only up to these sizes.
            precondition(longByteCapacity <= 1 << 22 && longTokenCapacity <= 1 << 21 && maximumLongPiece <= 1 << 10)
            // calloc hands back zeroed memory, mapped as it is touched unless
            // `WritablePages` maps it now; the 64-byte alignment keeps each set
            // on whole cache lines.
            guard let raw = calloc(1, Self.tableBytes + 64) else { return nil }
            guard let arena = malloc(longByteCapacity + longTokenCapacity * 6) else {
                free(raw)
                return nil
            }
            allocation = raw
            tables = raw + (64 &- Int(bitPattern: raw) & 63) & 63
            WritablePages.map(raw, Self.tableBytes + 64)
            ids = arena.bindMemory(to: UInt32.self, capacity: longTokenCapacity)
            lengths = (arena + longTokenCapacity * 4).bindMemory(to: UInt16.self, capacity: longTokenCapacity)
            bytes = (arena + longTokenCapacity * 6).bindMemory(to: UInt8.self, capacity: longByteCapacity)
        }

        /// An empty memo over these tables.
        var emptyCache: PieceCache {
            PieceCache(
                small: tables.assumingMemoryBound(to: SmallEntry.self),
                entries: (tables + Self.smallBytes).assumingMemoryBound(to: Entry.self),
                long: (tables + Self.smallBytes + Self.wideBytes).assumingMemoryBound(to: LongEntry.self),
                arenaBytes: bytes, arenaIDs: ids, arenaLengths: lengths,
                kernelTable: ck_piece_table(
                    sets: (tables + Self.smallBytes + Self.wideBytes + Self.longBytes).assumingMemoryBound(to: ck_piece_set.self),
                    set_bits: UInt32(kernelSets.trailingZeroBitCount)),
                kernelMissList: (tables + Self.tableBytes - Self.kernelMissBytes).assumingMemoryBound(to: Int.self))
        }

        deinit {
            free(allocation)
            free(UnsafeMutableRawPointer(ids))
        }
    }

    /// A tokenizer's memos, kept between calls so that text seen before (the
    /// same document again, messages that share their words) starts warm.
    /// One memo per call in flight: a call takes one, or makes one for a long
    /// text, and gives it back; at most `limit` are kept.
    ///
    /// A thread gets back the memo it last gave back when that one is free:
    /// the lines of a memo in use sit in the cache of the core that used it.
    /// Lent last-in-first-out instead, the two workers of `tokcount -j 2`
    /// swapped memos from job to job, and a job began by fetching its memo's
    /// lines from the other core: on 10,000 files of 1 KB (jobs of 64 files),
    /// perf put 40% of the count's samples on one load from the memo's
    /// tables. Kept with their threads, the two workers took 2,896 + 2,730
    /// samples at 25 kHz instead of 4,835 + 4,492 (wall time unchanged: the
    /// calling thread's walk and report are the longer path there).
    final class Pool: @unchecked Sendable {
        // @unchecked Sendable: the free list and the byte tally are touched only under `lock`; a lease is used by one thread at a time.
        /// A memo lent to one call: give it back with `giveBack(_:)`.
        struct Lease {
            let storage: Storage
            var cache: PieceCache
            /// The thread that last gave it back.
            fileprivate var lastUser: pthread_t?
        }

        private let lock = NSLock()
        private var free: [Lease] = []
        /// Memos kept: one per core, for the parallel counter's workers.
        private let limit = max(1, ProcessInfo.processInfo.activeProcessorCount)

        /// Bytes of the texts encoded without a memo so far.
        private var bytesWithoutMemo = 0

        /// A kept memo, or a new one for a text of at least `minimumText`
        /// bytes, or once the shorter texts encoded without one add up to
        /// that much; nil otherwise, since for one short text making a memo
        /// costs more than it saves. Many short texts (a folder of small
        /// files, a stream of messages) are one long text to the memo: they
        /// share their words. On a folder of 10,000 files of 1 KB, counting
        /// them all without a memo took 2.5× the time of the one file they
        /// were cut from (perf, `tokcount -j 1 --json`).
        func take(textBytes: Int) -> Lease? {
            let me = pthread_self()
            lock.lock()
            let own = free.lastIndex { $0.lastUser.map { pthread_equal($0, me) != 0 } ?? false }
            let kept = own.map { free.remove(at: $0) } ?? free.popLast()
            if kept == nil { bytesWithoutMemo &+= textBytes }
            let enough = bytesWithoutMemo >= PieceCache.minimumText
            lock.unlock()
            if let kept { return kept }
            guard enough, let storage = Storage() else { return nil }
            return Lease(storage: storage, cache: storage.emptyCache)
        }

        /// Keeps a memo `take` lent, with what it learned, for the next call.
        func giveBack(_ lease: Lease) {
            var lease = lease
            lease.lastUser = pthread_self()
            lock.lock()
            if free.count < limit { free.append(lease) }
            lock.unlock()
        }

        /// Encodes the pieces `S` cuts `cursor`'s text into, from `from`: the
        /// scan loop of every single-scanner tokenizer (the OpenAI encodings'
        /// and model files'), through a memo when `take` lends one.
        ///
        /// The text goes through the memo in windows of `PieceCache.window`
        /// bytes; after a window in which the memo thrashed (`isThrashing`),
        /// the next `PieceCache.bypass` bytes go straight to the encoder, so
        /// that a text the memo cannot hold pays no lookups and stores for
        /// nothing. The memo is taken without a closure: through one, the
        /// compiler kept its hit path a call.
        @inline(__always)
        func scan<S: PieceScanner, Encoder: PieceEncoder, Sink: TokenSink>(
            _ scanner: S.Type, _ cursor: UTF8Cursor, from: Int, with encoder: Encoder, into sink: inout Sink
        ) {
            var i = from
            // The pieces up to `end` straight to the encoder.
            @inline(__always) func encodeDirectly(to end: Int) {
                while i < end && !sink.isFull {
                    let e = S.pieceEnd(cursor, from: i)
                    encoder.encode(cursor.base, i, e, into: &sink)
                    i = e
                }
            }
            guard var lease = take(textBytes: cursor.end &- from) else { return encodeDirectly(to: cursor.end) }
            if let pattern = S.piecePattern, let kernel = PieceKernel.entries,
                sink.takePieceKernel(kernel, pattern: pattern, S.self, cursor, from: from, with: encoder, cache: &lease.cache)
            {
                return giveBack(lease)
            }
            while i < cursor.end && !sink.isFull {
                let missesBefore = lease.cache.misses, evictionsBefore = lease.cache.evictions
                let windowEnd = Swift.min(cursor.end, i &+ PieceCache.window)
                while i < windowEnd && !sink.isFull {
                    let e = S.pieceEnd(cursor, from: i)
                    lease.cache.encode(encoder, cursor.base, i, e, readableTo: cursor.end, into: &sink)
                    i = e
                }
                if lease.cache.isThrashing(missesBefore: missesBefore, evictionsBefore: evictionsBefore) {
                    encodeDirectly(to: Swift.min(cursor.end, i &+ PieceCache.bypass))
                }
            }
            giveBack(lease)
        }

        /// Runs `body` with a memo from `take(textBytes:)`, or nil, and gives it back.
        func with<R>(textBytes: Int, _ body: (UnsafeMutablePointer<PieceCache>?) -> R) -> R {
            guard var lease = take(textBytes: textBytes) else { return body(nil) }
            let result = withUnsafeMutablePointer(to: &lease.cache) { body($0) }
            giveBack(lease)
            return result
        }
    }

    /// A piece of 3...8 bytes as one word, zero-padded, and its set's first
    /// slot. `readable` is how far past the piece the text may be read: with
    /// 8 bytes there, one load and a mask make the word, without a branch on
    /// the length (which the predictor misses on English about once in three
    /// pieces).
    @inline(__always)
    static func smallKey(_ p: UnsafePointer<UInt8>, _ n: Int, readable: Int) -> (word: UInt64, slot: Int) {
        let word =
            readable >= 8
            ? UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) & (UInt64.max >> UInt64(64 &- 8 &* n))
            : paddedWord(p, n)
        let h = (word ^ UInt64(truncatingIfNeeded: n) << 59) &* 0x9E37_79B9_7F4A_7C15
        // The product's top bits are its best mixed: one set index from them.
        return (word, Int(truncatingIfNeeded: h >> UInt64(64 &- smallSets.trailingZeroBitCount)) << 2)
    }

    /// The piece's key words and its set's first slot in `entries`. `n` is 3...16.
    @inline(__always)
    static func key(_ p: UnsafePointer<UInt8>, _ n: Int) -> (head: UInt64, tail: UInt64, slot: Int) {
        let raw = UnsafeRawPointer(p)
        let head: UInt64, tail: UInt64
        if n >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        } else {
            head = paddedWord(p, n)
            tail = 0
        }
        var h = (head ^ UInt64(truncatingIfNeeded: n) << 58) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ tail ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return (head, tail, (Int(truncatingIfNeeded: h >> 40) & (wideSets &- 1)) << 2)
    }

    /// The `n` bytes at `p` (3...7), zero-padded to a word, reading no byte
    /// past them: two overlapping four-byte loads, or three bytes.
    @inline(__always)
    static func paddedWord(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        guard n >= 4 else { return UInt64(p[0]) | UInt64(p[1]) << 8 | UInt64(p[2]) << 16 }
        let raw = UnsafeRawPointer(p)
        let low = UInt64(raw.loadUnaligned(as: UInt32.self))
        let high = UInt64(raw.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
        return low | high << UInt64((n &- 4) &* 8)
    }

    /// Encodes the piece `base[start..<end]` with `encoder`, through the memo;
    /// `base[start..<limit]` may be read (the rest of the text, or just the piece).
    ///
    /// Only the hit paths are inline: everything else (one- and two-byte
    /// pieces, long pieces, misses) is a call, so that the scan loop this is
    /// inlined into stays small.
    ///
    /// `@_transparent`, not `@inline(__always)`: in the specialisation for
    /// `IDCollector` the optimiser declined the hint and left a call per
    /// piece (callgrind, 2 MB of the English corpus: 401K calls a pass, 79
    /// instructions each); transparent inlining happens before it decides.
    /// One warm round of encode (cachegrind, cl100k): 37.0 → 32.0
    /// instructions a byte; count, which was already inlined, 30.0 → 30.4.
    @_transparent
    mutating func encode<Encoder: PieceEncoder, Sink: TokenSink>(
        _ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
        readableTo limit: Int, into sink: inout Sink
    ) {
        let n = end &- start
        if UInt(bitPattern: n &- 3) <= UInt(Self.maximumSmallPiece &- 3) {
            let (word, slot) = Self.smallKey(base + start, n, readable: limit &- start)
            // The four ways are compared without a branch each (which way
            // holds a piece is a coin toss to the predictor); an empty slot's
            // value is 0, which is also "not found".
            let length = UInt64(truncatingIfNeeded: n)
            var value: UInt64 = 0
            for way in 0..<4 {
                let entry = small[slot &+ way]
                value = (entry.key ^ word) | ((entry.value & 15) ^ length) == 0 ? entry.value : value
            }
            if value != 0 {
                Self.emit(value, start: start, end: end, into: &sink)
            } else {
                missed(encoder, base, start, end, into: &sink)
            }
            return
        }
        guard UInt(bitPattern: n &- 9) <= UInt(Self.maximumPiece &- 9) else {
            let id = n <= 2 ? encoder.shortPieceID(base + start, n) : .max
            if id != .max {
                sink.token(id, start: start, end: end)
            } else {
                encodeUnmemoized(encoder, base, start, end, into: &sink)
            }
            return
        }
        let (head, tail, slot) = Self.key(base + start, n)
        var found = -1
        for way in 0..<4 {
            let entry = entries[slot &+ way]
            let difference = (entry.head ^ head) | (entry.tail ^ tail) | ((entry.meta & 31) ^ UInt64(truncatingIfNeeded: n))
            found = difference == 0 ? way : found
        }
        if found >= 0 {
            Self.emit(entries[slot &+ found], start: start, end: end, into: &sink)
        } else {
            missed(encoder, base, start, end, into: &sink)
        }
    }

    /// A piece the short tables do not take: one or two bytes (the
    /// vocabulary answers those from direct tables), a long piece, or one
    /// over `maximumLongPiece` bytes. One call out of the scan loop, with
    /// the long path inlined into it (a second call per long piece cost CJK
    /// text, which is mostly long pieces).
    @inline(never)
    mutating func encodeUnmemoized<Encoder: PieceEncoder, Sink: TokenSink>(_ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        if n > Self.maximumPiece && n <= Self.maximumLongPiece {
            encodeLong(encoder, base, start, end, into: &sink)
        } else {
            encoder.encode(base, start, end, into: &sink)
        }
    }

    /// A piece of 3 to 16 bytes that the small table does not hold: found in
    /// the wide table (a piece of up to 8 bytes with three or four tokens
    /// lives there) or the long one (a piece whose tokens fit neither: CJK
    /// pieces of a few rare characters), or encoded and kept in the table its
    /// tokens fit; out of line, so that the hit path stays small enough to
    /// inline in the scan loop.
    @inline(never)
    mutating func missed<Encoder: PieceEncoder, Sink: TokenSink>(_ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        let (head, tail, slot) = Self.key(base + start, n)
        if n <= Self.maximumSmallPiece {
            for way in 0..<4 {
                let entry = entries[slot &+ way]
                if entry.head == head && entry.tail == tail && Int(entry.meta & 31) == n {
                    Self.emit(entry, start: start, end: end, into: &sink)
                    return
                }
            }
        }
        let hash = Vocabulary.hash(base + start, n)
        if replayLong(hash, base, start, end, into: &sink) { return }
        let firstToken = encodeIntoArena(encoder, base, start, end, into: &sink)
        let tokens = Self.ShortTokens(ids: arenaIDs + firstToken, lengths: arenaLengths + firstToken, count: tokensUsed &- firstToken)
        // The newer piece takes the first way and the others move down one:
        // the set keeps the four pieces most recently missed there.
        if n <= Self.maximumSmallPiece, let value = tokens.smallValue(length: n) {
            let set = Self.smallKey(base + start, n, readable: n).slot
            evictions &+= small[set &+ 3].value != 0 ? 1 : 0
            small[set &+ 3] = small[set &+ 2]
            small[set &+ 2] = small[set &+ 1]
            small[set &+ 1] = small[set]
            small[set] = SmallEntry(key: head, value: value)
        } else if let meta = tokens.meta(length: n) {
            evictions &+= entries[slot &+ 3].meta != 0 ? 1 : 0
            entries[slot &+ 3] = entries[slot &+ 2]
            entries[slot &+ 2] = entries[slot &+ 1]
            entries[slot &+ 1] = entries[slot]
            entries[slot] = Entry(head: head, tail: tail, meta: meta, more: tokens.more)
        } else {
            keepLong(hash, base + start, n, firstToken: firstToken)
            return
        }
        // Kept in a short table: the tokens' place in the arena is free again.
        tokensUsed = firstToken
    }

    /// A piece of 17 to `maximumLongPiece` bytes (CJK text is mostly these):
    /// replayed from the long table, or encoded and kept there. Entries
    /// outlive the call, so a text seen before replays its long pieces as
    /// well as its short ones.
    @inline(__always)
    mutating func encodeLong<Encoder: PieceEncoder, Sink: TokenSink>(_ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) {
        let n = end &- start
        let hash = Vocabulary.hash(base + start, n)
        if replayLong(hash, base, start, end, into: &sink) { return }
        let firstToken = encodeIntoArena(encoder, base, start, end, into: &sink)
        keepLong(hash, base + start, n, firstToken: firstToken)
    }

    /// Gives the tokens of `base[start..<end]` from the long table, if its set
    /// holds the piece: found by its hash's tag and its length, then compared
    /// byte for byte with the copy in the byte arena.
    @inline(__always)
    func replayLong<Sink: TokenSink>(_ hash: UInt64, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) -> Bool {
        let n = end &- start
        let set = Self.longSet(hash)
        let tag = UInt32(truncatingIfNeeded: hash)
        for way in 0..<Self.longWays {
            let entry = long[set &+ way]
            if entry.tag == tag && entry.generation == generation && entry.length == n
                && memcmp(arenaBytes + entry.firstByte, base + start, n) == 0
            {
                var tokenStart = start
                for k in entry.firstToken..<(entry.firstToken &+ entry.tokenCount) {
                    let tokenEnd = tokenStart &+ Int(arenaLengths[k])
                    sink.token(arenaIDs[k], start: tokenStart, end: tokenEnd)
                    tokenStart = tokenEnd
                }
                return true
            }
        }
        return false
    }

    /// Encodes the piece, passing its tokens to `sink` and appending them to
    /// the token arena from the index it returns (`tokensUsed` is then past
    /// them). Starts a new generation first if the arenas might not hold the
    /// piece and its tokens: a piece has at most one token per byte.
    @inline(__always)
    mutating func encodeIntoArena<Encoder: PieceEncoder, Sink: TokenSink>(_ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, into sink: inout Sink) -> Int
    {
        let n = end &- start
        if bytesUsed &+ n > Self.longByteCapacity || tokensUsed &+ n > Self.longTokenCapacity {
            startGeneration()
        }
        let firstToken = tokensUsed
        misses &+= 1
        withUnsafeMutablePointer(to: &sink) { inner in
            var appending = ArenaAppendingSink(inner: inner, ids: arenaIDs, lengths: arenaLengths, next: firstToken)
            encoder.encode(base, start, end, into: &appending)
            tokensUsed = appending.next
        }
        return firstToken
    }

    /// Keeps the piece at `piece` (`n` bytes), whose tokens `encodeIntoArena`
    /// just appended from `firstToken`, in the long table: its bytes are
    /// copied to the byte arena, and the piece takes its set's first way,
    /// the others moving down one, while the set has a free way. A full set
    /// gives the piece its last way (`longInsertionsOnTop` of them excepted),
    /// so that the others stay: a text's long pieces are mostly seen once or
    /// twice, and more than a set holds, pushed down in turn, were each gone
    /// before they came again (see "CJK's long pieces" in the notes above).
    @inline(__always)
    mutating func keepLong(_ hash: UInt64, _ piece: UnsafePointer<UInt8>, _ n: Int, firstToken: Int) {
        let set = Self.longSet(hash)
        (arenaBytes + bytesUsed).update(from: piece, count: n)
        let entry = LongEntry(
            hash: hash, firstByte: bytesUsed, length: n, firstToken: firstToken, tokenCount: tokensUsed &- firstToken,
            generation: generation)
        bytesUsed &+= n
        let last = set &+ Self.longWays &- 1
        let full = long[last].generation == generation
        evictions &+= full ? 1 : 0
        if full && misses % Self.longInsertionsOnTop != 0 {
            long[last] = entry
            return
        }
        for way in stride(from: Self.longWays &- 1, to: 0, by: -1) { long[set &+ way] = long[set &+ way &- 1] }
        long[set] = entry
    }

    /// One in this many long pieces kept in a full set takes its first way
    /// (`keepLong`), as in a set with room, so that a text whose pieces
    /// differ from those the table holds (a new document) still moves in.
    static let longInsertionsOnTop = 32

    /// The first slot of the long table's set for a piece with this hash.
    @inline(__always)
    static func longSet(_ hash: UInt64) -> Int {
        (Int(truncatingIfNeeded: hash >> 32) & (longSets &- 1)) &* longWays
    }

    /// Drops every long entry at once and starts both arenas over. Only when
    /// the generation number would wrap (and old entries come back to life)
    /// is the table cleared.
    mutating func startGeneration() {
        bytesUsed = 0
        tokensUsed = 0
        if generation == .max {
            UnsafeMutableRawPointer(long).initializeMemory(as: UInt8.self, repeating: 0, count: Storage.longBytes)
            generation = 1
        } else {
            generation &+= 1
        }
    }

    /// The tokens of a `SmallEntry`'s `value`.
    @inline(__always)
    static func emit<Sink: TokenSink>(_ value: UInt64, start: Int, end: Int, into sink: inout Sink) {
        let first = UInt32(truncatingIfNeeded: value >> 8) & (smallIDLimit &- 1)
        if value & 16 == 0 {
            sink.token(first, start: start, end: end)
            return
        }
        let middle = start &+ Int(truncatingIfNeeded: (value >> 5) & 7)
        sink.token(first, start: start, end: middle)
        sink.token(UInt32(truncatingIfNeeded: value >> 32) & (smallIDLimit &- 1), start: middle, end: end)
    }

    /// The tokens of an `Entry`.
    @inline(__always)
    static func emit<Sink: TokenSink>(_ entry: Entry, start: Int, end: Int, into sink: inout Sink) {
        let count = Int(truncatingIfNeeded: (entry.meta >> 5) & 7)
        var tokenStart = start
        var id = UInt32(truncatingIfNeeded: entry.meta >> 20) & (idLimit &- 1)
        var k = 0
        while k &+ 1 < count {
            let tokenEnd = start &+ Int(truncatingIfNeeded: (entry.meta >> UInt64(8 &+ 4 &* k)) & 15)
            sink.token(id, start: tokenStart, end: tokenEnd)
            id = UInt32(truncatingIfNeeded: entry.more >> UInt64(18 &* k)) & (idLimit &- 1)
            tokenStart = tokenEnd
            k &+= 1
        }
        sink.token(id, start: tokenStart, end: end)
    }

    /// A short piece's tokens, as `encodeIntoArena` left them in the arena,
    /// packed for the short tables.
    struct ShortTokens {
        let ids: UnsafeMutablePointer<UInt32>
        let lengths: UnsafeMutablePointer<UInt16>
        let count: Int

        /// A `SmallEntry`'s value, or nil when the tokens do not fit one.
        func smallValue(length n: Int) -> UInt64? {
            guard count == 1 || count == 2, ids[0] < PieceCache.smallIDLimit else { return nil }
            let value = UInt64(n) | UInt64(ids[0]) << 8
            guard count == 2 else { return value }
            guard ids[1] < PieceCache.smallIDLimit else { return nil }
            return value | 16 | UInt64(lengths[0]) << 5 | UInt64(ids[1]) << 32
        }

        /// An `Entry`'s `meta`, or nil when the tokens do not fit one: the
        /// length, the count, the end of each token but the last and the first id.
        func meta(length n: Int) -> UInt64? {
            guard count > 0 && count <= PieceCache.maximumTokens else { return nil }
            var meta = UInt64(n) | UInt64(count) << 5 | UInt64(ids[0]) << 20
            var end = 0
            for k in 0..<count {
                guard ids[k] < PieceCache.idLimit else { return nil }
                end &+= Int(lengths[k])
                if k &+ 1 < count { meta |= UInt64(end) << UInt64(8 &+ 4 &* k) }
            }
            return meta
        }

        /// An `Entry`'s `more`: the second to fourth ids (0 past `count`).
        var more: UInt64 {
            var more: UInt64 = 0
            for k in 1..<max(1, count) { more |= UInt64(ids[k]) << UInt64(18 &* (k &- 1)) }
            return more
        }
    }
}

/// Passes tokens on to `inner` and appends each id and length to the arena.
private struct ArenaAppendingSink<Inner: TokenSink>: TokenSink {
    let inner: UnsafeMutablePointer<Inner>
    let ids: UnsafeMutablePointer<UInt32>
    let lengths: UnsafeMutablePointer<UInt16>
    var next: Int

    @inline(__always)
    mutating func token(_ id: UInt32, start: Int, end: Int) {
        ids[next] = id
        lengths[next] = UInt16(truncatingIfNeeded: end &- start)
        next &+= 1
        inner.pointee.token(id, start: start, end: end)
    }
}
