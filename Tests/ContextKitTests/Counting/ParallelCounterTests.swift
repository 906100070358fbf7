import ContextKit
import Foundation
import TestSupport
import Testing

@Suite struct ParallelCounterTests {
    /// Counting in parallel gives the single-thread count, whatever the thread count.
    @Test(arguments: PieceBoundaryEncodings.all)
    func parallelEqualsSerial(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        var fuzz = TextFuzz(seed: 11)
        for round in 0..<6 {
            let text = fuzz.text(fragments: 100_000 + round * 20_000)
            try text.withUnsafeBufferPointer { buffer throws in
                let serial = tokenizer.count(utf8: buffer)
                for threads in [2, 3, 8] {
                    let counter = ParallelCounter(tokenizer: tokenizer, threads: threads)
                    #expect(counter.cuts(buffer, parts: threads * 4).count > 2)
                    #expect(try counter.count(utf8: buffer) == serial)
                }
            }
        }
    }

    /// Real prose in many scripts, cut into very many parts.
    @Test(arguments: PieceBoundaryEncodings.all)
    func realTextAtEveryCutSize(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        let folder = TestRepository.udhr
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { $0.hasSuffix(".txt") }
        var all: [UInt8] = []
        for name in names.prefix(120) { all += try Array(Data(contentsOf: folder.appendingPathComponent(name))) }
        try all.withUnsafeBufferPointer { buffer throws in
            let serial = tokenizer.count(utf8: buffer)
            let counter = ParallelCounter(tokenizer: tokenizer, threads: 4)
            let boundary = try #require(counter.boundary)
            var cuts = [0]
            while let cut = boundary.firstSafe(in: buffer, from: cuts.last! + 4_000) { cuts.append(cut) }
            cuts.append(buffer.count)
            #expect(cuts.count > 300)
            var sum = 0
            for k in 0..<(cuts.count - 1) {
                sum += tokenizer.count(utf8: UnsafeBufferPointer(rebasing: buffer[cuts[k]..<cuts[k + 1]]))
            }
            #expect(sum == serial)
            #expect(try counter.count(utf8: buffer) == serial)
        }
    }

    @Test func specialTokensCountOncePerOccurrenceWhenAllowed() throws {
        let t = try Tokenizer.named("cl100k_base")
        var text = Array(String(repeating: "some words <|endoftext|> and more\n", count: 5_000).utf8)
        try text.withUnsafeMutableBufferPointer { b throws in
            let buffer = UnsafeBufferPointer(b)
            let allowed = try ParallelCounter(tokenizer: t, special: .all, threads: 4).count(utf8: buffer)
            let expected = try t.count(String(decoding: buffer, as: UTF8.self), allowedSpecial: .all)
            #expect(allowed == expected)
            #expect(try t.count(utf8: buffer, allowedSpecial: .plainText).specialTokenStrings == 5_000)
            #expect(throws: TokenKitError.disallowedSpecialToken(token: "<|endoftext|>")) {
                try ParallelCounter(tokenizer: t, special: .none, threads: 4).count(utf8: buffer)
            }
        }
    }
}
