import ContextKitJSON

/// Turns a Swift file into what it gives a session: its `Tool`s (each one's
/// name, description and arguments schema, as FoundationModels puts them in
/// the instructions) and its response schema (a `@Generable` type no tool uses).
enum SwiftSchemaSource {
    /// One document for the file's tools (when it has any), then one for its
    /// response schema (when it has one, or `typeName` names it).
    static func documents(_ source: String, typeName: String?) throws(SchemaError) -> [SchemaDocument] {
        let tokens = try SwiftLexer.tokenize(source)
        let declarations = try GenerableSourceParser.parse(tokens: tokens)
        let tools = try SwiftToolReader.tools(in: tokens)
        if tools.isEmpty {
            if declarations.isEmpty { throw .noGenerableType }
            let built = try GenerationSchemaBuilder.build(declarations, rootName: typeName)
            return [try SchemaDocument(json: built.schema, format: .swift, notes: built.notes)]
        }
        // A type nested in a tool's body is that tool's (every tool may have its own `Arguments`).
        let fileLevel = declarations.filter { declaration in !tools.contains { $0.body.contains(declaration.tokenIndex) } }
        var entries: [SchemaDocument.Entry] = []
        var notes: [String] = []
        var usedByTools: Set<String> = []
        for tool in tools {
            let scope = declarations.filter { tool.body.contains($0.tokenIndex) } + fileLevel
            guard scope.contains(where: { $0.name == tool.argumentsType }) else {
                throw .invalidTool(
                    tool: tool.typeName, line: tool.argumentsAt.line, column: tool.argumentsAt.column,
                    problem: "its arguments type \(tool.argumentsType) is not a @Generable type in this file",
                    hint: "mark it @Generable, or put its declaration (or a copy of it) in this file")
            }
            let built = try GenerationSchemaBuilder.build(scope, rootName: tool.argumentsType)
            usedByTools.formUnion(GenerationSchemaBuilder.reachable(from: tool.argumentsType, in: scope))
            let name = tool.effectiveName
            if tool.name == nil {
                notes.append("\(tool.typeName) declares no `name`: priced with its type name, taken as Tool's default; declare `let name = \"...\"` to be sure")
            }
            notes += built.notes.map { "\(name): \($0)" }
            let function: OrderedJSON = .object([
                JSONMember("name", .string(name)), JSONMember("description", .string(tool.description)), JSONMember("parameters", built.schema)
            ])
            try SchemaReferences.validate(built.schema, label: "tool \(name): #/parameters")
            entries.append(SchemaDocument.Entry(name: name, description: tool.description, schema: built.schema, function: function))
        }
        var documents = [SchemaDocument(format: .swift, entries: entries, notes: notes)]
        let responseTypes = fileLevel.filter { !usedByTools.contains($0.name) }
        let referenced = Set(responseTypes.flatMap(GenerationSchemaBuilder.referencedTypes))
        let roots = responseTypes.filter { !referenced.contains($0.name) }
        if let root = typeName ?? roots.first?.name {
            let built = try GenerationSchemaBuilder.build(fileLevel, rootName: root)
            var responseNotes = built.notes
            if typeName == nil && roots.count > 1 {
                responseNotes.append(
                    "the file has \(roots.count) top-level @Generable types no tool uses (\(roots.map(\.name).joined(separator: ", "))); counted \(root) as the response schema, choose another with --type NAME"
                )
            }
            documents.append(try SchemaDocument(json: built.schema, format: .swift, notes: responseNotes))
        }
        return documents
    }
}
