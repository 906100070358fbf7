import CPieceKernel
import Foundation

/// The C piece kernel of the OpenAI-style patterns (cl100k, Llama 3, Qwen 2,
/// o200k, tekken; `CPieceKernel`): while a text is ASCII and its pieces are
/// in the kernel's table, the kernel cuts them and counts them or writes
/// their ids, in one loop; every piece it cannot settle goes back to the
/// scanner and the memo (`PieceCache.count`, `PieceCache.encode`).
///
/// ## Why it never changes a count or an id
///
/// The kernel cuts a piece only when every byte the pattern looks at is
/// ASCII, by the same rules as `Cl100kScanner`, `Llama3Scanner`,
/// `Qwen2Scanner`, `O200kScanner` and `TekkenScanner`, with classes read
/// from the same character table
/// (`PiecePattern`); anything else it hands back undecided. Its table
/// is keyed by a piece's exact bytes and length and holds the count and ids
/// the memo gave for those bytes. `PieceKernelTests` compare every tier with
/// the scanners and the encoders on random, adversarial and real text.
///
/// ## Tiers
///
/// `CONTEXTKIT_KERNEL` chooses one for the process (`Tier`): `vector`, the
/// default, is `avx512` or `avx2` (compiled for AVX-512BW, or AVX2 and BMI2,
/// through function target attributes, chosen when the CPU has them) or
/// else `baseline` (SSE2 on
/// x86-64, NEON on arm64); `portable` is plain C; `off` is the memo's scan
/// loop, as before the kernel. `scripts/test` runs the parity suites on
/// every tier this machine has.
///
/// ## Performance notes
///
/// Issue 41, item 2. `tokbench cl100k_base count 6`, pinned to one CPU, the
/// median of 5 warm calls and of 5 processes alternated between tiers of one
/// binary (10 MB English, 5 MB code, 2 MB CJK of `bench/run`'s corpora, CPU
/// ms), `off` against `vector` (`portable`):
/// - English: warm 25.05 → 21.65 (22.55), first call 27.34 → 24.16 (25.12).
/// - Code: warm 17.47 → 14.58 (14.65), first call 27.28 → 27.33: code's first
///   call is its misses, which the memo still encodes.
/// - CJK: warm 5.13 → 5.17, first call 12.87 → 12.90. Most of it is handed
///   back undecided; `undecidedStretch` doubles while the kernel settles
///   nothing, which took a first version's warm 5.10 → 6.11 back to 5.2.
/// - o200k (its cased words and contraction suffix, added after): English
///   warm 27.28 → 23.47 (25.72), first call 29.57 → 26.06; code warm 18.54
///   → 15.42 (16.20); CJK warm 5.15 → 5.18.
///
/// `perf annotate` on the English pass puts a third of the kernel's samples
/// on the two loads a hit makes: the set's line (an L2 hit: the keys are
/// 1 MB, this core's L1 48 KB) and the way's count. So:
/// - The count lives in the key's top nibble, not in an array beside the
///   keys: one line a hit instead of two. English 21.1 → 21.0 ms, within
///   the noise; kept because it also halves the table's lines in use.
/// - Tried: cutting 32 pieces (each key made, its set prefetched) before
///   probing any, as gigatoken batches. English 21.0 → 22.3 ms. (The code
///   corpus's 14.0 → 17.8 in that run was a bug since fixed: a piece missed
///   twice in one call was kept twice, pushing others out, and the
///   thrashing test sent stretches to the bypass.) Rejected for now.
///   Tried again with 16 pieces, after that fix: English 21.63 → 22.44,
///   code 14.65 → 15.67. The lines an English text uses are in L2, and
///   cutting the pieces apart from their probes gains nothing to hide.
/// - Tried: the first way tested alone, with a branch, before the other
///   three (a set's newest piece is there): English 21.61 → 30.48, code
///   14.69 → 17.09. The newest piece of a set is the one last missed, not
///   the one most used, so the branch is a coin toss.
/// - Tried: a space's tests apart from punctuation's, since
///   cachegrind (`tokbench cl100k_base count 3` on 2 MB of the English
///   corpus: 27.5 instructions a byte and 117 mispredicted branches a KB
///   in the kernel, against the memo's 30.2 and 197 in `PieceCache`'s
///   notes) put 39% of the kernel's mispredicts on the shared "letters
///   next?" test: English 21.63 → 21.79, code 14.65 → 14.92. Rejected.
/// - Misses are listed, not returned one at a time: counting is a sum, so
///   the memo encodes a call's misses together after it, and each call
///   covers up to `countMissCapacity` of them.
///
/// - The same loop compiled for AVX2 and BMI2 (`ck_count_pieces_avx2`):
///   English 21.55 → 19.34, first call 24.32 → 21.92; code 14.65 → 13.54.
///   With it, `off` / `baseline` / `vector`, warm (first call): cl100k
///   English 25.21 / 21.53 / 19.03 (27.55 / 24.07 / 21.57), code 17.53 /
///   14.54 / 13.24 (27.18 / 27.14 / 25.80), CJK 5.09 / 5.10 / 5.11; o200k
///   English 27.54 / — / 20.75 (29.84 / — / 23.34), code 18.69 / — / 14.31.
///
/// Encode (stop 53), `tokbench cl100k_base encode 6`, measured as above,
/// warm (first call):
/// - Ids in the table, written by `ck_encode_pieces` straight into the
///   `IDCollector`'s room, four a hit whatever the count (no branch on it),
///   the kernel stopping at each piece the table lacks so that the ids stay
///   in order: English 26.9 → 25.2 ms with the ids on lines of their own
///   (a prefetch of the set's ids line bought 26.2 → 25.2 of that); code
///   18.7 → 18.8. `perf annotate` put 18% of the kernel's samples on the
///   ids' load, which waited for the match to say which way.
/// - A set is its keys' line and its ids' line side by side
///   (`ck_piece_set`): English 25.2 → 24.4; count unchanged (19.41 /
///   19.44, code 13.83 / 13.94).
/// - The hit's count and ids chosen with the ways' match masks from what the
///   comparison loaded, so the ids' line is read from the set's address at
///   once: English 24.4 → 24.2, code 18.4 → 15.9. Count, through the same
///   masks: unchanged (19.4, 14.0).
/// - Tried: a missed piece given a slot per byte and listed, the kernel going
///   on, and the gaps closed after the call (as counting lists its misses):
///   English 24.9 → 24.5, code 18.5 → 19.1, base64 1 MiB unchanged (25.6).
///   A call per miss was not what missing cost. Rejected.
/// - Tried: a missed piece of up to 15 bytes encoded without the memo (the
///   table keeping it): code's first call unchanged (27.8 / 28.1 count),
///   its warm count 14.05 → 15.99: the memo is where the pieces the table
///   drops are found again. Rejected.
/// - Still short of count: English encode warm is 24 ms against count's
///   19.5. The ids are `Int`s, 17 MB for 10 MB of English (gigatoken's
///   are 4 bytes), and every hit stores 32 bytes.
///
/// Windows (stop 54): the vector tiers cut 64 bytes at a time
/// (`window_starts` in `PieceKernel.c`): the bytes become masks (letters,
/// capitals, digits, space, whitespace, newlines, apostrophes, slashes,
/// bytes from 0x80), every piece start of the window comes from shifts,
/// ands and two carries, and the pieces between starts are probed with no
/// branch on what kind of piece each is. Before, the class of each piece's
/// first byte chose a path, and that branch, a coin toss on prose, was what
/// `perf` and cachegrind put the kernel's time on. A window's last run (the
/// bytes after it may change where it ends) waits for the next window,
/// which begins at its last start; what the masks do not settle (a byte
/// from 0x80, a newline after spaces after a newline, o200k's slash after
/// punctuation's newlines) ends a window early, and a piece no window
/// settles goes to the piece-by-piece loop. The portable tier keeps that
/// loop, and `scripts/piece-kernel-check.c` holds the windows to it. The
/// same binary before and after, alternated, 9 processes, the minimum
/// (median) of their warm calls, CPU ms, cl100k:
/// - English count 19.86 (29.43) → 13.81 (15.86); encode 27.94 (31.58) →
///   19.32 (23.50).
/// - Code count 16.44 (20.81) → 10.50 (11.09); encode 17.82 (20.69) →
///   12.08 (14.16).
/// - First calls, English count 27.24 → 20.71, encode 41.23 → 33.98: what
///   remains there is the memo encoding the text's new pieces.
/// - The machine was noisy (the same binary's English count ranged 19.9 to
///   35.9 ms across processes), hence the minimum.
/// - The AVX-512 tier classifies a window with one load, the AVX2 tier with
///   two, the baseline with four: English count 13.20 / 13.35 / 29.96,
///   encode 19.85 / 19.80 / 34.10. The classifier is not where the time
///   goes; the baseline (no BMI2, a shift a bit through `cl`) is far behind
///   on this CPU, piece by piece too (35.42 before windows, 29.41 after).
/// - Against gigatoken 0.10.0's encode (warm, one CPU, alternated in one
///   run; the rows where neither was disturbed): cl100k English count 13.0
///   against its 16.7 (1.28×), encode 19.0-19.6 (0.85-0.88×); code count
///   9.3-9.8 against 11.3-11.4 (1.16-1.22×), encode 13.2-13.8 (0.83-0.86×).
///   What is left in encode is the set's load, which the ids' stores now
///   wait behind (17.5% of the kernel's samples), and the id pages.
///
/// First calls and CJK (stop 55). `tokbench cl100k_base count 6`, one CPU,
/// 5 processes alternated with the binary before, median (minimum) CPU ms:
/// - Where a first call goes: `perf` on code's (5 MB, 36–39 ms against 9
///   warm) puts 29% in `missed` and 23% in the kernel; `missed`'s samples
///   are loads that miss the cache, one per table a new piece passes
///   through: the memo's short and long sets, the vocabulary's hash slot,
///   the trie's nodes, the merge tree's filter. gigatoken's first call on
///   that corpus is about 3× its warm call too (30–35 against 11.3 ms):
///   a text's new pieces must be encoded once.
/// - Tried: the kernel's table seeded from the vocabulary when a memo is
///   made (its ASCII tokens of up to 15 bytes that the scanner cuts whole,
///   each with the encoder's ids, from the highest id down): building the
///   seed took 12.9–15.5 ms, and a first call with it 53.79 (code) and
///   30.23 (English) against 36.25 and 19.45, so the seed saved about 4.7
///   ms of English's first call and nothing of code's. Warm code got
///   slower, 9.20–9.44 → 13.04–16.06 (minimum 8.1–8.6 either way): a full
///   table makes every piece learnt evict one, and the thrashing test
///   (`thrashed`) then sends windows to the bypass. A seed kept in the
///   prepared-vocabulary cache would save the build, but not more than
///   those 4.7 ms, and only with a thrashing test that tells seeded entries
///   from learnt ones. Rejected, as the memo's short tables' seed was
///   (`PieceCache`).
/// - Where Debian zh/ja goes (3 MB, 6 calls): the pieces the kernel hands
///   back, 21% in the scan of `cutUndecided` and 33% in the long pieces'
///   path, 38% of which is the load of the long table's set; the kernel
///   itself 4.9%.
/// - Tried: `cutUndecided` one piece ahead, the next piece cut and its memo
///   line prefetched (`__builtin_prefetch`) before this one is looked up:
///   Debian zh/ja warm 21.13 (18.26) → 20.42 (19.13), Markov CJK 5.41
///   (5.20) → 6.09 (5.84), first calls unchanged. The second scan and hash
///   cost what the overlap saved. Rejected. What these rows need is the
///   kernel cutting non-ASCII text itself, as gigatoken does with a class
///   per code point.
/// - Stop 56, `perf` on a warm count of Debian zh/ja (cl100k, 40 calls): a
///   third of the time is loads from the memo that miss L2 (the small
///   table's set 9.5%, the wide one's 6.7%, the long one's 16.7%).
///   - Tried: `cutUndecided` cutting 16 pieces, each one's set prefetched
///     (both lines of a long set, its hash computed twice), before any is
///     looked up. 4 alternated processes, warm median CPU ms: Debian zh/ja
///     12.71 → 14.04, Markov CJK 5.15 → 6.13. Rejected, as the batches of
///     stop 49 were on English.
///   - Tried: the memo's tables on huge pages (`mmap` aligned to 2 MB,
///     `MADV_HUGEPAGE`; `smaps` showed the 6 MB backed by them). Warm Debian
///     zh/ja 13.94 → 15.31, Debian English 14.55 → 15.30, first calls 3 ms
///     faster. The misses are L2's, not the TLB's. Rejected.
///   - Tried: the tables aligned to 128 bytes, so that a 128-byte set is one
///     pair of lines. cl100k encode, 5 alternated processes on a noisy hour:
///     Debian English 26.22 → 23.50, code 13.49 → 15.57. Not kept on a
///     result that went both ways.
/// - The table's full sets turn their last way over (`ck_piece_table_keep`),
///   as the memo's long table does (`PieceCache.keepLong`): the code corpus
///   has 38,431 distinct short pieces for 65,536 ways, and where five or
///   more shared a set, each new one had pushed the others down and out.
///   Against the binary before, 5–7 alternated processes (a noisy hour):
///   code count 11.83 (9.01) → 9.33 (8.23), encode 14.88 (12.87) → 13.83
///   (12.28); o200k code count 9.67 (8.82) → 9.50 (8.40); Python/C
///   sources 14.08 (13.12) → 13.83 (13.24) and English 21.34 (12.83) →
///   21.25 (12.88), unchanged.
@usableFromInline
enum PieceKernel {
    /// A count entry point (`ck_count_pieces` and its tiers).
    typealias CountEntry =
        @convention(c) (
            UnsafePointer<ck_piece_table>?, UnsafePointer<ck_piece_pattern>?, UnsafePointer<UInt8>?, Int, Int, Int,
            UnsafeMutablePointer<Int>?, Int
        ) -> ck_count_result

    /// An encode entry point (`ck_encode_pieces` and its tiers).
    typealias EncodeEntry =
        @convention(c) (
            UnsafePointer<ck_piece_table>?, UnsafePointer<ck_piece_pattern>?, UnsafePointer<UInt8>?, Int, Int, Int,
            UnsafeMutablePointer<Int64>?, Int
        ) -> ck_encode_result

    /// One tier's two entry points.
    @usableFromInline
    struct Entries: Sendable {
        let count: CountEntry
        let encode: EncodeEntry
    }

    /// The tier `CONTEXTKIT_KERNEL` names.
    enum Tier: String, CaseIterable, Sendable {
        /// The best this CPU runs: `avx512`, else `avx2`, else `baseline`.
        case vector
        /// Compiled for AVX-512BW (and AVX2, BMI2), on x86-64 CPUs that have
        /// them: one load classifies a window.
        case avx512
        /// Compiled for AVX2 and BMI2, on x86-64 CPUs that have them.
        case avx2
        /// SSE2 on x86-64, NEON on arm64 (every such CPU has them); the
        /// portable loop elsewhere.
        case baseline
        /// Plain C.
        case portable
        /// No kernel: the memo's scan loop.
        case off

        /// The tier from `CONTEXTKIT_KERNEL`: `vector` when unset, unknown,
        /// or naming a tier this CPU cannot run.
        static var fromEnvironment: Tier {
            guard let value = getenv("CONTEXTKIT_KERNEL"), let tier = Tier(rawValue: String(cString: value)),
                tier == .off || tier.entries != nil
            else { return .vector }
            return tier
        }

        /// The kernel's entry points for this tier, or nil for `off` and for
        /// a tier this CPU cannot run.
        var entries: Entries? {
            switch self {
            case .vector: return Tier.avx512.entries ?? Tier.avx2.entries ?? Tier.baseline.entries
            case .avx512:
                return ck_count_avx512_available() != 0
                    ? Entries(count: ck_count_pieces_avx512, encode: ck_encode_pieces_avx512) : nil
            case .avx2:
                return ck_count_avx2_available() != 0 ? Entries(count: ck_count_pieces_avx2, encode: ck_encode_pieces_avx2) : nil
            case .baseline: return Entries(count: ck_count_pieces, encode: ck_encode_pieces)
            case .portable: return Entries(count: ck_count_pieces_portable, encode: ck_encode_pieces_portable)
            case .off: return nil
            }
        }
    }

    /// The tier this process counts and encodes with, read once.
    static let tier = Tier.fromEnvironment

    /// `tier`'s entry points, found once: `avx512`'s and `avx2`'s tests run `cpuid`, which
    /// a virtual machine traps. Asked per call, it cost `tokcount -j 1` on
    /// 10,000 files of 1 KB 105 → 131 ms of CPU (`perf stat -r 10`).
    static let entries = tier.entries
}

/// The tokens of one piece the kernel's table lacked, as the memo encodes
/// them: their count, and the first `CK_PIECE_TABLE_IDS` ids, which the
/// table keeps when the piece has no more.
struct PieceTokens: TokenSink {
    var count = 0
    var ids: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)

    @inline(__always) mutating func token(_ id: UInt32, start: Int, end: Int) {
        switch count {
        case 0: ids.0 = id
        case 1: ids.1 = id
        case 2: ids.2 = id
        case 3: ids.3 = id
        default: break
        }
        count &+= 1
    }

    /// The `k`th id, `k` < `CK_PIECE_TABLE_IDS`.
    @inline(__always) func id(_ k: Int) -> UInt32 {
        withUnsafeBytes(of: ids) { $0.load(fromByteOffset: k &* 4, as: UInt32.self) }
    }
}

/// A pattern as the kernel reads it: each ASCII byte's class from the
/// character table the scanners use, and the few ways the patterns differ.
@usableFromInline
final class PiecePattern: Sendable {
    // Written once in `init`, read-only after: safe to share.
    nonisolated(unsafe) let pattern: UnsafeMutablePointer<ck_piece_pattern>

    /// Where a pattern matches contractions.
    enum Contractions: UInt8 {
        case none, first, afterWords
    }

    init(maxDigits: UInt8, trailingRunIsOnePiece: Bool, casedWords: Bool, contractions: Contractions, slashesTrailPunctuation: Bool) {
        let table = CharacterClassTable.shared
        var classes = [UInt8](repeating: 0, count: 128)
        for b in 0..<128 {
            let c = table.classes(of: UInt32(b))
            classes[b] =
                switch UInt8(b) {
                case _ where c.contains(.letter): UInt8(CK_CLASS_LETTER)
                case _ where c.contains(.number): UInt8(CK_CLASS_DIGIT)
                case 0x0A, 0x0D: UInt8(CK_CLASS_NEWLINE)
                case 0x20: UInt8(CK_CLASS_SPACE)
                case _ where c.contains(.whitespace): UInt8(CK_CLASS_BLANK)
                case UInt8(ascii: "'"): UInt8(CK_CLASS_APOSTROPHE)
                default: UInt8(CK_CLASS_OTHER)
                }
        }
        pattern = .allocate(capacity: 1)
        ck_piece_pattern_init(pattern, classes)
        pattern.pointee.max_digits = maxDigits
        pattern.pointee.trailing_run_is_one_piece = trailingRunIsOnePiece ? 1 : 0
        pattern.pointee.cased_words = casedWords ? 1 : 0
        pattern.pointee.contractions = contractions.rawValue
        pattern.pointee.slashes_trail_punctuation = slashesTrailPunctuation ? 1 : 0
    }

    deinit { pattern.deallocate() }

    /// cl100k_base's (`Cl100kScanner`).
    static let cl100k = PiecePattern(
        maxDigits: 3, trailingRunIsOnePiece: true, casedWords: false, contractions: .first, slashesTrailPunctuation: false)
    /// Llama 3's (`Llama3Scanner`): cl100k's, with whitespace that ends the
    /// text cut after its last line break.
    static let llama3 = PiecePattern(
        maxDigits: 3, trailingRunIsOnePiece: false, casedWords: false, contractions: .first, slashesTrailPunctuation: false)
    /// Qwen 2's (`Qwen2Scanner`): Llama 3's with one digit a number piece.
    static let qwen2 = PiecePattern(
        maxDigits: 1, trailingRunIsOnePiece: false, casedWords: false, contractions: .first, slashesTrailPunctuation: false)
    /// o200k_base's (`O200kScanner`).
    static let o200k = PiecePattern(
        maxDigits: 3, trailingRunIsOnePiece: false, casedWords: true, contractions: .afterWords, slashesTrailPunctuation: true)
    /// Mistral tekken's (`TekkenScanner`): o200k's without contractions, one digit a number piece.
    static let tekken = PiecePattern(
        maxDigits: 1, trailingRunIsOnePiece: false, casedWords: true, contractions: .none, slashesTrailPunctuation: true)
}

extension PieceCache {
    /// Sets of four keys in the kernel's table; a power of two.
    static let kernelSets = 16_384

    /// Encodes the piece `base[start..<end]`, which the kernel's table
    /// lacked, through this memo, and has `table` keep it when it is short
    /// enough; `misses` and `evictions` count what the table did.
    @inline(__always)
    mutating func learn<Encoder: PieceEncoder>(
        _ encoder: Encoder, _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, readableTo textEnd: Int,
        into table: inout ck_piece_table, misses: inout Int, evictions: inout Int
    ) -> PieceTokens {
        var piece = PieceTokens()
        encode(encoder, base, start, end, readableTo: textEnd, into: &piece)
        let n = end &- start
        if n <= Int(CK_PIECE_TABLE_LONGEST_PIECE) {
            misses &+= 1
            evictions &+= withUnsafeBytes(of: piece.ids) {
                Int(ck_piece_table_keep(&table, base + start, n, UInt8(truncatingIfNeeded: piece.count), $0.baseAddress!.assumingMemoryBound(to: UInt32.self)))
            }
        }
        return piece
    }

    /// Counts the pieces `S` cuts `cursor`'s text into, from `from`, with the
    /// kernel `entry`: what it hands back undecided goes to the scanner, and
    /// what it misses to this memo, whose count the kernel then keeps.
    ///
    /// In windows of `window` bytes, like `Pool.scan`: after a window in
    /// which the kernel's table thrashed (`thrashed`, on its misses and
    /// evictions), the next `bypass` bytes go straight to the encoder.
    @inline(__always)
    mutating func count<S: PieceScanner, Encoder: PieceEncoder>(
        _ scanner: S.Type, kernel entry: PieceKernel.CountEntry, pattern: PiecePattern, _ cursor: UTF8Cursor,
        from: Int, with encoder: Encoder, into counter: inout TokenCounter
    ) {
        let base = cursor.base, end = cursor.end
        var table = kernelTable
        var i = from
        var kernelMisses = 0, kernelEvictions = 0
        var stretch = Self.undecidedStretch
        let misses = kernelMissList
        while i < end {
            let missesBefore = kernelMisses, evictionsBefore = kernelEvictions
            let windowEnd = Swift.min(end, i &+ Self.window)
            while i < windowEnd {
                let callStart = i
                let r = entry(&table, pattern.pattern, base, i, end, windowEnd, misses, Self.countMissCapacity)
                counter.count &+= r.tokens
                // The pieces the table lacked, through the memo; counting is a
                // sum, so a call's misses are learnt after it.
                for k in 0..<r.misses {
                    counter.count &+=
                        learn(
                            encoder, base, misses[2 &* k], misses[2 &* k &+ 1], readableTo: end, into: &table, misses: &kernelMisses,
                            evictions: &kernelEvictions
                        ).count
                }
                i = r.position
                if r.stop == Int32(CK_COUNT_UNDECIDED) {
                    cutUndecided(S.self, cursor, at: &i, after: callStart, stretch: &stretch, with: encoder, into: &counter)
                }
            }
            if Self.thrashed(misses: kernelMisses &- missesBefore, evictions: kernelEvictions &- evictionsBefore) {
                bypass(S.self, cursor, at: &i, with: encoder, into: &counter)
            }
        }
    }

    /// Encodes the pieces `S` cuts `cursor`'s text into, from `from`, with the
    /// kernel `entry`, which writes their ids straight into `sink`: as
    /// `count`, but the kernel stops at each piece its table lacks, since
    /// the ids must stay in order.
    @inline(__always)
    mutating func encode<S: PieceScanner, Encoder: PieceEncoder>(
        _ scanner: S.Type, kernel entry: PieceKernel.EncodeEntry, pattern: PiecePattern, _ cursor: UTF8Cursor,
        from: Int, with encoder: Encoder, into sink: inout IDCollector
    ) {
        let base = cursor.base, end = cursor.end
        var table = kernelTable
        var i = from
        var kernelMisses = 0, kernelEvictions = 0
        var stretch = Self.undecidedStretch
        while i < end {
            let missesBefore = kernelMisses, evictionsBefore = kernelEvictions
            let windowEnd = Swift.min(end, i &+ Self.window)
            while i < windowEnd {
                let callStart = i
                let room = sink.room(atLeast: Int(CK_PIECE_TABLE_IDS))
                // `Int` is `Int64` wherever the kernel encodes (`IDCollector.takePieceKernel`).
                let r = room.withMemoryRebound(to: Int64.self) {
                    entry(&table, pattern.pattern, base, i, end, windowEnd, $0.baseAddress, $0.count)
                }
                sink.advance(by: r.written)
                i = r.position
                switch r.stop {
                case Int32(CK_ENCODE_MISS):
                    let pieceEnd = r.miss_end
                    let piece = learn(encoder, base, i, pieceEnd, readableTo: end, into: &table, misses: &kernelMisses, evictions: &kernelEvictions)
                    if piece.count <= Int(CK_PIECE_TABLE_IDS) {
                        for k in 0..<piece.count { sink.token(piece.id(k), start: i, end: pieceEnd) }
                    } else {
                        // The memo holds it now.
                        encode(encoder, base, i, pieceEnd, readableTo: end, into: &sink)
                    }
                    i = pieceEnd
                case Int32(CK_ENCODE_UNDECIDED):
                    cutUndecided(S.self, cursor, at: &i, after: callStart, stretch: &stretch, with: encoder, into: &sink)
                default:  // the end, the window's end, or more room needed
                    break
                }
            }
            if Self.thrashed(misses: kernelMisses &- missesBefore, evictions: kernelEvictions &- evictionsBefore) {
                bypass(S.self, cursor, at: &i, with: encoder, into: &sink)
            }
        }
    }

    /// Has the scanner cut, and this memo encode, the pieces a byte from 0x80
    /// decides, from `i`, and a few after, before the kernel is asked again:
    /// twice as many bytes each time the kernel settled nothing since
    /// `callStart` (CJK text), back to the least when it did (English with a
    /// few accents).
    @inline(__always)
    mutating func cutUndecided<S: PieceScanner, Encoder: PieceEncoder, Sink: TokenSink>(
        _ scanner: S.Type, _ cursor: UTF8Cursor, at i: inout Int, after callStart: Int, stretch: inout Int, with encoder: Encoder,
        into sink: inout Sink
    ) {
        stretch = i == callStart ? Swift.min(stretch &* 2, Self.longestUndecidedStretch) : Self.undecidedStretch
        let until = Swift.min(cursor.end, i &+ stretch)
        while i < until {
            let e = S.pieceEnd(cursor, from: i)
            encode(encoder, cursor.base, i, e, readableTo: cursor.end, into: &sink)
            i = e
        }
    }

    /// Has the encoder encode the next `bypass` bytes from `i` without the
    /// memo or the kernel, after a window in which the kernel's table thrashed.
    @inline(__always)
    func bypass<S: PieceScanner, Encoder: PieceEncoder, Sink: TokenSink>(
        _ scanner: S.Type, _ cursor: UTF8Cursor, at i: inout Int, with encoder: Encoder, into sink: inout Sink
    ) {
        let bypassEnd = Swift.min(cursor.end, i &+ Self.bypass)
        while i < bypassEnd {
            let e = S.pieceEnd(cursor, from: i)
            encoder.encode(cursor.base, i, e, into: &sink)
            i = e
        }
    }

    /// Pieces the kernel lists as missed before it returns.
    static let countMissCapacity = 64

    /// Bytes the scanner cuts after the kernel hands a piece back undecided,
    /// at least.
    static let undecidedStretch = 16
    /// ... and at most, however long the kernel settles nothing (CJK text).
    static let longestUndecidedStretch = 4_096
}
