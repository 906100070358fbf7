/// A type conforming to FoundationModels' `Tool`, as read from Swift source:
/// what the framework puts in a session's instructions for it (its name,
/// description and the schema of its arguments).
struct ToolDeclaration: Equatable, Sendable {
    /// The conforming type's name (`GetWeatherTool`).
    var typeName: String
    /// The `name` literal; nil when the type declares none and the protocol's default applies.
    var name: String?
    /// The `description` literal.
    var description: String
    /// The `@Generable` type whose schema is the tool's `parameters`
    /// (`Arguments`, or what `typealias Arguments =` or `call(arguments:)` names).
    var argumentsType: String
    /// Where the arguments type is named, for a message when it is not found.
    var argumentsAt: SwiftToken
    /// The tokens of the type's body, braces excluded: `@Generable` types declared there are its own.
    var body: Range<Int>
    /// The type's name token.
    var at: SwiftToken

    /// The name the model sees. FoundationModels' `Tool.name` — checked against
    /// Apple's documentation of the requirement (developer.apple.com/documentation/foundationmodels/tool/name,
    /// iOS 26.0+: `var name: String { get }`, "A unique name for the tool") —
    /// has a default in the framework; the documentation does not spell out
    /// its value, and the type's name is taken, as issue 42 states it. A tool
    /// priced with this default says so in the report's notes.
    var effectiveName: String { name ?? typeName }
}

/// Finds the types that conform to `Tool` in a file's tokens and reads their
/// `name`, `description` and arguments type. A tool whose parts are only known
/// at run time (a computed or initialised name, a hand-built `parameters`, an
/// `Arguments` that is not `@Generable`) is refused with where it is.
enum SwiftToolReader {
    /// The tools declared in `tokens`, in file order.
    static func tools(in tokens: [SwiftToken]) throws(SchemaError) -> [ToolDeclaration] {
        var tools: [ToolDeclaration] = []
        var index = 0
        while index + 1 < tokens.count {
            let keyword = tokens[index]
            guard keyword.kind == .identifier, ["struct", "class", "actor", "enum"].contains(keyword.text),
                tokens[index + 1].kind == .identifier,
                let open = conformanceToTool(tokens, after: index + 1)
            else {
                index += 1
                continue
            }
            guard let close = matchingClose(tokens, open: open) else {
                throw .swiftSyntax(
                    line: tokens[open].line, column: tokens[open].column, problem: "unterminated \(keyword.text) \(tokens[index + 1].text) {",
                    hint: "the file seems cut off or its brackets do not balance")
            }
            tools.append(try readTool(tokens, nameToken: tokens[index + 1], body: (open + 1)..<close))
            index = open + 1  // nested tools are read too
        }
        return tools
    }

    /// The index of the body's `{` when the declaration whose name is at
    /// `nameIndex` lists `Tool` (or `FoundationModels.Tool`) among its conformances.
    private static func conformanceToTool(_ tokens: [SwiftToken], after nameIndex: Int) -> Int? {
        var index = nameIndex + 1
        if index < tokens.count, tokens[index].isSymbol("<") {
            var depth = 0
            while index < tokens.count {
                if tokens[index].isSymbol("<") { depth += 1 }
                if tokens[index].isSymbol(">") { depth -= 1 }
                index += 1
                if depth == 0 { break }
            }
        }
        guard index < tokens.count, tokens[index].isSymbol(":") else { return nil }
        var conforms = false
        while index < tokens.count, !tokens[index].isSymbol("{") {
            let token = tokens[index]
            if token.isIdentifier("Tool") {
                let before = tokens[index - 1]
                if before.isSymbol(":") || before.isSymbol(",") || before.isSymbol("&")
                    || (before.isSymbol(".") && index >= 2 && tokens[index - 2].isIdentifier("FoundationModels"))
                {
                    conforms = true
                }
            }
            if token.isSymbol("}") || token.isSymbol(";") { return nil }
            index += 1
        }
        return conforms && index < tokens.count ? index : nil
    }

    /// The index of the `}` closing the `{` at `open`.
    private static func matchingClose(_ tokens: [SwiftToken], open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count where tokens[index].kind == .symbol {
            switch tokens[index].text {
            case "{", "(", "[": depth += 1
            case "}", ")", "]":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// Reads the members of one tool's body that the model sees.
    private static func readTool(_ tokens: [SwiftToken], nameToken: SwiftToken, body: Range<Int>) throws(SchemaError) -> ToolDeclaration {
        let typeName = nameToken.text
        func refuse(_ token: SwiftToken, _ problem: String, _ hint: String) -> SchemaError {
            .invalidTool(tool: typeName, line: token.line, column: token.column, problem: problem, hint: hint)
        }
        var name: String?
        var description: String?
        var arguments: (type: String, at: SwiftToken)?
        var callArguments: (type: String, at: SwiftToken)?
        var generablePending = false
        var isStatic = false
        var depth = 0
        var index = body.lowerBound
        while index < body.upperBound {
            let token = tokens[index]
            if token.kind == .symbol {
                if ["{", "(", "["].contains(token.text) { depth += 1 }
                if ["}", ")", "]"].contains(token.text) { depth -= 1 }
                index += 1
                continue
            }
            guard depth == 0 else { index += 1; continue }
            let next = index + 1 < body.upperBound ? tokens[index + 1] : nil
            switch token.kind {
            case .attribute where token.text == "Generable":
                generablePending = true
            case .identifier where token.text == "static" || (token.text == "class" && next?.kind == .identifier && ["var", "let", "func"].contains(next!.text)):
                isStatic = true
            case .identifier where ["struct", "enum", "class", "actor"].contains(token.text):
                if let next, next.isIdentifier("Arguments") {
                    guard generablePending else {
                        throw refuse(
                            token, "its `\(token.text) Arguments` is not @Generable",
                            "mark it @Generable (import FoundationModels): the framework builds the tool's parameters schema from it")
                    }
                    arguments = ("Arguments", next)
                }
                generablePending = false
                isStatic = false
            case .identifier where token.text == "typealias":
                if let next, next.isIdentifier("Arguments"), index + 3 < body.upperBound, tokens[index + 2].isSymbol("=") {
                    var target = index + 3
                    while target + 2 < body.upperBound, tokens[target + 1].isSymbol("."), tokens[target + 2].kind == .identifier { target += 2 }
                    let type = tokens[target]
                    if type.isIdentifier("GeneratedContent") {
                        throw refuse(
                            type, "its Arguments is GeneratedContent, so its `parameters` schema is built at run time",
                            "price the schema's JSON instead: encode tool.parameters with JSONEncoder and pass the file to schema-cost")
                    }
                    arguments = (type.text, type)
                }
                generablePending = false
            case .identifier where token.text == "func":
                // `func call(arguments: T)` names the arguments type when nothing else does.
                if let next, next.isIdentifier("call"), index + 5 < body.upperBound, tokens[index + 2].isSymbol("("),
                    tokens[index + 3].isIdentifier("arguments"), tokens[index + 4].isSymbol(":"), tokens[index + 5].kind == .identifier
                {
                    var target = index + 5
                    while target + 2 < body.upperBound, tokens[target + 1].isSymbol("."), tokens[target + 2].kind == .identifier { target += 2 }
                    callArguments = (tokens[target].text, tokens[target])
                }
                generablePending = false
                isStatic = false
            case .identifier where token.text == "var" || token.text == "let":
                defer { isStatic = false; generablePending = false }
                guard !isStatic, let member = next, member.kind == .identifier else { break }
                switch member.text {
                case "name", "description":
                    let (value, end) = try literal(tokens, member: index + 1, in: body, refuse: refuse)
                    if member.text == "name" { name = value } else { description = value }
                    index = end
                    continue
                case "parameters":
                    throw refuse(
                        member, "its `parameters` schema is written by hand, so it is only known at run time",
                        "price the schema's JSON instead: encode tool.parameters with JSONEncoder and pass the file to schema-cost")
                default:
                    break
                }
            default:
                break
            }
            index += 1
        }
        guard let description else {
            throw refuse(nameToken, "no `description`", "declare `let description = \"...\"`: Tool requires one and the model reads it")
        }
        guard let chosen = arguments ?? callArguments else {
            throw refuse(nameToken, "no Arguments type", "declare `@Generable struct Arguments { ... }` (or `typealias Arguments = SomeGenerableType`)")
        }
        return ToolDeclaration(
            typeName: typeName, name: name, description: description, argumentsType: chosen.type,
            argumentsAt: chosen.at, body: body, at: nameToken)
    }

    /// At a `name` / `description` property's name: its string literal, and the
    /// index after the declaration. Accepted: `= "..."`, `: String = "..."`,
    /// `: String { "..." }`, `{ return "..." }`, `{ get { "..." } }`.
    private static func literal(
        _ tokens: [SwiftToken], member: Int, in body: Range<Int>, refuse: (SwiftToken, String, String) -> SchemaError
    ) throws(SchemaError) -> (String, Int) {
        let property = tokens[member]
        let hint = "write it as a string literal (`let \(property.text) = \"...\"`): schema-cost reads source, and a value made at run time is not known here"
        var index = member + 1
        func at(_ i: Int) -> SwiftToken? { i < body.upperBound ? tokens[i] : nil }
        if at(index)?.isSymbol(":") == true {
            index += 1
            while let token = at(index), token.kind == .identifier || token.isSymbol(".") || token.isSymbol("?") { index += 1 }
        }
        guard let start = at(index) else { throw refuse(property, "its `\(property.text)` has no value here (set in an initialiser?)", hint) }
        if start.isSymbol("=") {
            guard let value = at(index + 1) else { throw refuse(start, "its `\(property.text)` has no value", hint) }
            guard value.kind == .string, at(index + 2).map({ !isOperator($0) }) ?? true else {
                throw refuse(value, "its `\(property.text)` is not a string literal (`\(shown(value))`)", hint)
            }
            return (value.text, index + 2)
        }
        if start.isSymbol("{") {
            var inner = index + 1
            if at(inner)?.isIdentifier("get") == true, at(inner + 1)?.isSymbol("{") == true { inner += 2 }
            if at(inner)?.isIdentifier("return") == true { inner += 1 }
            guard let value = at(inner), value.kind == .string, at(inner + 1)?.isSymbol("}") == true else {
                throw refuse(at(inner) ?? start, "its `\(property.text)` is computed, not a string literal", hint)
            }
            var end = inner + 2
            if at(end)?.isSymbol("}") == true, tokens[index + 1].isIdentifier("get") { end += 1 }
            return (value.text, end)
        }
        throw refuse(property, "its `\(property.text)` has no value here (set in an initialiser?)", hint)
    }

    /// A token that continues an expression after a literal (`+`, `.`, `(`...).
    private static func isOperator(_ token: SwiftToken) -> Bool {
        token.kind == .symbol && ["+", ".", "(", "[", "?", "??", "==", "!="].contains(token.text)
    }

    private static func shown(_ token: SwiftToken) -> String {
        token.kind == .interpolatedString ? "\"...\\(...)...\"" : token.text
    }
}
