import ContextKitJSON

/// Counts a tool list with the OpenAI Cookbook's published method (see
/// `OpenAIToolConstants` for the source and the method restated). The text
/// lines are counted with the model's tokenizer; the constants are the framing.
struct OpenAIToolCount {
    /// The model's token count of a text.
    let count: (String) -> Int
    let constants: OpenAIToolConstants

    func price(_ entries: [SchemaDocument.Entry]) -> SchemaCost.Priced {
        var lines: [String] = []
        var text = 0
        var bareText = 0
        var framing = 0
        var fields: [SchemaCostReport.Field] = []
        for entry in entries {
            let name = entry.name ?? ""
            let description = Self.trimmedDescription(entry.description)
            let line = name + ":" + description
            let bareLine = name + ":"
            let properties = entry.schema["properties"]?.members ?? []
            var functionFraming = constants.functionStart
            if !properties.isEmpty { functionFraming += constants.propertiesStart }
            let lineTokens = count(line)
            lines.append(line)
            text += lineTokens
            bareText += count(bareLine)
            framing += functionFraming
            fields.append(
                SchemaCostReport.Field(
                    path: name, kind: .function, tokens: functionFraming + lineTokens,
                    descriptionTokens: lineTokens - count(bareLine), description: entry.description))
            for property in properties {
                let schema = SchemaReferences.target(of: property.value, in: entry.schema)
                let type = Self.typeText(schema["type"])
                let propertyDescription = Self.trimmedDescription(property.value["description"]?.stringValue ?? schema["description"]?.stringValue)
                let propertyLine = "\(property.key):\(type):\(propertyDescription)"
                let bare = "\(property.key):\(type):"
                var propertyFraming = constants.propertyKey
                var enumText = 0
                if let values = schema["enum"]?.elements {
                    propertyFraming += constants.enumStart + constants.enumItem * values.count
                    for value in values {
                        let valueText = value.stringValue ?? JSONWriter(style: .compact(escapingSlashes: false)).write(value)
                        lines.append(valueText)
                        enumText += count(valueText)
                    }
                }
                let propertyTokens = count(propertyLine)
                let bareTokens = count(bare)
                lines.append(propertyLine)
                text += propertyTokens + enumText
                bareText += bareTokens + enumText
                framing += propertyFraming
                fields.append(
                    SchemaCostReport.Field(
                        path: name + "." + property.key, kind: .property, tokens: propertyFraming + propertyTokens + enumText,
                        descriptionTokens: propertyTokens - bareTokens, description: property.value["description"]?.stringValue))
            }
        }
        if !entries.isEmpty { framing += constants.listEnd }
        return SchemaCost.Priced(text: lines.joined(separator: "\n"), rawSchema: text, schema: text, framing: framing, fields: fields, withoutDescriptions: bareText)
    }

    /// What the published method leaves out for these tools.
    func notes(for entries: [SchemaDocument.Entry]) -> [String] {
        var notes: [String] = []
        for entry in entries {
            for property in entry.schema["properties"]?.members ?? [] {
                let schema = SchemaReferences.target(of: property.value, in: entry.schema)
                let where_ = "\(entry.name ?? "?").\(property.key)"
                if schema["properties"] != nil || schema["items"]?["properties"] != nil {
                    notes.append("\(where_) has nested properties, which the published method does not count: the total is a lower bound")
                }
                if schema["type"] == nil {
                    notes.append("\(where_) has no \"type\"; the published method assumes one, counted with an empty type")
                }
            }
        }
        return notes
    }

    /// The cookbook drops one trailing period from each description.
    static func trimmedDescription(_ description: String?) -> String {
        guard var description else { return "" }
        if description.hasSuffix(".") { description.removeLast() }
        return description
    }

    /// `"string"` as `string`; a type list as Python prints it (`['string', 'null']`),
    /// which is what the method's f-string produces.
    static func typeText(_ type: OrderedJSON?) -> String {
        switch type {
        case let .string(name)?: return name
        case let .array(names)?: return "[" + names.map { "'\($0.stringValue ?? "")'" }.joined(separator: ", ") + "]"
        default: return ""
        }
    }
}
