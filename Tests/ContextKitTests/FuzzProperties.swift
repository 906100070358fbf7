import Foundation
@testable import ContextKit
import ContextKitJSON

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
            SchemaCostSettings(profileName: "fuzz-apple", tokenizer: tokenizer,
                               estimate: TokenEstimate(method: "fuzz", factor: 1.2, errorBar: 0.15), method: "fuzz",
                               outputSchemas: .jsonText(style: .compact(escapingSlashes: true), framingTokens: 6),
                               tools: .jsonText(style: .compact(escapingSlashes: true), framingTokens: 6), framingSource: "fuzz",
                               contextWindow: 4096, requestOverhead: 22, canLeaveSchemaOutOfPrompt: true),
            SchemaCostSettings(profileName: "fuzz-openai", tokenizer: tokenizer, method: "fuzz",
                               outputSchemas: .jsonText(style: .spaced, framingTokens: 0),
                               tools: .openAIFunctions(.gpt4o), framingSource: "fuzz", contextWindow: 128_000, requestOverhead: 3),
        ]
    }()

    static let styles: [JSONWriter.Style] = [.compact(escapingSlashes: true), .compact(escapingSlashes: false), .spaced]

    /// Any bytes as a JSON schema file: the parser refuses them at a line and
    /// column inside the text, or its value is written back out in every
    /// style and re-read unchanged; Foundation's parser agrees on what is
    /// JSON; and a document schema-cost accepts gets a report.
    static func schemaJSON(_ bytes: [UInt8]) -> String? {
        let lines = bytes.count { $0 == 0x0A } + 1
        var accepted = false
        do {
            let value = try JSONParser.parse(bytes)
            accepted = true
            for style in styles {
                let written = JSONWriter(style: style).write(value)
                guard let reread = try? JSONParser.parse(written) else { return "\(style): the writer's output does not parse: \(written.prefix(200))" }
                if reread != value { return "\(style): write then parse changes the value" }
            }
        } catch {
            if error.line < 1 || error.line > lines || error.column < 1 { return "error at line \(error.line), column \(error.column) of a \(lines)-line text" }
            if error.reason.isEmpty { return "error without a reason" }
        }
        if let problem = agreesWithFoundation(bytes, accepted: accepted) { return problem }
        return costs(String(decoding: bytes, as: UTF8.self), fileName: "fuzz.json")
    }

    /// Foundation's parser is a second opinion, one way only: it takes
    /// trailing commas (`{"a": 1,}`), which RFC 8259 and JSONParser refuse,
    /// but anything it refuses JSONParser must refuse too. Checked for valid
    /// UTF-8 without deep nesting (the two have different depth limits).
    static func agreesWithFoundation(_ bytes: [UInt8], accepted: Bool) -> String? {
        guard accepted, String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var depth = 0, deepest = 0
        for b in bytes {
            if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") { depth += 1; deepest = max(deepest, depth) }
            if b == UInt8(ascii: "]") || b == UInt8(ascii: "}") { depth -= 1 }
        }
        guard deepest < 400 else { return nil }
        if (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) == nil {
            return "JSONParser accepts what Foundation refuses"
        }
        return nil
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
