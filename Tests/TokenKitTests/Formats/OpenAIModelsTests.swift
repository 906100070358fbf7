import Foundation
import TestSupport
import Testing
import TokenKit

/// `OpenAIModels` is tiktoken 0.14's model table, compared at test time with
/// tiktoken's own `MODEL_TO_ENCODING`, `MODEL_PREFIX_TO_ENCODING` and
/// `encoding_name_for_model` (`scripts/tiktoken-models.py`).
@Suite("OpenAI model table against tiktoken")
struct OpenAIModelsTests {
    struct Table: Decodable {
        let tiktoken: String
        let exact: [[String]]
        let prefixes: [[String]]
        let probes: [String: String?]
    }

    @Test("same table and same answer for every name", .enabled(if: PythonPeer.python != nil || TestRepository.isCI, "Python peers not installed: run scripts/python-env"))
    func sameAsTiktoken() throws {
        let table = try JSONDecoder().decode(Table.self, from: PythonPeer.run(script: "scripts/tiktoken-models.py", arguments: []))
        #expect(table.tiktoken == "0.14.0")
        #expect(table.exact == OpenAIModels.encodingsByName.map { [$0.model, $0.encoding] })
        #expect(table.prefixes == OpenAIModels.encodingsByPrefix.map { [$0.prefix, $0.encoding] })
        var differences: [String] = []
        for (name, expected) in table.probes.sorted(by: { $0.key < $1.key }) where OpenAIModels.encodingName(forModel: name) != expected {
            differences.append("\(name.debugDescription): \(OpenAIModels.encodingName(forModel: name) ?? "nil"), tiktoken \(expected ?? "KeyError")")
        }
        print("OpenAI model table vs tiktoken: \(table.exact.count) names, \(table.prefixes.count) prefixes, \(table.probes.count) names probed, \(differences.count) differences")
        #expect(table.probes.count > 240)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func everyEncodingOfTheTableIsBuiltIn() throws {
        for encoding in Set(OpenAIModels.encodingsByName.map(\.encoding) + OpenAIModels.encodingsByPrefix.map(\.encoding)) {
            #expect(throws: Never.self, "\(encoding)") { _ = try Tokenizer.named(encoding) }
        }
        #expect(OpenAIModels.encodingName(forModel: "gpt-4o-2024-08-06") == "o200k_base")
        #expect(OpenAIModels.encodingName(forModel: "gpt-oss-20b") == "o200k_harmony")
        #expect(OpenAIModels.encodingName(forModel: "gpt4o") == nil)
    }
}
