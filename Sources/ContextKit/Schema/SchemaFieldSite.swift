import ContextKitJSON

/// A place in a schema that the breakdown prices: a property, or a type that
/// carries its own description.
struct SchemaFieldSite: Equatable {
    var display: String
    var kind: SchemaCostReport.Field.Kind
    /// Path to the field's (or type's) schema object.
    var path: [OrderedJSON.PathStep]
    /// For a property: its name and the object schema that lists it.
    var propertyName: String?
    var ownerPath: [OrderedJSON.PathStep]
    var description: String?
    /// For a property: its schema, and in how many of its owner's `required`
    /// and `x-order` lists it is named (kept so a field can be priced alone
    /// without searching the schema again).
    var schema: OrderedJSON? = nil
    var listings = 0

    /// Every site under `schema` (found at `path`), walking the keywords that hold subschemas.
    static func sites(in schema: OrderedJSON, at path: [OrderedJSON.PathStep], display: String) -> [SchemaFieldSite] {
        var found: [SchemaFieldSite] = []
        collect(schema, path: path, display: display, into: &found)
        return found
    }

    private static func collect(_ schema: OrderedJSON, path: [OrderedJSON.PathStep], display: String, into found: inout [SchemaFieldSite]) {
        guard case .object = schema else { return }
        if let properties = schema["properties"]?.members {
            let required = Set((schema["required"]?.elements ?? []).compactMap(\.stringValue))
            let ordered = Set((schema["x-order"]?.elements ?? []).compactMap(\.stringValue))
            for member in properties {
                let childPath = path + [.key("properties"), .key(member.key)]
                let childDisplay = display.isEmpty ? member.key : display + "." + member.key
                found.append(
                    SchemaFieldSite(
                        display: childDisplay, kind: .property, path: childPath, propertyName: member.key,
                        ownerPath: path, description: member.value["description"]?.stringValue, schema: member.value,
                        listings: (required.contains(member.key) ? 1 : 0) + (ordered.contains(member.key) ? 1 : 0)))
                collect(member.value, path: childPath, display: childDisplay, into: &found)
            }
        }
        if let items = schema["items"], case .object = items {
            collect(items, path: path + [.key("items")], display: (display.isEmpty ? "items" : display) + "[]", into: &found)
        }
        for keyword in ["anyOf", "oneOf", "allOf"] {
            for (position, alternative) in (schema[keyword]?.elements ?? []).enumerated() {
                collect(alternative, path: path + [.key(keyword), .index(position)], display: display + "|\(position)", into: &found)
            }
        }
        for keyword in ["$defs", "definitions"] {
            for member in schema[keyword]?.members ?? [] {
                let defPath = path + [.key(keyword), .key(member.key)]
                if let description = member.value["description"]?.stringValue {
                    found.append(SchemaFieldSite(display: member.key, kind: .type, path: defPath, propertyName: nil, ownerPath: path, description: description))
                }
                collect(member.value, path: defPath, display: member.key, into: &found)
            }
        }
    }

    /// `schema` without any `description` keyword, leaving properties that are
    /// *named* "description" alone.
    static func strippingDescriptions(_ schema: OrderedJSON) -> OrderedJSON {
        guard case let .object(members) = schema else { return schema }
        var kept: [JSONMember] = []
        for member in members where member.key != "description" {
            var value = member.value
            switch member.key {
            case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas":
                if case let .object(children) = value {
                    value = .object(children.map { JSONMember($0.key, strippingDescriptions($0.value)) })
                }
            case "anyOf", "oneOf", "allOf", "prefixItems":
                if case let .array(elements) = value { value = .array(elements.map(strippingDescriptions)) }
            case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames":
                value = strippingDescriptions(value)
            default:
                break
            }
            kept.append(JSONMember(member.key, value))
        }
        return .object(kept)
    }
}
