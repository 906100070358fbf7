import Foundation
@testable import TokenKit

/// What the tekken reader must do with any bytes, checked by the `tekken`
/// libFuzzer target in `scripts/fuzz` (which compiles this file with
/// `OpenModelFuzzProperties.swift`) and replayed by `FuzzRegressionTests`:
/// refused with a message, or a tokenizer whose counts match its ids and
/// whose ids all decode.
enum TekkenFuzzProperties {
    /// Any bytes as a JSON tokenizer file (tekken when it has tekken's keys).
    static func tekken(_ bytes: [UInt8]) -> String? {
        OpenModelFuzzProperties.check {
            try bytes.withUnsafeBytes { try JSONModelFile.tokenizer(json: $0, path: "fuzz/tekken.json", name: "fuzz") }
        }
    }
}
