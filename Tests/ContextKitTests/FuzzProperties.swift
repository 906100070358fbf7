import Foundation
@testable import ContextKit

/// What schema-cost must do with any file, checked by the libFuzzer targets in
/// `scripts/fuzz` (which compile this file) and replayed by
/// `FuzzRegressionTests` on the inputs the fuzzer once broke. No `Testing`
/// import: the fuzzer builds it outside the test runner.
///
/// Each property returns nil when it holds, else what went wrong; a crash or a
/// hang inside is a finding too.
enum ContextKitFuzzProperties {
    /// Both placements schema-cost reports: Apple's JSON text and OpenAI's function prompt.
    static let settings: [SchemaCostSettings] = {
        let tokenizer = try! Tokenizer.named("cl100k_base")
        return [
            SchemaCostSettings(
                profileName: "fuzz-apple", tokenizer: tokenizer,
                estimate: TokenEstimate(method: "fuzz", factor: 1.2, errorBar: 0.15), method: "fuzz",
                outputSchemas: .jsonText(style: .compact(escapingSlashes: true), framingTokens: 6),
                tools: .jsonText(style: .compact(escapingSlashes: true), framingTokens: 6), framingSource: "fuzz",
                contextWindow: 4096, requestOverhead: 22, canLeaveSchemaOutOfPrompt: true),
            SchemaCostSettings(
                profileName: "fuzz-openai", tokenizer: tokenizer, method: "fuzz",
                outputSchemas: .jsonText(style: .spaced, framingTokens: 0),
                tools: .openAIFunctions(.gpt4o), framingSource: "fuzz", contextWindow: 128_000, requestOverhead: 3)
        ]
    }()

    /// Any bytes as a JSON schema file: refused with a message, or a
    /// document that gets a report. What the JSON reader and writer must do
    /// with the same bytes (positions, round trips, Foundation's verdict) is
    /// the `json` target's property, `ContextKitJSONFuzzProperties.json`.
    static func schemaJSON(_ bytes: [UInt8]) -> String? {
        costs(String(decoding: bytes, as: UTF8.self), fileName: "fuzz.json")
    }

    /// Any text as Swift source: refused with a reason (a line inside the
    /// text when it names one), or turned into a schema that gets a report.
    static func schemaSwift(_ bytes: [UInt8]) -> String? {
        costs(String(decoding: bytes, as: UTF8.self), fileName: "Fuzz.swift")
    }

    static func costs(_ text: String, fileName: String) -> String? {
        let document: SchemaDocument
        do {
            document = try SchemaDocument.load(text, fileName: fileName)
        } catch {
            if error.description.isEmpty { return "error without a message" }
            if case let .unsupportedSwift(line, _, _) = error {
                let lines = text.utf8.count { $0 == 0x0A } + 1
                if line < 1 || line > lines { return "unsupported Swift at line \(line) of a \(lines)-line text" }
            }
            return nil
        }
        for settings in settings {
            let report = SchemaCost(settings: settings).report(for: document)
            if report.schemaTokens < 0 || report.totalTokens < 0 {
                return "\(settings.profileName): schema \(report.schemaTokens) tokens, total \(report.totalTokens)"
            }
            if report.fields.contains(where: { $0.tokens < 0 || $0.descriptionTokens < 0 }) {
                return "\(settings.profileName): a field with a negative count"
            }
        }
        return nil
    }
}
