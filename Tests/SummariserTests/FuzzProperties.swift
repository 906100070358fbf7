import Foundation
@testable import Summariser

/// What source framing must do with any text, checked by the `source-frame`
/// libFuzzer target in `scripts/fuzz` (which compiles this file) and
/// replayed by `FuzzRegressionTests` on the inputs the fuzzer once broke.
/// No `Testing` import: the fuzzer builds it outside the test runner.
enum SummariserFuzzProperties {
    /// For any text (the bytes as UTF-8, invalid sequences replaced; the
    /// first byte picks a label): no marker survives neutralising, a second
    /// pass changes nothing, text without `[` is untouched, the framed text
    /// holds exactly the two markers of the frame, and unframing gives the
    /// neutralised text back byte for byte.
    static func sourceFrame(_ bytes: [UInt8]) -> String? {
        let labels = ["SOURCE TEXT", "ISSUE (HTML) v1.2", "a+b"]
        let framing = SourceFraming(label: labels[Int(bytes.first ?? 0) % labels.count])
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        guard let marker = try? Regex(framing.markerPattern) else { return "the marker pattern of \(framing.label.debugDescription) does not compile" }
        let safe = framing.neutralise(text)
        if let left = safe.firstMatch(of: marker) { return "a marker survives neutralising: \(String(safe[left.range]).debugDescription)" }
        if framing.neutralise(safe) != safe { return "neutralising twice changes the text" }
        if !text.contains("["), safe != text { return "text without [ was changed" }
        let framed = framing.frame(safe)
        let markers = framed.matches(of: marker).count
        if markers != 2 { return "the framed text holds \(markers) markers, not 2" }
        if Array(framing.unframe(framed).utf8) != Array(safe.utf8) { return "unframing does not give the text back" }
        return nil
    }
}
