import Foundation

/// Counts tokens of big buffers on all cores, with counts identical to a
/// single-thread run: the buffer is cut only at `PieceBoundary` safe cuts.
public struct ParallelCounter: Sendable {
    /// The tokenizer that counts.
    public let tokenizer: Tokenizer
    /// How special-token text is counted.
    public let special: SpecialTokenPolicy
    /// Threads the count may use (at least 1).
    public let threads: Int
    /// Where the counter may cut the text: `tokenizer.pieceBoundary(allowedSpecial:)`;
    /// nil when the tokenizer has no proven cuts (texts are then counted whole).
    public let boundary: PieceBoundary?

    /// A counter for `tokenizer` on up to `threads` threads (all cores by default).
    public init(
        tokenizer: Tokenizer, special: SpecialTokenPolicy = .plainText,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.tokenizer = tokenizer
        self.special = special
        self.threads = max(1, threads)
        self.boundary = tokenizer.pieceBoundary(allowedSpecial: special)
    }

    /// Buffers smaller than this are not worth a thread.
    static let minimumPart = 1 << 16

    /// The exact token count of the UTF-8 bytes `text` (honouring the
    /// special-token policy): the same number `Tokenizer.count` gives on one thread.
    ///
    /// - Throws: `TokenKitError.disallowedSpecialToken` when the policy
    ///   refuses special-token text found in `text`.
    public func count(utf8 text: UnsafeBufferPointer<UInt8>) throws -> Int {
        let cuts = self.cuts(text, parts: threads * 4)
        if cuts.count <= 2 || threads == 1 { return try tokenizer.count(utf8: text, allowedSpecial: special).tokens }
        let parts = cuts.count - 1
        let results = UnsafeMutableBufferPointer<Result<Int, Error>>.allocate(capacity: parts)
        results.initialize(repeating: .success(0))
        defer { results.deallocate() }
        let base = text.baseAddress!
        let tokenizer = self.tokenizer, special = self.special
        let resultsBase = results.baseAddress!
        // Each part writes only its own slot.
        nonisolated(unsafe) let slots = resultsBase
        nonisolated(unsafe) let bytes = base
        DispatchQueue.concurrentPerform(iterations: parts) { k in
            let part = UnsafeBufferPointer(start: bytes + cuts[k], count: cuts[k + 1] - cuts[k])
            slots[k] = Result { try tokenizer.count(utf8: part, allowedSpecial: special).tokens }
        }
        var total = 0
        for r in results { total += try r.get() }
        return total
    }

    /// Byte offsets `[0, c1, …, text.count]` that cut `text` at safe cuts into
    /// about `parts` parts of similar size; just `[0, text.count]` when the
    /// text is under 128 KiB, `parts` is 1, or no cut is proven for the tokenizer.
    public func cuts(_ text: UnsafeBufferPointer<UInt8>, parts: Int) -> [Int] {
        var cuts = [0]
        guard let boundary, parts > 1, text.count >= 2 * Self.minimumPart else { return [0, text.count] }
        let step = max(Self.minimumPart, text.count / parts)
        var target = step
        while target < text.count - Self.minimumPart / 2 {
            guard let cut = boundary.firstSafe(in: text, from: max(target, cuts.last! + 1)) else { break }
            if cut >= text.count { break }
            cuts.append(cut)
            target = cut + step
        }
        cuts.append(text.count)
        return cuts
    }
}
