import Foundation
import TestSupport
import Testing
import ContextKit
@testable import ContextKitReports

@Suite("Schema overhead")
struct SchemaOverheadTableTests {
    static func example(_ path: String) throws -> String {
        try String(contentsOf: TestRepository.root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("each example's JSON is what its Swift declaration encodes to", arguments: ["JournalInsight", "TripPlan"])
    func examplesMatchSwift(name: String) throws {
        let swift = try SchemaDocument.load(Self.example("examples/schemas/\(name).swift"), fileName: "\(name).swift")
        let json = try SchemaDocument.load(Self.example("examples/schemas/\(name).json"), fileName: "\(name).json")
        #expect(swift.entries.map(\.schema) == json.entries.map(\.schema))
        #expect(json.format == .generationSchema)
    }

    @Test("every schema costs less without descriptions, and the Apple estimate of Summary is near the 119 measured")
    func table() throws {
        let schemas = try [("Summary", "examples/Summary.json"), ("TripPlan", "examples/schemas/TripPlan.json")].map { name, path in
            SchemaOverheadTable.Schema(name: name, source: path, document: try SchemaDocument.load(Self.example(path), fileName: path))
        }
        let catalog = try ProfileCatalog.builtIn()
        let profiles = try ["apple-on-device", "gpt-4o"].map { try catalog.profile(named: $0) }
        let table = try SchemaOverheadTable(schemas: schemas, profiles: profiles)
        #expect(table.cells.count == 4)
        for cell in table.cells {
            #expect(cell.withoutDescriptions < cell.withDescriptions)
        }
        let apple = try #require(table.cell(profile: "apple-on-device", schema: "Summary"))
        #expect(apple.isEstimate)
        #expect(abs(Double(apple.withDescriptions) - 119) <= 119 * 0.15)
        let gpt = try #require(table.cell(profile: "gpt-4o", schema: "TripPlan"))
        #expect(!gpt.isEstimate && gpt.contextWindow == 128_000)
    }
}
