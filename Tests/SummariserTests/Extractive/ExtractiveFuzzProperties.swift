import Foundation
@testable import Summariser

/// The extractive summariser's invariants on any bytes, checked by the
/// `extractive` libFuzzer target in `scripts/fuzz` and replayed by
/// `ExtractiveFuzzRegressionTests`. No `Testing` import: the fuzzer builds it
/// outside the test runner.
enum ExtractiveFuzzProperties {
    /// The bytes, read as UTF-8 (invalid sequences as U+FFFD), give the same
    /// summary twice; every point is one line, and its letters and digits
    /// occur together in the text's once the text's link destinations,
    /// reference labels, HTML tags and `{#anchors}` (what a plain point
    /// leaves out) are removed; a text with any visible character has a
    /// headline.
    static func summarise(_ input: [UInt8]) -> String? {
        let text = String(decoding: input, as: UTF8.self)
        let summary = ExtractiveSummariser().summarise(text)
        if summary != ExtractiveSummariser().summarise(text) { return "two summaries of the same text differ" }
        var prose = text
        prose.replace(/\]\((?:[^()]|\([^()]*\))*\)|\]\[[^\]]*\]|<\/?[A-Za-z][^>]*>|\{#[^}]*\}/, with: "")
        let source = squeezed(prose)
        for point in summary.points {
            if point.contains(where: \.isNewline) { return "a point holds a line break: \(point.debugDescription)" }
            if !contains(source, squeezed(point)) { return "a point is not in the text: \(point.debugDescription)" }
        }
        if summary.headline.isEmpty, text.contains(where: { !$0.isWhitespace }) { return "no headline for a text with visible characters" }
        return nil
    }

    /// Only the letters and digits of `s`.
    static func squeezed(_ s: String) -> [UInt8] {
        Array(String(s.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }).utf8)
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
