import ContextKitJSON
import Foundation
import TestSupport
import Testing

@Suite struct JSONWriterTests {
    static let writers = [
        JSONWriter(style: .compact(escapingSlashes: true)), JSONWriter(style: .compact(escapingSlashes: false)),
        JSONWriter(style: .spaced), JSONWriter(style: .pretty, escapingInvisible: true)
    ]

    let value = OrderedJSON.object([
        JSONMember("url", .string("a/b")),
        JSONMember("list", .array([.number("1"), .number("2.50"), .null, .bool(true)])),
        JSONMember("text", .string("quote \" backslash \\ line\nbell \u{07}"))
    ])

    @Test func compactLikeJSONEncoderEscapesSlashes() {
        #expect(
            JSONWriter(style: .compact(escapingSlashes: true)).write(value)
                == #"{"url":"a\/b","list":[1,2.50,null,true],"text":"quote \" backslash \\ line\nbell \u0007"}"#)
    }

    @Test func compactWithoutSlashEscapes() {
        #expect(JSONWriter(style: .compact(escapingSlashes: false)).write(value).hasPrefix(#"{"url":"a/b","#))
    }

    @Test func spacedLikePythonJSONDumps() {
        #expect(
            JSONWriter(style: .spaced).write(.object([JSONMember("a", .array([.number("1"), .number("2")]))]))
                == #"{"a": [1, 2]}"#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let text = JSONWriter(style: .compact(escapingSlashes: true)).write(value)
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func quotedEscapesWhatPythonEscapesAndInvisiblesOnlyWhenAsked() {
        let text = "tab\t bs\u{08} ff\u{0C} del\u{7F} c1\u{85} ls\u{2028} é😀"
        #expect(JSONWriter.quoted(text) == "\"tab\\t bs\\b ff\\f del\u{7F} c1\u{85} ls\u{2028} é😀\"")
        #expect(
            JSONWriter.quoted(text, escapingInvisible: true)
                == #""tab\t bs\b ff\f del\u007f c1\u0085 ls\u2028 é😀""#)
    }

    @Test func prettyIndentsContainersAndKeepsScalarArraysOnOneLine() {
        let value = OrderedJSON.object([
            JSONMember("name", .string("a/b")),
            JSONMember("ids", .array([.int(1), .int(2)])),
            JSONMember("empty", .object([])),
            JSONMember("rows", .array([.object([JSONMember("x", .null)]), .array([])]))
        ])
        #expect(
            JSONWriter(style: .pretty).write(value) == """
                {
                  "name": "a/b",
                  "ids": [1, 2],
                  "empty": {},
                  "rows": [
                    {
                      "x": null
                    },
                    []
                  ]
                }
                """)
    }

    @Test func aWriterForATerminalEscapesInvisibles() {
        #expect(JSONWriter(style: .pretty, escapingInvisible: true).write(.array([.string("c1\u{85} ls\u{2028}")])) == #"["c1\u0085 ls\u2028"]"#)
        #expect(JSONWriter(style: .pretty).write(.array([.string("c1\u{85}")])) == "[\"c1\u{85}\"]")
    }

    @Test func numbersFromSwiftReadBackAsTheSameValue() throws {
        #expect(OrderedJSON.int(-42) == .number("-42"))
        #expect(OrderedJSON.double(3) == .number("3"))
        #expect(OrderedJSON.double(-0.0) == .number("-0"))
        #expect(OrderedJSON.double(0.1) == .number("0.1"))
        #expect(OrderedJSON.double(1e16) == .number("1e+16"))
        #expect(OrderedJSON.double(.nan) == .null)
        #expect(OrderedJSON.double(-.infinity) == .null)
        #expect(OrderedJSON.optional(nil as Int?) == .null)
        #expect(OrderedJSON.optional("x") == .string("x"))
        for double in [0.1, -2.5e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123456789.125, 1e15, -0.0, Double.pi] {
            let read = try JSONParser.parse(JSONWriter(style: .spaced).write(.double(double)))
            #expect(read.doubleValue == double && read.doubleValue?.sign == double.sign, "\(double)")
        }
        #expect(
            try JSONParser.parse("[9223372036854775807, 9223372036854775808, 1e2, 2.5, -0]").elements?.map(\.intValue)
                == [.max, nil, 100, nil, 0])
    }

    @Test func everyControlCharacterIsEscapedAndReadsBack() throws {
        let text = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar($0)! })) + "\u{7F}\u{9F}\u{2028}\u{2029}\u{FEFF}😀"
        for writer in Self.writers {
            let written = writer.write(.string(text))
            #expect(!written.unicodeScalars.contains { $0.value < 0x20 }, "\(writer.style)")
            #expect(try JSONParser.parse(written) == .string(text), "\(writer.style)")
        }
    }

    @Test func randomTextWithEscapesBetweenRunsReadsBackEqualFromEveryStyle() throws {
        // Escapes at the start, the end and side by side, between runs of
        // ASCII and of multi-byte characters that share the C1 and U+2028 leads.
        let alphabet: [Unicode.Scalar] = [
            "a", " ", "/", "\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}",
            "\u{A0}", "é", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "中", "😀"
        ]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let length = Int.random(in: 0...12, using: &random)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
            for writer in Self.writers {
                let written = writer.write(.array([.string(text), .object([JSONMember(text, .null)])]))
                #expect(try JSONParser.parse(written) == .array([.string(text), .object([JSONMember(text, .null)])]), "\(writer.style) \(text.debugDescription)")
                #expect(!written.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != " " })
                if writer.escapingInvisible {
                    #expect(
                        !written.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" },
                        "\(text.debugDescription)")
                }
            }
        }
    }

    /// A document whose arrays were written element by element comes out
    /// byte for byte as the whole document does: empty, one element, many;
    /// objects and arrays nested in them; any top-level member position.
    @Test func anArrayWrittenElementByElementIsTheArrayTheWholeDocumentHas() {
        var random = SystemRandomNumberGenerator()
        func scalar() -> OrderedJSON {
            [OrderedJSON.int(.random(in: -99...99, using: &random)), .string("a\n/é\u{2028}"), .null, .bool(true), .double(0.25)].randomElement(using: &random)!
        }
        func element(_ depth: Int) -> OrderedJSON {
            let members = (0..<Int.random(in: 0...3, using: &random)).map { JSONMember("k\($0)", depth > 0 && Bool.random(using: &random) ? element(depth - 1) : scalar()) }
            return Bool.random(using: &random) ? .object(members) : .array(members.map(\.value))
        }
        for _ in 0..<300 {
            let elements = (0..<Int.random(in: 0...4, using: &random)).map { _ in element(2) }
            let before = (0..<Int.random(in: 0...2, using: &random)).map { JSONMember("b\($0)", element(1)) }
            let after = (0..<Int.random(in: 0...2, using: &random)).map { JSONMember("z\($0)", scalar()) }
            let whole = OrderedJSON.object(before + [JSONMember("inputs", .array(elements))] + after)
            let placeholder = OrderedJSON.object(before + [JSONMember("inputs", .array([]))] + after)
            for writer in Self.writers {
                var inputs = JSONWriter.ArrayWriter(writer: writer, depth: 1)
                for e in elements { inputs.append(e) }
                let parts = writer.utf8(placeholder, inserting: ["inputs": inputs])
                #expect(parts == writer.utf8(whole), "\(writer.style): \(String(decoding: parts, as: UTF8.self))")
                #expect(String(decoding: writer.utf8(whole), as: UTF8.self) == writer.write(whole))
            }
        }
    }

    @Test func aTokenizerFileReadsBackEqualFromEveryStyle() throws {
        let url = TestRepository.huggingFace.appendingPathComponent("claude-legacy.tokenizer.json")
        guard FileManager.default.fileExists(atPath: url.path) || TestRepository.isCI else { return }
        let value = try JSONParser.parse([UInt8](try Data(contentsOf: url)))
        #expect(value["model"]?["vocab"]?.members?.count ?? 0 > 60_000)
        for writer in Self.writers {
            #expect(try JSONParser.parse(writer.write(value)) == value, "\(writer.style)")
        }
    }
}
