import Testing
@testable import ContextKit
import ContextKitJSON

@Suite struct GenerableSourceParserTests {
    private func schema(_ source: String, root: String? = nil) throws -> OrderedJSON {
        try GenerationSchemaBuilder.build(try GenerableSourceParser.parse(source), rootName: root).schema
    }

    private func compact(_ value: OrderedJSON) -> String {
        JSONWriter(style: .compact(escapingSlashes: false)).write(value)
    }

    @Test func summarySwiftBuildsExactlySummaryJSON() throws {
        let fromSwift = try schema(try SchemaFixtures.example("Summary.swift"))
        let fromJSON = try JSONParser.parse(try SchemaFixtures.example("Summary.json"))
        #expect(fromSwift == fromJSON)
    }

    @Test func readsEveryGuide() throws {
        let value = try schema(
            #"""
            @Generable
            struct Entry {
                @Guide(description: "The overall mood", .anyOf(["calm", "happy"]))
                var mood: String
                @Guide(.range(1...10))
                var score: Int
                @Guide(.minimum(0.5), .maximum(2.0))
                var ratio: Double
                @Guide(description: "Code", .pattern(/[A-Z]{3}-\d+/))
                var code: String
                @Guide(description: "Tags", .minimumCount(1), .maximumCount(4))
                var tags: [String]
                @Guide(.count(2...5))
                var names: Array<String>
            }
            """#)
        #expect(
            compact(value["properties"]!)
                == #"{"mood":{"type":"string","description":"The overall mood","enum":["calm","happy"]},"score":{"type":"integer","minimum":1,"maximum":10},"ratio":{"type":"number","minimum":0.5,"maximum":2},"code":{"type":"string","description":"Code","pattern":"[A-Z]{3}-\\d+"},"tags":{"type":"array","description":"Tags","items":{"type":"string"},"minItems":1,"maxItems":4},"names":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":5}}"#
        )
    }

    @Test func optionalsAreLeftOutOfRequired() throws {
        let value = try schema(
            """
            @Generable struct Note {
                var title: String
                var subtitle: String?
                var extra: Optional<Int>
            }
            """)
        #expect(value["required"] == .array([.string("title")]))
        #expect(value["x-order"] == .array([.string("title"), .string("subtitle"), .string("extra")]))
        #expect(value["properties"]?["extra"] == .object([JSONMember("type", .string("integer"))]))
    }

    @Test func nestedTypesGoUnderDefsInFirstUseOrder() throws {
        let value = try schema(
            """
            @Generable
            struct BlogPost {
                var title: String
                @Guide(description: "Who wrote it")
                var author: Author
                var tags: [Tag]

                @Generable
                struct Author {
                    var name: String
                }
            }

            @Generable(description: "A topic")
            enum Tag {
                case swift, ai
                case tooling
            }
            """)
        #expect(value["title"] == .string("BlogPost"))
        #expect(value["properties"]?["author"] == .object([JSONMember("$ref", .string("#/$defs/Author")), JSONMember("description", .string("Who wrote it"))]))
        #expect(value["properties"]?["tags"]?["items"] == .object([JSONMember("$ref", .string("#/$defs/Tag"))]))
        #expect(value["$defs"]?.members?.map(\.key) == ["Author", "Tag"])
        #expect(compact(value["$defs"]!["Tag"]!) == #"{"title":"Tag","type":"string","description":"A topic","enum":["swift","ai","tooling"]}"#)
        // The references it writes resolve.
        try SchemaReferences.validate(value)
    }

    @Test func skipsWhatIsNotInTheSchema() throws {
        let value = try schema(
            #"""
            import FoundationModels
            /* @Generable in a comment */ // @Generable
            let unrelated = "@Generable struct Fake {}"

            @Generable
            public struct Card: Equatable {
                static let version = 2
                public var front: String
                var back: String { didSet { print("changed") } }
                var length: Int { front.count }
                private(set) var count: Int = 0
                init(front: String) { self.front = front; self.back = "" }
                func flipped() -> Card { Card(front: back) }
                @Guide(description: """
                    A hint that
                    spans lines
                    """)
                var hint: String
            }
            """#)
        #expect(value["x-order"] == .array([.string("front"), .string("back"), .string("count"), .string("hint")]))
        #expect(value["properties"]?["hint"]?["description"] == .string("A hint that\nspans lines"))
    }

    @Test func picksTheUnreferencedTypeAsRootAndHonoursAChoice() throws {
        let source = """
            @Generable struct Inner { var x: Int }
            @Generable struct Outer { var inner: Inner }
            @Generable struct Other { var y: Bool }
            """
        let built = try GenerationSchemaBuilder.build(try GenerableSourceParser.parse(source))
        #expect(built.rootName == "Outer")
        #expect(built.notes.contains { $0.contains("--type") })
        #expect(try schema(source, root: "Inner")["title"] == .string("Inner"))
        #expect(throws: SchemaError.unknownType(name: "Nope", known: ["Inner", "Outer", "Other"])) {
            try schema(source, root: "Nope")
        }
    }

    @Test func aFileWithoutGenerableTypesIsAnError() {
        #expect(throws: SchemaError.noGenerableType) {
            try GenerableSourceParser.parse("struct Plain { var a: String }\n// @Generable is only mentioned here\n")
        }
    }

    @Test(arguments: [
        ("@Generable struct A { var d: [String: Int] }", "dictionary"),
        ("@Generable struct A<T> { var t: T }", "generic type"),
        ("@Generable enum E { case a(String) }", "associated values"),
        ("@Generable struct A { @Guide(description: \"n \\(x)\") var s: String }", "interpolation"),
        ("@Generable struct A { var when: Date }", "type Date"),
        ("@Generable struct A { @Guide(.element(.range(1...2))) var s: [Int] }", "guide .element"),
        ("@Generable struct A {\n#if DEBUG\nvar s: String\n#endif\n}", "#if"),
        ("@Generable class A { var s: String }", "a class"),
        ("@Generable struct A { @Guide(.count(3)) var s: String }", ".count"),
        ("@Generable struct A { var x = 3 }", "without a type annotation"),
        ("@Generable struct A { var a: String, b: String }", "several properties"),
        ("@Generable struct A { @Guide(description: \"a\" + \"b\") var s: String }", "concatenation"),
        ("@Generable struct A { var n: Int32 }", "type Int32"),
        ("@Generable struct A { @Guide(.pattern(Regex { \"a\" })) var s: String }", "regex literal"),
        ("@Generable struct A { var a: A }", "refers back"),
        ("@Generable struct A { let kind: String = \"fixed\" }", "initial value"),
        ("@Generable struct A { @Guide(.constant(\"x\")) var s: String }", "guide .constant"),
        ("@Generable struct A { var s: String?? }", "`??`")
    ])
    func unsupportedConstructsAreNamedNotGuessed(source: String, construct: String) {
        #expect {
            _ = try schema(source)
        } throws: { error in
            guard case let .unsupportedSwift(line, text, hint) = error as? SchemaError else { return false }
            return line >= 1 && text.contains(construct) && !hint.isEmpty
        }
    }

    @Test func unsupportedConstructsReportTheirLine() {
        #expect {
            _ = try schema("@Generable\nstruct A {\n    var ok: String\n    var bad: [String: String]\n}")
        } throws: { error in
            guard case let .unsupportedSwift(line, _, _) = error as? SchemaError else { return false }
            return line == 4
        }
    }

    @Test func rawValueEnumsUseCaseNamesAndSaySo() throws {
        let built = try GenerationSchemaBuilder.build(
            try GenerableSourceParser.parse(
                """
                @Generable struct Visit { var kind: Kind }
                @Generable enum Kind: String { case museum = "Museum", park }
                """))
        #expect(built.schema["$defs"]?["Kind"]?["enum"] == .array([.string("museum"), .string("park")]))
        #expect(built.notes.contains { $0.contains("raw values") })
    }

    @Test func directivesOutsideTheTypeAndRegexLookalikesAreHarmless() throws {
        let value = try schema(
            #"""
            #if canImport(FoundationModels)
            @Generable struct Ratio { @Guide(.pattern(/a\/b/)) var text: String }
            #endif
            func f(a: Double, b: Double) -> Double { let x = a / b / 2; return x }
            """#)
        #expect(value["properties"]?["text"]?["pattern"] == .string(#"a\/b"#))
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThem() {
        #expect(GenerableSourceParser.normalizedNumber("2.0") == "2")
        #expect(GenerableSourceParser.normalizedNumber("0.50") == "0.5")
        #expect(GenerableSourceParser.normalizedNumber("10") == "10")
    }
}
