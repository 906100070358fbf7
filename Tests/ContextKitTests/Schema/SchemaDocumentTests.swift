import Testing
@testable import ContextKit
import ContextKitJSON

@Suite struct SchemaDocumentTests {
    @Test func detectsAppleGenerationSchemaByXOrder() throws {
        let document = try SchemaDocument.load(try SchemaFixtures.example("Summary.json"))
        #expect(document.format == .generationSchema)
        #expect(document.entries.count == 1)
        #expect(document.entries[0].name == "Summary")
    }

    @Test func detectsABareJSONSchema() throws {
        let document = try SchemaDocument.load(#"{"type":"object","properties":{"a":{"type":"string"}}}"#)
        #expect(document.format == .jsonSchema)
    }

    @Test func detectsAnOpenAIResponseFormat() throws {
        let document = try SchemaDocument.load(try SchemaFixtures.example("Summary.response_format.json"))
        #expect(document.format == .responseFormat)
        #expect(document.entries[0].name == "summary")
        #expect(document.entries[0].schema["properties"]?["headline"] != nil)
    }

    @Test func detectsAToolArray() throws {
        let document = try SchemaDocument.load(try SchemaFixtures.example("weather-tools.json"))
        #expect(document.format == .tools)
        #expect(document.entries.map(\.name) == ["get_current_weather"])
        #expect(document.entries[0].description == "Get the current weather in a given location")
        #expect(document.entries[0].schema["required"] == .array([.string("location")]))
    }

    @Test func readsLegacyFunctionsAndASingleTool() throws {
        let legacy = try SchemaDocument.load(#"[{"name":"f","description":"d","parameters":{"type":"object","properties":{}}}]"#)
        #expect(legacy.format == .tools && legacy.entries[0].name == "f")
        let single = try SchemaDocument.load(#"{"type":"function","function":{"name":"g","parameters":{"type":"object","properties":{}}}}"#)
        #expect(single.format == .tools && single.entries[0].name == "g")
        let request = try SchemaDocument.load(#"{"model":"gpt-4o","tools":[{"type":"function","function":{"name":"h"}}]}"#)
        #expect(request.format == .tools && request.entries[0].name == "h")
    }

    @Test func detectsSwiftByExtensionAndByContent() throws {
        let source = try SchemaFixtures.example("Summary.swift")
        #expect(try SchemaDocument.load(source, fileName: "Summary.swift").format == .swift)
        #expect(try SchemaDocument.load(source).format == .swift)
    }

    @Test func formatOverrideWins() throws {
        let document = try SchemaDocument.load(try SchemaFixtures.example("Summary.json"), format: .jsonSchema)
        #expect(document.format == .jsonSchema)
        #expect(throws: SchemaError.self) {
            try SchemaDocument.load(try SchemaFixtures.example("Summary.json"), format: .responseFormat)
        }
    }

    @Test func invalidJSONCarriesLineAndColumn() {
        #expect(throws: SchemaError.invalidJSON(JSONParseError(line: 2, column: 1, byteOffset: 18, reason: "trailing comma before '}'"))) {
            try SchemaDocument.load("{\"type\":\"object\",\n}")
        }
    }

    @Test func danglingReferenceIsNamedWithItsPlace() {
        let text = ##"{"type":"object","properties":{"home":{"$ref":"#/$defs/Address"}},"$defs":{}}"##
        #expect(throws: SchemaError.danglingReference(reference: "#/$defs/Address", at: "#/properties/home")) {
            try SchemaDocument.load(text)
        }
    }

    @Test func cyclicReferencesStopInsteadOfLooping() {
        let text = ##"{"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}"##
        #expect(throws: SchemaError.cyclicReference(chain: ["#/$defs/A", "#/$defs/B", "#/$defs/A"])) {
            try SchemaDocument.load(text)
        }
        #expect(throws: SchemaError.cyclicReference(chain: ["#", "#"])) {
            try SchemaDocument.load(##"{"$ref":"#"}"##)
        }
    }

    @Test func recursiveTypesAreValid() throws {
        let text = ##"{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}}}"##
        #expect(try SchemaDocument.load(text).format == .jsonSchema)
    }

    @Test func externalReferencesAreRefused() {
        #expect(throws: SchemaError.externalReference(reference: "other.json#/A", at: "#/properties/a")) {
            try SchemaDocument.load(##"{"type":"object","properties":{"a":{"$ref":"other.json#/A"}}}"##)
        }
    }

    @Test func danglingReferenceInsideAToolIsFound() {
        let text = ##"[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"a":{"$ref":"#/$defs/X"}}}}}]"##
        #expect(throws: SchemaError.danglingReference(reference: "#/$defs/X", at: "tool f: #/parameters/properties/a")) {
            try SchemaDocument.load(text)
        }
    }

    @Test func shapesThatAreNotSchemas() {
        #expect(throws: SchemaError.self) { try SchemaDocument.load("[]") }
        #expect(throws: SchemaError.self) { try SchemaDocument.load("42") }
        #expect(throws: SchemaError.self) { try SchemaDocument.load(#"[{"type":"function","function":{}}]"#) }
        #expect(throws: SchemaError.self) { try SchemaDocument.load(#"{"type":"json_schema","json_schema":{"name":"x"}}"#) }
    }

    @Test func everyErrorSaysWhatToDo() {
        let errors: [SchemaError] = [
            .invalidJSON(JSONParseError(line: 1, column: 2, byteOffset: 1, reason: "r")), .danglingReference(reference: "#/a", at: "#"),
            .cyclicReference(chain: ["#/a", "#/a"]), .externalReference(reference: "x", at: "#"), .notASchema(reason: "the tool list is empty"),
            .noGenerableType, .unknownType(name: "X", known: ["A"])
        ]
        for error in errors {
            #expect(error.description.count > 35)
        }
        #expect(SchemaError.unsupportedSwift(line: 3, construct: "dictionary type", hint: "use an array").description == "line 3: unsupported dictionary type; use an array")
        #expect(SchemaError.invalidJSON(JSONParseError(line: 4, column: 7, byteOffset: 30, reason: "r")).description.contains("line 4, column 7"))
    }
}
