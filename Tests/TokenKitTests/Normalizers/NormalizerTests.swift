import Foundation
import Testing
@testable import TokenKit

extension OpenModels {
    @Suite struct NormalizerTests {
        static let texts: [String] = {
            var texts = OpenModelFixtures.udhrTexts.map(\.text)
            var random = RandomText(seed: 11)
            for _ in 0..<4000 { texts.append(random.text()) }
            // A combining mark right after ASCII runs of every length: the
            // normalizer passes ASCII eight bytes at a time, so each length
            // ends that step at another place before the mark.
            for n in 0..<24 { texts.append(String("the quick brown fox jumps".prefix(n)) + "\u{301}e\u{301}\u{327} ok") }
            return texts
        }()

        /// The reference is the build's Unicode source run over the whole text
        /// at once: the normalizer must give the same bytes while touching only
        /// what changes. (`UnicodeSourceTests` proves the two sources equal;
        /// Foundation's normalization on Linux is no reference: it leaves Hangul
        /// LV+T uncomposed and does not reorder marks that come from a
        /// compatibility decomposition.)
        @Test(arguments: NormalizationForm.allCases)
        func sameAsWholeText(_ form: NormalizationForm) {
            let normalizer: Normalizer = [.nfc: .nfc, .nfd: .nfd, .nfkc: .nfkc, .nfkd: .nfkd][form]!
            var differences: [String] = []
            var changed = 0
            var scratch: [UInt32] = []
            for text in Self.texts {
                let expected = Array(text.utf8).withUnsafeBufferPointer { b in
                    UnicodeData.normalize(b.baseAddress!, count: b.count, to: form, scratch: &scratch) ?? Array(b)
                }
                var input = text
                let (bytes, origins) = input.withUTF8 { b -> ([UInt8], [Int32]?) in
                    guard let n = normalizer.apply(b.baseAddress!, from: 0, to: b.count) else { return (Array(b), nil) }
                    return (n.bytes, n.origins)
                }
                if origins != nil { changed += 1 }
                if let origins {
                    #expect(origins.count == bytes.count + 1 && origins.last == Int32(text.utf8.count))
                    #expect(zip(origins, origins.dropFirst()).allSatisfy { $0 <= $1 }, "origins go backwards")
                }
                if bytes != expected { differences.append(text.prefix(40).debugDescription) }
            }
            print("normalizer \(form) (\(UnicodeData.cacheKey)): \(Self.texts.count) texts, \(changed) changed, \(differences.count) differ")
            #expect(differences.count == 0, "\(differences.prefix(10))")
        }

        @Test func rewrites() {
            func run(_ n: Normalizer, _ text: String) -> String {
                var text = text
                return text.withUTF8 { b in
                    guard let base = b.baseAddress, let out = n.apply(base, from: 0, to: b.count) else { return String(decoding: b, as: UTF8.self) }
                    return String(decoding: out.bytes, as: UTF8.self)
                }
            }
            let metaSpace: Normalizer = .sequence([.prepend(Array("▁".utf8)), .replace(pattern: [0x20], content: Array("▁".utf8))])
            #expect(run(metaSpace, "Hello world") == "▁Hello▁world")
            #expect(run(metaSpace, "") == "")
            #expect(run(.prefixSpace, "x") == " x")
            #expect(run(.prefixSpace, " x") == " x")
            #expect(run(.strip(left: true, right: true), " \t x y \n") == "x y")
            #expect(run(.strip(left: false, right: true), "  x  ") == "  x")
            #expect(run(.lowercase, "ÀB Σ") == "àb σ")
            #expect(run(.replace(pattern: Array("ab".utf8), content: Array("x".utf8)), "aabab b") == "axx b")
            #expect(run(.sequence([.nfkc, .lowercase]), "ＡＢﬁ") == "abfi")
        }

        /// Token ranges still point into the caller's text after normalization.
        @Test func tokenRangesCoverTheOriginalText() throws {
            let tokenizer = try Tokenizer.load(contentsOf: OpenModelFixtures.hfFolder.appendingPathComponent("claude-legacy.tokenizer.json"))
            let text = "ﬁne ①②③ ｶﾀｶﾅ café\u{301} x"
            var copy = text
            let tokens = try copy.withUTF8 { try tokenizer.tokens(utf8: $0) }
            #expect(tokens.first?.bytes.lowerBound == 0 && tokens.last?.bytes.upperBound == text.utf8.count)
            #expect(zip(tokens, tokens.dropFirst()).allSatisfy { $0.bytes.upperBound == $1.bytes.lowerBound || $0.bytes.upperBound <= $1.bytes.lowerBound + 4 })
            #expect(tokens.map(\.id) == tokenizer.encodeOrdinary(text))
        }
    }
}
