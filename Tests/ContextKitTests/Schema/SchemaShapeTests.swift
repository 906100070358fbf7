import Testing
@testable import ContextKit
import ContextKitJSON

/// JSON that is not a schema is refused before it is priced (issue 44), and
/// a large schema is priced in time linear in its size.
@Suite struct SchemaShapeTests {
    @Test(arguments: [
        (#"{"hello":"world"}"#, "no JSON Schema keyword"),
        (#"{"type":"object","required":"a"}"#, "#/required must be an array of property names"),
        (#"{}"#, "empty object"),
        (#"{"type":"text"}"#, "\"text\" is not a JSON Schema type"),
        (#"{"type":"object","properties":{"a":{"type":"string","description":7}}}"#, "#/properties/a/description must be a string"),
        (#"{"type":"object","properties":{"a":"string"}}"#, "#/properties/a must be a schema object"),
        (#"{"anyOf":[]}"#, "#/anyOf must be a non-empty array"),
        (#"{"type":"json_schema","json_schema":{"name":"x","schema":{"type":"object","required":"a"}}}"#, "#/json_schema/schema/required"),
        (#"[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"type":"strin"}}}}}]"#, "tool f: #/parameters/properties/a/type")
    ])
    func whatIsNotASchemaIsRefusedWithWhere(json: String, message: String) {
        #expect {
            _ = try SchemaDocument.load(json)
        } throws: { error in
            guard case let .notASchema(reason) = error as? SchemaError else { return false }
            return reason.contains(message)
        }
    }

    @Test func schemasThatAreFineStayFine() throws {
        _ = try SchemaDocument.load(#"{"type":["string","null"],"enum":["a",null]}"#)
        _ = try SchemaDocument.load(##"{"$ref":"#/$defs/A","$defs":{"A":{"type":"object","additionalProperties":false}}}"##)
        _ = try SchemaDocument.load(#"[{"type":"function","function":{"name":"f","parameters":{}}}]"#)
        _ = try SchemaDocument.load(try SchemaFixtures.example("Summary.response_format.json"))
    }

    private func schema(properties count: Int) throws -> SchemaDocument {
        let members = (0..<count).map { "\"field\($0)\":{\"type\":\"string\",\"description\":\"Value \($0)\"}" }
        return try SchemaDocument.load("{\"type\":\"object\",\"properties\":{\(members.joined(separator: ","))}}")
    }

    @Test func aLargeSchemaIsPricedFieldByFieldAloneAndSaysSo() throws {
        let settings = try SchemaCostTests.appleSettings()
        let small = SchemaCost(settings: settings).report(for: try schema(properties: SchemaCost.recountedFieldLimit))
        #expect(!small.notes.contains { $0.contains("own text") })
        let large = SchemaCost(settings: settings).report(for: try schema(properties: SchemaCost.recountedFieldLimit + 1))
        #expect(large.notes.contains { $0.contains("\(SchemaCost.recountedFieldLimit + 1) fields") && $0.contains("own text") })
        #expect(large.fields.count == SchemaCost.recountedFieldLimit + 1)
        #expect(large.fields.allSatisfy { $0.tokens > $0.descriptionTokens && $0.descriptionTokens > 0 })
        // A field alone costs about what deleting it saves in the small schema (same shape of field).
        let recounted = try #require(small.fields.first { $0.path == "field10" })
        let alone = try #require(large.fields.first { $0.path == "field10" })
        #expect(abs(recounted.tokens - alone.tokens) <= 2)
    }
}
