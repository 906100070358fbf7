import ContextKitJSON

/// Checks that JSON is a JSON Schema before it is priced: a root that uses at
/// least one schema keyword, and keywords whose values have their kind
/// (`"required": "a"` is refused). A wrong shape would be priced as if a
/// runtime accepted it — a silent wrong number (issue 44).
///
/// One pass over the value: time is linear in its size.
enum SchemaShape {
    /// The keywords that make an object a schema (one is enough at the root).
    static let keywords: Set<String> = [
        "type", "properties", "items", "prefixItems", "$ref", "anyOf", "oneOf", "allOf", "not", "enum", "const",
        "$defs", "definitions", "additionalProperties", "required", "patternProperties", "$schema"
    ]

    /// Throws `SchemaError.notASchema` naming the first keyword of the wrong
    /// kind and where it is (`#/properties/a/required`).
    ///
    /// - Parameter requireKeyword: the root must use a schema keyword (not for
    ///   a tool's parameters, where `{}` means "no arguments").
    static func validate(_ schema: OrderedJSON, label: String = "#", requireKeyword: Bool = true) throws(SchemaError) {
        guard case let .object(members) = schema else {
            throw .notASchema(reason: "\(label) must be a JSON Schema object, not \(schema.kindName)")
        }
        if requireKeyword, !members.isEmpty, !members.contains(where: { keywords.contains($0.key) }) {
            let seen = members.prefix(3).map { "\"\($0.key)\"" }.joined(separator: ", ")
            throw .notASchema(
                reason:
                    "\(label) has no JSON Schema keyword (type, properties, items, $ref, anyOf, enum...), only \(seen)\(members.count > 3 ? "..." : ""); give a JSON Schema, an OpenAI response_format or tool list, or Swift source"
            )
        }
        if requireKeyword, members.isEmpty {
            throw .notASchema(reason: "\(label) is an empty object, which constrains nothing; give the schema of the answer")
        }
        try check(schema, at: label)
    }

    private static func check(_ schema: OrderedJSON, at path: String) throws(SchemaError) {
        guard case let .object(members) = schema else {
            // `true` / `false` are schemas too (JSON Schema 2019-09 and later).
            if case .bool = schema { return }
            throw .notASchema(reason: "\(path) must be a schema object, not \(schema.kindName)")
        }
        for member in members {
            let here = path + "/" + member.key
            let value = member.value
            switch member.key {
            case "type":
                let names = value.stringValue.map { [$0] } ?? value.elements?.compactMap(\.stringValue)
                guard let names, names.count == (value.elements?.count ?? 1) else {
                    throw wrong(here, "a type name or a list of them", value)
                }
                for name in names where !["string", "number", "integer", "boolean", "object", "array", "null"].contains(name) {
                    throw .notASchema(reason: "\(here): \"\(name)\" is not a JSON Schema type (string, number, integer, boolean, object, array, null)")
                }
            case "required":
                guard let names = value.elements, names.allSatisfy({ $0.stringValue != nil }) else {
                    throw wrong(here, "an array of property names", value)
                }
            case "properties", "$defs", "definitions", "patternProperties":
                guard let children = value.members else { throw wrong(here, "an object of schemas", value) }
                for child in children { try check(child.value, at: here + "/" + child.key) }
            case "items", "additionalProperties", "not":
                if case .array(let elements) = value, member.key == "items" {
                    for (position, element) in elements.enumerated() { try check(element, at: here + "/\(position)") }
                } else {
                    try check(value, at: here)
                }
            case "anyOf", "oneOf", "allOf", "prefixItems":
                guard let elements = value.elements, !elements.isEmpty else { throw wrong(here, "a non-empty array of schemas", value) }
                for (position, element) in elements.enumerated() { try check(element, at: here + "/\(position)") }
            case "enum":
                guard value.elements != nil else { throw wrong(here, "an array of values", value) }
            case "description", "title", "pattern", "$ref":
                guard value.stringValue != nil else { throw wrong(here, "a string", value) }
            case "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum", "minProperties", "maxProperties":
                guard case .number = value else { throw wrong(here, "a number", value) }
            default:
                break
            }
        }
    }

    private static func wrong(_ path: String, _ expected: String, _ value: OrderedJSON) -> SchemaError {
        .notASchema(reason: "\(path) must be \(expected), not \(value.kindName)")
    }
}
