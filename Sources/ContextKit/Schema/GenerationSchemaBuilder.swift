import ContextKitJSON

/// Builds the JSON that `JSONEncoder().encode(T.generationSchema)` writes for
/// `@Generable` declarations read from source.
///
/// Layout, as far as it is documented or was observed (field notes): JSON
/// Schema with the descriptions verbatim, `x-order` listing properties in
/// declaration order, `.count(n)` as `minItems`/`maxItems`, `.anyOf` as
/// `enum`, nested types under `$defs`, `additionalProperties: false`, optional
/// properties left out of `required`. The order of keys inside each object is
/// not documented; the one used here is fixed and `examples/Summary.json`
/// matches it, and key order moved the `Summary` count by 0 tokens in cl100k.
enum GenerationSchemaBuilder {
    struct Result: Equatable, Sendable {
        var schema: OrderedJSON
        /// The type the schema is for.
        var rootName: String
        var notes: [String]
    }

    /// Apple's built-in `Generable` scalar types and their JSON Schema types.
    static let scalarTypes: [String: String] = [
        "String": "string", "Int": "integer", "Double": "number", "Float": "number", "Decimal": "number", "Bool": "boolean"
    ]

    static func build(_ declarations: [GenerableDeclaration], rootName: String? = nil) throws(SchemaError) -> Result {
        var byName: [String: GenerableDeclaration] = [:]
        for declaration in declarations {
            if byName[declaration.name] != nil {
                throw .unsupportedSwift(
                    line: declaration.line, construct: "a second @Generable type named \(declaration.name)",
                    hint: "nested types are referred to by their last name component; rename one of them")
            }
            byName[declaration.name] = declaration
        }
        for declaration in declarations {
            try check(declaration, known: byName)
        }
        var notes: [String] = []
        let root: GenerableDeclaration
        if let rootName {
            guard let chosen = byName[rootName] else { throw .unknownType(name: rootName, known: declarations.map(\.name)) }
            root = chosen
        } else {
            let referenced = Set(declarations.flatMap(referencedTypes))
            let roots = declarations.filter { !referenced.contains($0.name) }
            root = roots.first ?? declarations[0]
            if roots.count > 1 {
                notes.append(
                    "the file has \(roots.count) top-level @Generable types (\(roots.map(\.name).joined(separator: ", "))); counted \(root.name), choose another with --type NAME")
            }
        }
        // Definitions in the order they are first reached from the root.
        var order: [String] = []
        var queue = referencedTypes(root)
        while !queue.isEmpty {
            let name = queue.removeFirst()
            if name == root.name {
                throw .unsupportedSwift(
                    line: root.line, construct: "a type that refers back to \(root.name)",
                    hint: "how Apple encodes a recursive root type is not known here; count a non-recursive variant")
            }
            if order.contains(name) { continue }
            order.append(name)
            queue += referencedTypes(byName[name]!)
        }
        let used = [root.name] + order
        notes += used.flatMap { byName[$0]!.notes }
        if used.contains(where: { if case .enumeration = byName[$0]!.body { return true } else { return false } }) {
            notes.append("enum layout {\"type\":\"string\",\"enum\":[case names]} is inferred from .anyOf's documented encoding, not observed")
        }
        var schema = typeSchema(root)
        if !order.isEmpty {
            schema = schema.setting("$defs", to: .object(order.map { JSONMember($0, typeSchema(byName[$0]!)) }))
        }
        return Result(schema: schema, rootName: root.name, notes: notes)
    }

    // MARK: Checks

    private static func check(_ declaration: GenerableDeclaration, known: [String: GenerableDeclaration]) throws(SchemaError) {
        guard case let .structure(properties) = declaration.body else { return }
        for property in properties {
            let base = baseName(property.type)
            if scalarTypes[base] == nil && known[base] == nil {
                throw .unsupportedSwift(
                    line: property.line, construct: "type \(base) of \(declaration.name).\(property.name)",
                    hint:
                        "it is neither a built-in Generable type (String, Int, Double, Float, Decimal, Bool, arrays, optionals) nor a @Generable type in this file; put its declaration in the file (or a copy of it)"
                )
            }
            let guides = property.guides
            let unwrapped = unwrapOptional(property.type)
            let isArray: Bool = if case .array = unwrapped { true } else { false }
            let scalar: String? = if case let .named(name) = unwrapped { scalarTypes[name] } else { nil }
            if guides.constrainsCount && !isArray {
                throw mismatch(property, in: declaration, guide: ".count/.minimumCount/.maximumCount", applies: "arrays")
            }
            if guides.constrainsNumber && scalar != "integer" && scalar != "number" {
                throw mismatch(property, in: declaration, guide: ".range/.minimum/.maximum", applies: "Int, Double, Float and Decimal")
            }
            if guides.constrainsString && scalar != "string" {
                throw mismatch(property, in: declaration, guide: ".anyOf/.pattern", applies: "String")
            }
        }
    }

    private static func mismatch(_ property: GenerableDeclaration.Property, in declaration: GenerableDeclaration, guide: String, applies: String) -> SchemaError {
        .unsupportedSwift(
            line: property.line, construct: "\(guide) on \(declaration.name).\(property.name)", hint: "these guides apply to \(applies); the Swift compiler would reject this")
    }

    // MARK: Emitting

    private static func typeSchema(_ declaration: GenerableDeclaration) -> OrderedJSON {
        var members = [JSONMember("title", .string(declaration.name))]
        switch declaration.body {
        case let .enumeration(cases):
            members.append(JSONMember("type", .string("string")))
            if let description = declaration.description { members.append(JSONMember("description", .string(description))) }
            members.append(JSONMember("enum", .array(cases.map(OrderedJSON.string))))
        case let .structure(properties):
            members.append(JSONMember("type", .string("object")))
            if let description = declaration.description { members.append(JSONMember("description", .string(description))) }
            members.append(JSONMember("properties", .object(properties.map { JSONMember($0.name, propertySchema($0)) })))
            let required = properties.filter { if case .optional = $0.type { return false } else { return true } }
            members.append(JSONMember("required", .array(required.map { .string($0.name) })))
            members.append(JSONMember("x-order", .array(properties.map { .string($0.name) })))
            members.append(JSONMember("additionalProperties", .bool(false)))
        }
        return .object(members)
    }

    private static func propertySchema(_ property: GenerableDeclaration.Property) -> OrderedJSON {
        let guides = property.guides
        let type = unwrapOptional(property.type)
        var members: [JSONMember]
        switch type {
        case let .array(element):
            members = [JSONMember("type", .string("array"))]
            if let description = guides.description { members.append(JSONMember("description", .string(description))) }
            members.append(JSONMember("items", valueSchema(unwrapOptional(element))))
            if let minimum = guides.minimumCount { members.append(JSONMember("minItems", .number(String(minimum)))) }
            if let maximum = guides.maximumCount { members.append(JSONMember("maxItems", .number(String(maximum)))) }
            return .object(members)
        default:
            guard case let .object(base) = valueSchema(type) else { return valueSchema(type) }
            members = base
            if let description = guides.description { members.append(JSONMember("description", .string(description))) }
            if let anyOf = guides.anyOf { members.append(JSONMember("enum", .array(anyOf.map(OrderedJSON.string)))) }
            if let pattern = guides.pattern { members.append(JSONMember("pattern", .string(pattern))) }
            if let minimum = guides.minimum { members.append(JSONMember("minimum", .number(minimum))) }
            if let maximum = guides.maximum { members.append(JSONMember("maximum", .number(maximum))) }
            return .object(members)
        }
    }

    /// The schema of a value of `type` with no guides.
    private static func valueSchema(_ type: GenerableDeclaration.TypeReference) -> OrderedJSON {
        switch type {
        case let .named(name):
            if let scalar = scalarTypes[name] { return .object([JSONMember("type", .string(scalar))]) }
            return .object([JSONMember("$ref", .string("#/$defs/\(name)"))])
        case let .array(element):
            return .object([JSONMember("type", .string("array")), JSONMember("items", valueSchema(unwrapOptional(element)))])
        case let .optional(wrapped):
            return valueSchema(wrapped)
        }
    }

    private static func unwrapOptional(_ type: GenerableDeclaration.TypeReference) -> GenerableDeclaration.TypeReference {
        if case let .optional(wrapped) = type { return unwrapOptional(wrapped) }
        return type
    }

    private static func baseName(_ type: GenerableDeclaration.TypeReference) -> String {
        switch type {
        case let .named(name): return name
        case let .array(element), let .optional(element): return baseName(element)
        }
    }

    /// The names of `root` and every type its schema reaches through properties.
    static func reachable(from root: String, in declarations: [GenerableDeclaration]) -> Set<String> {
        let byName = Dictionary(declarations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var reached: Set<String> = [root]
        var queue = [root]
        while let name = queue.popLast() {
            for next in byName[name].map(referencedTypes) ?? [] where reached.insert(next).inserted {
                queue.append(next)
            }
        }
        return reached
    }

    /// The types `declaration`'s properties name that are not built-in scalars.
    static func referencedTypes(_ declaration: GenerableDeclaration) -> [String] {
        guard case let .structure(properties) = declaration.body else { return [] }
        return properties.map { baseName($0.type) }.filter { scalarTypes[$0] == nil }
    }
}
