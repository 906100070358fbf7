@testable import TokenKit
import Foundation
import Testing
import TestSupport

@Suite struct PieceBoundaryTests {
    static let encodings = PieceBoundaryEncodings.all

    /// At every position the rules call safe, the pieces of the two parts are
    /// exactly the pieces of the whole.
    @Test(arguments: encodings)
    func safeCutsKeepEveryPiece(encoding: String) throws {
        let tokenizer = try Tokenizer.named(encoding)
        let boundary = try #require(PieceBoundary(tokenizer.preTokenizer))
        var fuzz = TextFuzz(seed: 7)
        var checked = 0
        for round in 0..<400 {
            let text = fuzz.text(fragments: 20 + round % 60)
            try text.withUnsafeBufferPointer { whole throws in
                let reference = tokenizer.preTokenizer.pieces(of: whole)
                for p in 1..<whole.count where boundary.isSafe(whole, at: p) {
                    let left = tokenizer.preTokenizer.pieces(of: UnsafeBufferPointer(rebasing: whole[..<p]))
                    let right = tokenizer.preTokenizer.pieces(of: UnsafeBufferPointer(rebasing: whole[p...])).map { ($0.lowerBound + p)..<($0.upperBound + p) }
                    try #require(left + right == reference, "cut at \(p) of \(Array(whole)) changed the pieces")
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
    }

    /// The cases the rules leave out really are unsafe, which is why they are left out.
    @Test func theExcludedCutsWouldChangeThePieces() throws {
        func pieces(_ encoding: String, _ text: String) throws -> [String] {
            let t = try Tokenizer.named(encoding)
            return t.preTokenizer.pieces(of: text).map { r in String(decoding: Array(text.utf8)[r], as: UTF8.self) }
        }
        // r50k: whitespace before the line feed. The whole text splits the run, the left part keeps it.
        #expect(try pieces("r50k_base", "a  \nb") == ["a", "  ", "\n", "b"])
        #expect(try pieces("r50k_base", "a  \n") == ["a", "  \n"])
        let r50k = try #require(PieceBoundary(try Tokenizer.named("r50k_base").preTokenizer))
        Array("a  \nb".utf8).withUnsafeBufferPointer { #expect(!r50k.isSafe($0, at: 4)) }
        // cl100k: punctuation takes the line feeds after it, so a cut before a line feed is unsafe.
        #expect(try pieces("cl100k_base", "!\n\nx") == ["!\n\n", "x"])
        let cl100k = try #require(PieceBoundary(try Tokenizer.named("cl100k_base").preTokenizer))
        Array("!\n\nx".utf8).withUnsafeBufferPointer { #expect(!cl100k.isSafe($0, at: 1) && !cl100k.isSafe($0, at: 2) && cl100k.isSafe($0, at: 3)) }
        // o200k: punctuation also takes a `/` after the line feed.
        #expect(try pieces("o200k_base", "!\n/x") == ["!\n/", "x"])
        let o200k = try #require(PieceBoundary(try Tokenizer.named("o200k_base").preTokenizer))
        Array("!\n/x".utf8).withUnsafeBufferPointer { #expect(!o200k.isSafe($0, at: 2)) }
        // A space after a letter is safe for all three.
        for boundary in [r50k, cl100k, o200k] {
            Array("word next".utf8).withUnsafeBufferPointer { #expect(boundary.isSafe($0, at: 4)) }
        }
    }

    @Test func patternsWithoutAProofAreNeverCut() throws {
        let regex = try PreTokenizer.cl100k.reference()
        #expect(PieceBoundary(regex) == nil)
    }
}
