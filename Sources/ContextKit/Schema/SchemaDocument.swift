import ContextKitJSON

/// A schema file read and classified: one entry for an output schema, one per
/// function for a tool list, every `$ref` checked.
public struct SchemaDocument: Sendable, Equatable {
    /// One schema the model is given.
    public struct Entry: Sendable, Equatable {
        /// The type's title, the response format's `name` or the function's `name`.
        public var name: String?
        /// The function's or response format's own description (a schema's
        /// top-level description stays inside `schema`).
        public var description: String?
        /// The JSON Schema itself (for a tool, its `parameters`).
        public var schema: OrderedJSON
        /// For a tool: the `function` object as written (name, description, parameters).
        public var function: OrderedJSON?

        /// An entry from its parts.
        public init(name: String? = nil, description: String? = nil, schema: OrderedJSON, function: OrderedJSON? = nil) {
            self.name = name
            self.description = description
            self.schema = schema
            self.function = function
        }
    }

    /// What kind of document it is.
    public let format: SchemaFormat
    /// One entry for an output schema, one per function for a tool list.
    public let entries: [Entry]
    /// Things the reader noticed that a user should know (e.g. a guess it had to make).
    public let notes: [String]

    /// A document from entries already classified; nothing is checked.
    public init(format: SchemaFormat, entries: [Entry], notes: [String] = []) {
        self.format = format
        self.entries = entries
        self.notes = notes
    }

    /// Reads a file's contents. The format is taken from `format`, else from a
    /// `.swift` file name, else detected from the content.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - fileName: the file's name, whose `.swift` ending tells Swift
    ///     source; nil for none.
    ///   - format: the document's format; nil takes it from `fileName` or the content.
    ///   - typeName: for Swift source, the `@Generable` type the
    ///     schema is for (by default the first one no other type refers to).
    /// - Throws: `SchemaError`: `.invalidJSON` with the line and column, a
    ///   reference that cannot be resolved, a document that is not a schema of
    ///   its format, or Swift the reader does not model.
    ///
    /// A Swift file that declares `Tool`s gives its tools here; `loadAll` gives
    /// its response schema as well.
    public static func load(_ text: String, fileName: String? = nil, format: SchemaFormat? = nil, typeName: String? = nil) throws(SchemaError) -> SchemaDocument {
        try loadAll(text, fileName: fileName, format: format, typeName: typeName)[0]
    }

    /// Everything a file gives a session: for Swift source, one document for
    /// its `Tool`s (when it declares any) and one for its response schema
    /// (a `@Generable` type no tool uses, or `typeName`); for JSON, the one
    /// document `load` reads. Never empty.
    ///
    /// - Throws: what `load` throws; for a tool, `SchemaError.invalidTool`
    ///   with the line and column of the part that cannot be read.
    public static func loadAll(_ text: String, fileName: String? = nil, format: SchemaFormat? = nil, typeName: String? = nil) throws(SchemaError) -> [SchemaDocument] {
        let chosen = format ?? (looksLikeSwift(text, fileName: fileName) ? .swift : nil)
        if chosen == .swift {
            return try SwiftSchemaSource.documents(text, typeName: typeName)
        }
        let json: OrderedJSON
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw .invalidJSON(error)
        }
        return [try SchemaDocument(json: json, format: chosen)]
    }

    /// Classifies parsed JSON (or checks that it fits `format`) and validates its references.
    ///
    /// - Throws: `SchemaError.notASchema`, `.danglingReference`,
    ///   `.cyclicReference` or `.externalReference`.
    public init(json: OrderedJSON, format: SchemaFormat? = nil, notes: [String] = []) throws(SchemaError) {
        let format = format ?? Self.detectFormat(of: json)
        var notes = notes
        let entries: [Entry]
        switch format {
        case .generationSchema, .jsonSchema, .swift:
            guard case .object = json else {
                throw .notASchema(reason: "a JSON Schema must be an object, this file holds \(json.kindName)")
            }
            try SchemaShape.validate(json)
            try SchemaReferences.validate(json)
            entries = [Entry(name: json["title"]?.stringValue, schema: json)]
            if format == .generationSchema, json["x-order"] == nil {
                notes.append("no top-level x-order: Apple's encoder writes one for every object type, so the real prompt may be a few tokens longer")
            }
        case .responseFormat:
            entries = [try Self.responseFormatEntry(json)]
        case .tools:
            entries = try Self.toolEntries(json)
        }
        self.init(format: format, entries: entries, notes: notes)
    }

    /// True when the entries are tools the model may call (an OpenAI tool list,
    /// or `Tool`s read from Swift) rather than the shape of its answer.
    public var isToolList: Bool { format.isToolList || entries.contains { $0.function != nil } }

    /// The format a JSON value most likely is.
    public static func detectFormat(of json: OrderedJSON) -> SchemaFormat {
        switch json {
        case .array:
            return .tools
        case .object:
            if json["type"]?.stringValue == "json_schema", json["json_schema"] != nil { return .responseFormat }
            if json["type"]?.stringValue == "function", json["function"] != nil { return .tools }
            if json["name"]?.stringValue != nil, json["parameters"] != nil, json["properties"] == nil { return .tools }
            // A tool written as one JSON Schema with its name and description
            // beside the schema keywords, or with its schema under "input_schema".
            if json["name"]?.stringValue != nil, json["input_schema"] != nil || (json["description"]?.stringValue != nil && json["properties"] != nil) {
                return .tools
            }
            // A whole request body: its tool list.
            if json["properties"] == nil, (json["tools"] ?? json["functions"])?.elements != nil { return .tools }
            return containsXOrder(json) ? .generationSchema : .jsonSchema
        default:
            return .jsonSchema
        }
    }

    private static func containsXOrder(_ value: OrderedJSON) -> Bool {
        switch value {
        case let .object(members):
            return members.contains { $0.key == "x-order" || containsXOrder($0.value) }
        case let .array(elements):
            return elements.contains(where: containsXOrder)
        default:
            return false
        }
    }

    private static func looksLikeSwift(_ text: String, fileName: String?) -> Bool {
        if let fileName, fileName.lowercased().hasSuffix(".swift") { return true }
        guard let first = text.unicodeScalars.first(where: { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }) else { return false }
        if first == "{" || first == "[" { return false }
        return text.contains("@Generable") || text.contains(": Tool")
    }

    private static func responseFormatEntry(_ json: OrderedJSON) throws(SchemaError) -> Entry {
        guard let wrapper = json["json_schema"], case .object = wrapper else {
            throw .notASchema(reason: "a response_format needs \"json_schema\": {\"name\": ..., \"schema\": {...}} (and \"type\": \"json_schema\")")
        }
        guard let schema = wrapper["schema"], case .object = schema else {
            throw .notASchema(reason: "response_format.json_schema has no \"schema\" object")
        }
        try SchemaShape.validate(schema, label: "#/json_schema/schema")
        try SchemaReferences.validate(schema, label: "#/json_schema/schema")
        return Entry(name: wrapper["name"]?.stringValue, description: wrapper["description"]?.stringValue, schema: schema)
    }

    private static func toolEntries(_ json: OrderedJSON) throws(SchemaError) -> [Entry] {
        let items: [OrderedJSON]
        switch json {
        case let .array(elements): items = elements
        case let .object(members) where members.contains(where: { $0.key == "tools" || $0.key == "functions" }):
            items = (json["tools"] ?? json["functions"])?.elements ?? []
        case .object: items = [json]
        default: throw .notASchema(reason: "a tool list must be an array of tool definitions, this file holds \(json.kindName)")
        }
        if items.isEmpty { throw .notASchema(reason: "the tool list is empty") }
        var entries: [Entry] = []
        for (position, item) in items.enumerated() {
            let function = item["type"]?.stringValue == "function" ? item["function"] : item
            guard let function, case .object = function, let name = function["name"]?.stringValue else {
                throw .notASchema(
                    reason: "tool \(position) has no function name; expected {\"type\":\"function\",\"function\":{\"name\":...,\"description\":...,\"parameters\":{...}}}")
            }
            var sent = function
            var parameters = function["parameters"] ?? .object([JSONMember("type", .string("object")), JSONMember("properties", .object([]))])
            if function["parameters"] == nil,
                let schema = function["input_schema"] ?? (function["properties"] != nil ? function.removing(key: "name").removing(key: "description") : nil)
            {
                // The schema stands beside the name (or under "input_schema"): sent as a function is.
                parameters = schema
                var members = [JSONMember("name", .string(name))]
                if let description = function["description"] { members.append(JSONMember("description", description)) }
                members.append(JSONMember("parameters", schema))
                sent = .object(members)
            }
            guard case .object = parameters else {
                throw .notASchema(reason: "the parameters of tool \(name) must be a JSON Schema object, not \(parameters.kindName)")
            }
            try SchemaShape.validate(parameters, label: "tool \(name): #/parameters", requireKeyword: false)
            try SchemaReferences.validate(parameters, label: "tool \(name): #/parameters")
            entries.append(Entry(name: name, description: function["description"]?.stringValue, schema: parameters, function: sent))
        }
        return entries
    }
}
