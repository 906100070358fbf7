import Foundation
@testable import TokenKit

/// What the SentencePiece readers must do with any bytes, checked by the
/// `sentencepiece-model` and `precompiled-charsmap` libFuzzer targets in
/// `scripts/fuzz` and replayed by `FuzzRegressionTests`. No `Testing`
/// import: the fuzzer builds it outside the test runner.
enum SentencePieceFuzzProperties {
    /// Any bytes as a `.model` file: refused with a message, or a tokenizer
    /// whose ids count as they encode and all decode (`OpenModelFuzzProperties.check`).
    static func model(_ bytes: [UInt8]) -> String? {
        OpenModelFuzzProperties.check {
            try bytes.withUnsafeBytes { raw in
                try SentencePieceModelFile(bytes: raw, path: "fuzz.model").tokenizer(bytes: raw)
            }
        }
    }

    /// Any bytes as a precompiled charsmap: refused, or every rule it finds in
    /// the sample texts lies inside the text and inside the blob.
    static func charsmap(_ bytes: [UInt8]) -> String? {
        let map: PrecompiledCharsmap
        do {
            map = try bytes.withUnsafeBytes { try PrecompiledCharsmap($0) }
        } catch let error as PrecompiledCharsmap.Failure {
            return error.reason.isEmpty ? "a charsmap failure without a reason" : nil
        } catch {
            return "an error of an unexpected type: \(error)"
        }
        for sample in OpenModelFuzzProperties.samples + ["Ｆｕｌｌ ﬁ ① \u{3000}x"] {
            let text = Array(sample.utf8)
            let ok = text.withUnsafeBufferPointer { p -> Bool in
                guard let base = p.baseAddress else { return true }
                for i in 0..<p.count {
                    if let rule = map.longestRule(base, i, p.count), rule.length < 1 || i + rule.length > p.count { return false }
                    _ = map.firstRule(base, i, p.count)
                }
                return true
            }
            if !ok { return "a rule longer than the text in \(sample.debugDescription)" }
        }
        return nil
    }
}
