/// Reads `@Generable` structs and enums, with their `@Guide`s, out of Swift
/// source, without a compiler: enough to build the schema Apple's macro would
/// build on a machine that has no Apple SDK.
///
/// Anything it does not model (generics, enums with payloads, dictionaries,
/// `#if`, computed descriptions...) is refused with the line and a hint,
/// never approximated: a wrong schema would give a confidently wrong count.
struct GenerableSourceParser {
    private let tokens: [SwiftToken]
    private var index = 0
    private var declarations: [GenerableDeclaration] = []

    private init(tokens: [SwiftToken]) {
        self.tokens = tokens
    }

    /// Every `@Generable` type in `source`, outer types before the types nested in them.
    static func parse(_ source: String) throws(SchemaError) -> [GenerableDeclaration] {
        let declarations = try parse(tokens: try SwiftLexer.tokenize(source))
        if declarations.isEmpty { throw .noGenerableType }
        return declarations
    }

    /// Every `@Generable` type in `tokens` (none is not an error here: a file
    /// of tools may declare its argument types elsewhere).
    static func parse(tokens: [SwiftToken]) throws(SchemaError) -> [GenerableDeclaration] {
        var parser = GenerableSourceParser(tokens: tokens)
        while parser.index < parser.tokens.count {
            let token = parser.tokens[parser.index]
            if token.kind == .attribute && token.text == "Generable" {
                try parser.parseGenerable()
            } else {
                parser.index += 1
            }
        }
        return parser.declarations
    }

    // MARK: Declarations

    private static let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "package", "open", "final", "nonisolated",
        "lazy", "weak", "unowned", "mutating", "nonmutating", "override", "required", "convenience", "dynamic"
    ]

    /// At `@Generable`: reads the attribute, the declaration and its body.
    private mutating func parseGenerable() throws(SchemaError) {
        let attributeLine = tokens[index].line
        index += 1
        var description: String?
        if current?.isSymbol("(") == true {
            description = try parseGenerableArguments()
        }
        try skipAttributesAndModifiers(allowing: ["indirect"])
        guard let keyword = current, keyword.kind == .identifier else {
            throw .unsupportedSwift(line: attributeLine, construct: "@Generable without a following declaration", hint: "put @Generable directly before a struct or enum")
        }
        switch keyword.text {
        case "struct", "enum": break
        case "class", "actor", "extension", "protocol":
            throw .unsupportedSwift(
                line: keyword.line, construct: "@Generable on \(keyword.text == "extension" ? "an extension" : "a \(keyword.text)")",
                hint: "Apple's @Generable macro applies to structs and enums")
        default:
            throw .unsupportedSwift(line: keyword.line, construct: "@Generable before `\(keyword.text)`", hint: "put @Generable directly before a struct or enum")
        }
        index += 1
        guard let nameToken = current, nameToken.kind == .identifier else {
            throw .unsupportedSwift(line: keyword.line, construct: "\(keyword.text) without a name", hint: "name the type")
        }
        index += 1
        if current?.isSymbol("<") == true {
            throw .unsupportedSwift(
                line: nameToken.line, construct: "generic type \(nameToken.text)<...>",
                hint: "the schema depends on the type arguments; count a concrete (non-generic) copy of the type")
        }
        while let token = current, !token.isSymbol("{") {
            index += 1
        }
        guard current != nil else {
            throw .unsupportedSwift(line: nameToken.line, construct: "\(keyword.text) \(nameToken.text) without a body", hint: "the file seems cut off")
        }
        let slot = declarations.count
        declarations.append(GenerableDeclaration(name: nameToken.text, description: description, body: .structure([]), line: nameToken.line, tokenIndex: index - 1))
        if keyword.text == "struct" {
            declarations[slot].body = .structure(try parseStructBody(typeName: nameToken.text))
        } else {
            var hasRawValues = false
            declarations[slot].body = .enumeration(try parseEnumBody(typeName: nameToken.text, hasRawValues: &hasRawValues))
            if hasRawValues {
                declarations[slot].notes.append("enum \(nameToken.text) has raw values; counted with its case names, which is what the generated value is assumed to hold")
            }
        }
    }

    /// `(description: "...")` after `@Generable`.
    private mutating func parseGenerableArguments() throws(SchemaError) -> String? {
        let open = tokens[index]
        index += 1
        var description: String?
        while let token = current, !token.isSymbol(")") {
            if token.isIdentifier("description"), next(1)?.isSymbol(":") == true {
                index += 2
                description = try parseStringLiteral(context: "the @Generable description")
            } else if token.isSymbol(",") {
                index += 1
            } else {
                throw .unsupportedSwift(line: token.line, construct: "@Generable argument `\(token.text)`", hint: "only @Generable(description: \"...\") is read")
            }
        }
        guard current != nil else { throw unterminated("@Generable(", at: open) }
        index += 1
        return description
    }

    private mutating func skipAttributesAndModifiers(allowing extra: Set<String> = []) throws(SchemaError) {
        while let token = current {
            if token.kind == .attribute {
                index += 1
                if current?.isSymbol("(") == true { try skipBalanced() }
            } else if token.kind == .identifier, Self.modifiers.contains(token.text) || extra.contains(token.text) {
                index += 1
                if current?.isSymbol("(") == true { try skipBalanced() }  // private(set)
            } else {
                return
            }
        }
    }

    // MARK: Struct bodies

    private mutating func parseStructBody(typeName: String) throws(SchemaError) -> [GenerableDeclaration.Property] {
        let open = tokens[index]
        index += 1
        var properties: [GenerableDeclaration.Property] = []
        var guides: GenerableDeclaration.Guides?
        var guideLine = 0
        var isStatic = false
        while let token = current {
            if token.isSymbol("}") {
                index += 1
                if guides != nil {
                    throw .unsupportedSwift(
                        line: guideLine, construct: "@Guide not followed by a stored property", hint: "put @Guide directly before a `var name: Type` of \(typeName)")
                }
                return properties
            }
            switch token.kind {
            case .attribute where token.text == "Guide":
                guideLine = token.line
                index += 1
                guides = try parseGuideArguments()
            case .attribute where token.text == "Generable":
                try parseGenerable()
            case .attribute:
                index += 1
                if current?.isSymbol("(") == true { try skipBalanced() }
            case .directive:
                throw .unsupportedSwift(
                    line: token.line, construct: "\(token.text) inside @Generable \(typeName)",
                    hint: "the schema would depend on the build configuration; count each variant as its own file")
            case .identifier where Self.modifiers.contains(token.text):
                index += 1
                if current?.isSymbol("(") == true { try skipBalanced() }
            case .identifier where token.text == "static" || (token.text == "class" && ["var", "let", "func", "subscript"].contains(next(1)?.text ?? "")):
                isStatic = true
                index += 1
            case .identifier where token.text == "var" || token.text == "let":
                if let property = try parseProperty(guides: guides ?? .init(), typeName: typeName, isStatic: isStatic) {
                    properties.append(property)
                } else if guides != nil {
                    throw .unsupportedSwift(
                        line: guideLine, construct: "@Guide on a \(isStatic ? "static" : "computed") property", hint: "guides only apply to stored instance properties")
                }
                guides = nil
                isStatic = false
            case .identifier where ["func", "init", "deinit", "subscript", "struct", "enum", "class", "actor", "extension", "protocol"].contains(token.text):
                try skipDeclarationWithBody()
                isStatic = false
            case .identifier where token.text == "typealias":
                skipRestOfLine()
            case .symbol where token.text == ";":
                index += 1
            default:
                throw .unsupportedSwift(
                    line: token.line, construct: "`\(token.text)` in the body of \(typeName)",
                    hint: "schema-cost reads stored properties, @Guide attributes and nested @Generable types")
            }
        }
        throw unterminated("struct \(typeName) {", at: open)
    }

    /// At `var`/`let`. Returns nil for members that are not in the schema
    /// (static and computed properties).
    private mutating func parseProperty(guides: GenerableDeclaration.Guides, typeName: String, isStatic: Bool) throws(SchemaError) -> GenerableDeclaration.Property? {
        let keyword = tokens[index]
        index += 1
        guard let name = current, name.kind == .identifier else {
            throw .unsupportedSwift(line: keyword.line, construct: "\(keyword.text) without a simple name", hint: "write `var name: Type`")
        }
        index += 1
        guard current?.isSymbol(":") == true else {
            if isStatic { skipValue(); return nil }
            throw .unsupportedSwift(
                line: name.line, construct: "property \(name.text) without a type annotation", hint: "write `var \(name.text): Type` so the schema type is known")
        }
        index += 1
        let type = try parseType(property: name.text)
        if current?.isSymbol(",") == true {
            throw .unsupportedSwift(line: name.line, construct: "several properties in one declaration", hint: "declare each property of \(typeName) on its own line")
        }
        if isStatic {
            skipValue()
            return nil
        }
        if current?.isSymbol("{") == true {
            // `{ didSet ... }` keeps the property stored; `{ get ... }` or a bare body makes it computed.
            let first = next(1)
            let observed = first?.isIdentifier("willSet") == true || first?.isIdentifier("didSet") == true
            try skipBalanced()
            if !observed { return nil }
        } else if current?.isSymbol("=") == true {
            if keyword.text == "let" {
                throw .unsupportedSwift(
                    line: name.line, construct: "`let \(name.text)` with an initial value",
                    hint: "a constant cannot be generated; whether the macro skips it is not known here, so make it a `var` or move it out of the type")
            }
            skipValue()
        }
        return GenerableDeclaration.Property(name: name.text, type: type, guides: guides, line: name.line)
    }

    private mutating func parseType(property: String) throws(SchemaError) -> GenerableDeclaration.TypeReference {
        guard let token = current else { throw unterminated("the type of \(property)", at: tokens.last) }
        var type: GenerableDeclaration.TypeReference
        if token.isSymbol("[") {
            index += 1
            let element = try parseType(property: property)
            if current?.isSymbol(":") == true {
                throw .unsupportedSwift(
                    line: token.line, construct: "dictionary type for \(property)",
                    hint:
                        "Apple's built-in Generable types are String, Int, Double, Float, Decimal, Bool, arrays and optionals; use an array of a @Generable struct with key and value properties"
                )
            }
            guard current?.isSymbol("]") == true else { throw unexpected(current, expected: "]", in: property) }
            index += 1
            type = .array(element)
        } else if token.isSymbol("(") {
            throw .unsupportedSwift(line: token.line, construct: "tuple or function type for \(property)", hint: "use a @Generable struct instead")
        } else if token.kind == .identifier {
            if token.text == "some" || token.text == "any" {
                throw .unsupportedSwift(line: token.line, construct: "`\(token.text)` type for \(property)", hint: "use a concrete type")
            }
            var name = token.text
            index += 1
            while current?.isSymbol(".") == true, let part = next(1), part.kind == .identifier {
                name = part.text
                index += 2
            }
            if current?.isSymbol("<") == true {
                index += 1
                let argument = try parseType(property: property)
                if current?.isSymbol(",") == true || !["Array", "Optional"].contains(name) {
                    throw .unsupportedSwift(
                        line: token.line, construct: "generic type \(name)<...> for \(property)",
                        hint: "only Array<T> and Optional<T> are read; Apple's macro needs Generable types")
                }
                guard current?.isSymbol(">") == true else { throw unexpected(current, expected: ">", in: property) }
                index += 1
                type = name == "Array" ? .array(argument) : .optional(argument)
            } else {
                type = .named(name)
            }
        } else {
            throw unexpected(token, expected: "a type", in: property)
        }
        while let suffix = current, suffix.kind == .symbol {
            if suffix.text == "?" {
                if case .optional = type {
                    throw .unsupportedSwift(line: suffix.line, construct: "nested optional for \(property)", hint: "use a single optional")
                }
                type = .optional(type)
                index += 1
            } else if suffix.text == "??" || suffix.text == "!" {
                throw .unsupportedSwift(line: suffix.line, construct: "`\(suffix.text)` after the type of \(property)", hint: "use `T` or `T?`")
            } else {
                break
            }
        }
        return type
    }

    // MARK: Guides

    /// `(description: "...", .count(3), ...)` after `@Guide`.
    private mutating func parseGuideArguments() throws(SchemaError) -> GenerableDeclaration.Guides {
        var guides = GenerableDeclaration.Guides()
        guard let open = current, open.isSymbol("(") else { return guides }
        index += 1
        while let token = current, !token.isSymbol(")") {
            if token.isSymbol(",") {
                index += 1
            } else if token.isIdentifier("description"), next(1)?.isSymbol(":") == true {
                index += 2
                guides.description = try parseStringLiteral(context: "the @Guide description")
            } else if token.isSymbol("."), let name = next(1), name.kind == .identifier, next(2)?.isSymbol("(") == true {
                index += 3
                try parseGuide(name, into: &guides)
                guard current?.isSymbol(")") == true else { throw unexpected(current, expected: ")", in: ".\(name.text)(...)") }
                index += 1
            } else {
                throw .unsupportedSwift(
                    line: token.line, construct: "@Guide argument starting with `\(token.text)`",
                    hint: "read are description: \"...\" and .count, .minimumCount, .maximumCount, .anyOf, .range, .minimum, .maximum, .pattern")
            }
        }
        guard current != nil else { throw unterminated("@Guide(", at: open) }
        index += 1
        return guides
    }

    private mutating func parseGuide(_ name: SwiftToken, into guides: inout GenerableDeclaration.Guides) throws(SchemaError) {
        switch name.text {
        case "count":
            let lower = try parseInteger(guide: "count")
            if current?.isSymbol("...") == true {
                index += 1
                guides.minimumCount = lower
                guides.maximumCount = try parseInteger(guide: "count")
            } else if current?.isSymbol("..<") == true {
                throw .unsupportedSwift(line: name.line, construct: ".count with a half-open range", hint: "write a closed range such as .count(2...4)")
            } else {
                guides.minimumCount = lower
                guides.maximumCount = lower
            }
        case "minimumCount":
            guides.minimumCount = try parseInteger(guide: name.text)
        case "maximumCount":
            guides.maximumCount = try parseInteger(guide: name.text)
        case "anyOf":
            guides.anyOf = try parseStringArray()
        case "range":
            guides.minimum = try parseNumber(guide: "range")
            guard current?.isSymbol("...") == true else {
                throw .unsupportedSwift(line: name.line, construct: ".range without a closed range", hint: "write .range(1...10), or use .minimum / .maximum for one bound")
            }
            index += 1
            guides.maximum = try parseNumber(guide: "range")
        case "minimum":
            guides.minimum = try parseNumber(guide: name.text)
        case "maximum":
            guides.maximum = try parseNumber(guide: name.text)
        case "pattern":
            guard let literal = current, literal.kind == .regex else {
                throw .unsupportedSwift(
                    line: name.line, construct: ".pattern without a regex literal", hint: "write .pattern(/.../); Regex builders and Regex(\"...\") are not read")
            }
            index += 1
            guides.pattern = literal.text
        default:
            throw .unsupportedSwift(
                line: name.line, construct: "guide .\(name.text)",
                hint: "read are .count, .minimumCount, .maximumCount, .anyOf, .range, .minimum, .maximum and .pattern; its encoding is not known here")
        }
    }

    private mutating func parseInteger(guide: String) throws(SchemaError) -> Int {
        guard let token = current, token.kind == .number, let value = Int(token.text) else {
            throw .unsupportedSwift(line: current?.line ?? 0, construct: ".\(guide) with `\(current?.text ?? "")`", hint: "give an integer literal")
        }
        index += 1
        return value
    }

    private mutating func parseNumber(guide: String) throws(SchemaError) -> String {
        var sign = ""
        if current?.isSymbol("-") == true { sign = "-"; index += 1 }
        guard let token = current, token.kind == .number, Double(token.text) != nil else {
            throw .unsupportedSwift(line: current?.line ?? 0, construct: ".\(guide) with `\(current?.text ?? "")`", hint: "give number literals")
        }
        index += 1
        return sign + Self.normalizedNumber(token.text)
    }

    /// A number as `JSONEncoder` writes it: `1.0` as `1`, `0.50` as `0.5`.
    static func normalizedNumber(_ literal: String) -> String {
        guard literal.contains("."), !literal.contains("e"), !literal.contains("E") else { return literal }
        var text = Substring(literal)
        while text.hasSuffix("0") { text = text.dropLast() }
        if text.hasSuffix(".") { text = text.dropLast() }
        return String(text)
    }

    private mutating func parseStringArray() throws(SchemaError) -> [String] {
        guard let open = current, open.isSymbol("[") else {
            throw .unsupportedSwift(line: current?.line ?? 0, construct: ".anyOf without an array literal", hint: "write .anyOf([\"a\", \"b\"])")
        }
        index += 1
        var values: [String] = []
        while let token = current, !token.isSymbol("]") {
            if token.isSymbol(",") { index += 1; continue }
            values.append(try parseStringLiteral(context: ".anyOf"))
        }
        guard current != nil else { throw unterminated(".anyOf([", at: open) }
        index += 1
        return values
    }

    private mutating func parseStringLiteral(context: String) throws(SchemaError) -> String {
        guard let token = current else { throw unterminated(context, at: tokens.last) }
        switch token.kind {
        case .string:
            index += 1
            if current?.isSymbol("+") == true {
                throw .unsupportedSwift(line: token.line, construct: "string concatenation in \(context)", hint: "write one string literal (a \"\"\" multi-line literal works)")
            }
            return token.text
        case .interpolatedString:
            throw .unsupportedSwift(line: token.line, construct: "string interpolation in \(context)", hint: "its text is only known at run time; write the literal text")
        default:
            throw .unsupportedSwift(
                line: token.line, construct: "`\(token.text)` as \(context)", hint: "write a string literal; constants and expressions are only known at run time")
        }
    }

    // MARK: Enum bodies

    private mutating func parseEnumBody(typeName: String, hasRawValues: inout Bool) throws(SchemaError) -> [String] {
        let open = tokens[index]
        index += 1
        var cases: [String] = []
        while let token = current {
            if token.isSymbol("}") {
                index += 1
                if cases.isEmpty {
                    throw .unsupportedSwift(line: open.line, construct: "enum \(typeName) without cases", hint: "a generated value must be one of the cases")
                }
                return cases
            }
            switch token.kind {
            case .identifier where token.text == "case":
                index += 1
                try parseCaseList(into: &cases, typeName: typeName, hasRawValues: &hasRawValues)
            case .identifier where token.text == "indirect":
                throw .unsupportedSwift(line: token.line, construct: "indirect case in \(typeName)", hint: "enums with associated values are not read")
            case .attribute where token.text == "Generable":
                try parseGenerable()
            case .attribute where token.text == "Guide":
                throw .unsupportedSwift(line: token.line, construct: "@Guide inside enum \(typeName)", hint: "guides apply to struct properties")
            case .attribute:
                index += 1
                if current?.isSymbol("(") == true { try skipBalanced() }
            case .directive:
                throw .unsupportedSwift(
                    line: token.line, construct: "\(token.text) inside @Generable \(typeName)",
                    hint: "the schema would depend on the build configuration; count each variant as its own file")
            case .identifier where Self.modifiers.contains(token.text) || token.text == "static":
                index += 1
            case .identifier where ["var", "let"].contains(token.text):
                // Enums cannot have stored properties, so these are computed or static.
                index += 2
                if current?.isSymbol(":") == true { index += 1; _ = try parseType(property: "a member of \(typeName)") }
                if current?.isSymbol("{") == true { try skipBalanced() } else { skipValue() }
            case .identifier where ["func", "init", "subscript", "struct", "enum", "class", "actor", "extension", "protocol"].contains(token.text):
                try skipDeclarationWithBody()
            case .identifier where token.text == "typealias":
                skipRestOfLine()
            case .symbol where token.text == ";":
                index += 1
            default:
                throw .unsupportedSwift(line: token.line, construct: "`\(token.text)` in the body of \(typeName)", hint: "schema-cost reads the cases of a @Generable enum")
            }
        }
        throw unterminated("enum \(typeName) {", at: open)
    }

    private mutating func parseCaseList(into cases: inout [String], typeName: String, hasRawValues: inout Bool) throws(SchemaError) {
        while let name = current, name.kind == .identifier {
            index += 1
            if current?.isSymbol("(") == true {
                throw .unsupportedSwift(
                    line: name.line, construct: "case \(name.text)(...) with associated values in \(typeName)",
                    hint: "only enums with plain cases are read; their schema shape for payloads is not known here")
            }
            if current?.isSymbol("=") == true {
                index += 1
                skipRawValue()
                hasRawValues = true
            }
            cases.append(name.text)
            guard current?.isSymbol(",") == true else { return }
            index += 1
        }
    }

    private mutating func skipRawValue() {
        if current?.isSymbol("-") == true { index += 1 }
        index += 1
    }

    // MARK: Skipping

    private var current: SwiftToken? { index < tokens.count ? tokens[index] : nil }

    private func next(_ offset: Int) -> SwiftToken? {
        index + offset < tokens.count ? tokens[index + offset] : nil
    }

    /// At an opening bracket: moves past its matching closer.
    private mutating func skipBalanced() throws(SchemaError) {
        let open = tokens[index]
        var depth = 0
        while let token = current {
            if token.kind == .symbol {
                if ["(", "[", "{"].contains(token.text) { depth += 1 }
                if [")", "]", "}"].contains(token.text) { depth -= 1 }
            }
            index += 1
            if depth == 0 { return }
        }
        throw unterminated(open.text, at: open)
    }

    /// At `func`, `init`, a nested type...: moves past its `{ body }` (or to the
    /// end of its line when it has none, as in a protocol requirement).
    private mutating func skipDeclarationWithBody() throws(SchemaError) {
        let start = tokens[index]
        index += 1
        while let token = current {
            if token.isSymbol("(") || token.isSymbol("[") {
                try skipBalanced()
            } else if token.isSymbol("{") {
                try skipBalanced()
                return
            } else if token.isSymbol("}") || (token.line > start.line && startsMember(token)) {
                return
            } else {
                index += 1
            }
        }
    }

    /// At `=`: moves past an initial value, which ends where the next member starts.
    private mutating func skipValue() {
        guard current?.isSymbol("=") == true else { return }
        let start = tokens[index]
        index += 1
        while let token = current {
            if token.isSymbol("(") || token.isSymbol("[") || token.isSymbol("{") {
                try? skipBalanced()
                continue
            }
            if token.isSymbol("}") || token.isSymbol(";") { return }
            if token.line > start.line && startsMember(token) { return }
            index += 1
        }
    }

    private mutating func skipRestOfLine() {
        let line = tokens[index].line
        while let token = current, token.line == line { index += 1 }
    }

    private func startsMember(_ token: SwiftToken) -> Bool {
        switch token.kind {
        case .attribute, .directive: return true
        case .identifier:
            return Self.modifiers.contains(token.text)
                || [
                    "var", "let", "func", "init", "deinit", "subscript", "static", "class", "struct", "enum",
                    "actor", "extension", "protocol", "typealias", "case"
                ].contains(token.text)
        default: return false
        }
    }

    /// Source that does not parse: `what` opens at `open` and is never closed.
    private func unterminated(_ what: String, at open: SwiftToken?) -> SchemaError {
        .swiftSyntax(line: open?.line ?? 1, column: open?.column ?? 1, problem: "unterminated \(what)", hint: "the file seems cut off or its brackets do not balance")
    }

    /// Source that does not parse: `token` (nil: the end of the file) where something else must be.
    private func unexpected(_ token: SwiftToken?, expected: String, in context: String) -> SchemaError {
        let at = token ?? tokens.last
        return .swiftSyntax(
            line: at?.line ?? 1, column: at?.column ?? 1, problem: "`\(token?.text ?? "end of file")` where \(expected) was expected in \(context)",
            hint: "schema-cost reads a subset of Swift; simplify the declaration")
    }
}
