import Foundation
import Testing
@testable import TokenKit

extension OpenModels {
    /// The pre-tokenizer steps that avoid ICU split exactly as ICU does with the
    /// pattern they stand for, and splits keep Hugging Face's semantics.
    @Suite struct SplitStepTests {
        /// Texts: UDHR openings, llama.cpp's cases, random corners.
        static let texts: [String] = {
            var texts: [String] = []
            for name in ["eng", "deu", "fra", "vie", "rus", "ell", "arb", "heb", "hin", "tha", "cmn_hans", "jpn", "kor", "amh", "tam"] {
                let url = OpenModelFixtures.udhrFolder.appendingPathComponent("\(name).txt")
                if let text = try? String(contentsOf: url, encoding: .utf8) { texts.append(String(text.prefix(3000))) }
            }
            let vectors = OpenModelFixtures.VocabularyVectors(gguf: OpenModelFixtures.ggufFolder.appendingPathComponent("ggml-vocab-qwen2.gguf"))
            texts += ((try? vectors.inputs()) ?? []).map { String(decoding: $0, as: UTF8.self) }
            var random = RandomText(seed: 7)
            for _ in 0..<3000 { texts.append(random.text()) }
            return texts
        }()

        /// Patterns whose steps are native, each checked against ICU.
        static let nativePatterns: [String] =
            PieceScannerKind.allCases.flatMap(\.patterns) + [
                #"\p{N}"#, #"\p{N}+"#, #"[\p{P}\$\+<=>\^~\|`]+"#, #"[\r\n]"#, "[0-9][0-9][0-9]", #"\p{N}{1,3}"#,
                #"\s?\p{L}+"#, #"\s?\p{P}+"#, #"\s+$"#, #"[一-龥ࠀ-一가-퟿]+"#, #"[一-龥぀-ゟ゠-ヿ]+"#, #"\s?[!-/:-~！-／：-～‘-‟　-。]+"#
            ] + LlamaPreType(name: "deepseek-llm")!.patterns

        @Test(arguments: nativePatterns)
        func nativeStepMatchesICU(_ pattern: String) throws {
            let native = try SplitStep.split(pattern: pattern)
            if case .regex = native { Issue.record("\(pattern) is not native"); return }
            let reference = SplitStep.regex(try RegexSplitter(pattern: pattern), .isolated, invert: false)
            var differences: [String] = []
            for text in Self.texts {
                let mine = pieces(native, text), theirs = pieces(reference, text)
                if mine != theirs && !TokenKitFuzzProperties.hasCharacterNewerThanUnicode16(text) {
                    let at = zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(mine.count, theirs.count)
                    differences.append("\(text.prefix(60).debugDescription): piece \(at): \(mine.dropFirst(at).prefix(3)) vs ICU \(theirs.dropFirst(at).prefix(3))")
                }
            }
            #expect(differences.count == 0, "\(pattern): \(differences.count) texts differ\n\(differences.prefix(8).joined(separator: "\n"))")
        }

        /// Every pre type's patterns compile, and the shapes with a native step use it.
        @Test func everyPreTypeBuilds() throws {
            for type in LlamaPreType.all {
                let steps = try type.steps()
                #expect(steps.count == type.patterns.count, "\(type.names[0])")
            }
        }

        /// A pattern that repeats without bound a group that can match the
        /// same text in several ways (`(a*)*b` made 82 bytes take 38 s in ICU)
        /// is refused when the tokenizer is read, naming the construct; every
        /// pattern tokenizers use still compiles, llama.cpp's nested
        /// `(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+` included.
        @Test func patternsThatRepeatAnAmbiguousGroupAreRefused() throws {
            for (pattern, construct) in [
                ("(a*)*b", "(a*)*"), ("(a+)+b", "(a+)+"), ("x(?:y+z?)+", "(?:y+z?)+"), ("((a)+)+", "((a)+)+"),
                ("(a{2,})*?", "(a{2,})*"), ("(a+){1,}", "(a+){1,}"), ("(a|b?)+c", "(a|b?)+"), ("(?:x*|y)*", "(?:x*|y)*"),
                ("((a*)?)*", "((a*)?)*"), (#"(\s*$)+"#, #"(\s*$)+"#)
            ] {
                for compile in [{ _ = try RegexSplitter(pattern: pattern) }, { _ = try RegexPreTokenizer(pattern: pattern) }] {
                    do {
                        try compile()
                        Issue.record("\(pattern) compiled")
                    } catch {
                        #expect("\(error)".contains("\(construct) repeats a group that matches the same text in more than one way"), "\(pattern): \(error)")
                    }
                }
            }
            let allowed =
                Self.nativePatterns + LlamaPreType.all.flatMap(\.patterns) + [
                    PreTokenizer.tekken.pattern, "(a*)?b", "(a+){0,3}", "(ab)+", #"(\r?\n)+"#, "(?i:'s|'t)?x+", "[(a*)]+", #"\(a+\)+"#,
                    "(a{1,3})+", "a{2}+", #"\p{L}{2,}"#, "((a+)b)*", #"(\p{L}+\s)+$"#, "(a+b+)+", #"(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+"#
                ]
            for pattern in allowed {
                #expect(throws: Never.self, "\(pattern)") { _ = try RegexSplitter(pattern: pattern) }
            }
            let step = try #require(try? SplitStep.split(pattern: "(?:ab)+"))
            guard case .regex = step else { Issue.record("(?:ab)+ is not the regex path"); return }
            #expect(throws: TokenKitError.self) { try SplitStep.split(pattern: "(a*)*b") }
        }

        /// Hugging Face's documented example for `SplitDelimiterBehavior`.
        @Test func splitBehaviours() throws {
            let text = "the-final--countdown"
            let expected: [SplitBehavior: [String]] = [
                .removed: ["the", "final", "countdown"],
                .isolated: ["the", "-", "final", "-", "-", "countdown"],
                .mergedWithPrevious: ["the-", "final-", "-", "countdown"],
                .mergedWithNext: ["the", "-final", "-", "-countdown"],
                .contiguous: ["the", "-", "final", "--", "countdown"]
            ]
            for (behavior, pieces) in expected {
                for step in [SplitStep.regex(try RegexSplitter(pattern: "-"), behavior, invert: false), try SplitStep.split(pattern: #"[\-]"#, behavior: behavior)] {
                    #expect(self.pieces(step, text) == pieces, "\(behavior)")
                }
            }
            // Inverted: the pattern marks what to keep.
            #expect(pieces(.regex(try RegexSplitter(pattern: #"\w+"#), .removed, invert: true), "a, bc!") == ["a", "bc"])
            // An empty match still cuts (llama.cpp's superbpe digits).
            #expect(pieces(try SplitStep.split(pattern: #"(?=(\d{3})+(?!\d))"#), "1234567") == ["1", "234", "567"])
        }

        private func pieces(_ step: SplitStep, _ text: String) -> [String] {
            let pipeline = OpenModelPipeline(
                model: .sentencePiece(SentencePieceEncoder(pieces: Self.emptyVocabulary, scores: [], byteIDs: [])),
                normalizer: nil, steps: [step], addedTokens: AddedTokenMatcher([]),
                decoder: TokenDecoder(pieces: [], dropsLeadingSpace: false), summary: "")
            return pipeline.pieces(of: text)
        }

        static let emptyVocabulary: Vocabulary = try! Vocabulary.build(storage: [0x61], entries: [(0, 1, 0)]).get()
    }
}
