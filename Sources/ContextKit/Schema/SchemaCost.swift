import ContextKitJSON

/// Prices a schema document for one model: the tokens of the schema as the
/// model sees it, the runtime's framing, a per-field breakdown and what-ifs.
///
/// A field's cost is marginal: the tokens saved by deleting it and recounting
/// the whole text. BPE counts are not additive, so rows do not sum to the
/// total, but each row answers "what does this field cost me".
public struct SchemaCost {
    /// The model's counting, schema placement and budget.
    public let settings: SchemaCostSettings

    /// A pricer for the model `settings` describe.
    public init(settings: SchemaCostSettings) {
        self.settings = settings
    }

    /// Prices `document` for the model: every entry as the runtime sends it,
    /// each field's marginal cost, the what-ifs and the input budget left.
    /// Counts are estimates when the settings' are (`SchemaCostReport.isEstimate`).
    ///
    /// - Parameters:
    ///   - document: the schema document to price.
    ///   - instructionsTokens: tokens of the session's instructions, for the budget.
    public func report(for document: SchemaDocument, instructionsTokens: Int = 0) -> SchemaCostReport {
        let placement = document.isToolList ? settings.tools : settings.outputSchemas
        var notes = document.notes
        if let note = document.isToolList ? settings.toolNote : settings.outputSchemaNote { notes.append(note) }
        let priced: Priced
        switch placement {
        case let .jsonText(style, framing):
            priced = priceJSON(document, writer: JSONWriter(style: style), framing: framing)
        case let .openAIFunctions(constants):
            if document.isToolList {
                let counter = OpenAIToolCount(count: settings.tokens, constants: constants)
                priced = counter.price(document.entries)
                notes += counter.notes(for: document.entries)
            } else {
                priced = priceJSON(document, writer: JSONWriter(style: .compact(escapingSlashes: false)), framing: 0)
            }
        case .decodingOnly:
            priced = Priced(text: "", rawSchema: 0, schema: 0, framing: 0, fields: [], withoutDescriptions: 0)
            notes.append("\(settings.profileName) turns the schema into a decoding grammar; it is not in the prompt and costs no window tokens")
        }
        if priced.locallyPricedFields > 0 {
            notes.append(
                "\(priced.locallyPricedFields) fields in schemas of more than \(Self.recountedFieldLimit) fields: each row counts the field's own text, not a recount of the whole schema without it (that grows with the square of the size); rows may be off by a token or two, totals are exact"
            )
        }
        let schemaTokens = priced.schema
        let total = schemaTokens + priced.framing
        let bareTokens = priced.withoutDescriptions
        let withoutDescriptions = SchemaCostReport.WhatIf(
            schemaTokens: bareTokens, totalTokens: bareTokens + priced.framing, savedTokens: total - (bareTokens + priced.framing))
        var outOfPrompt: SchemaCostReport.WhatIf?
        if settings.canLeaveSchemaOutOfPrompt && !document.isToolList {
            outOfPrompt = SchemaCostReport.WhatIf(
                schemaTokens: 0, totalTokens: 0, savedTokens: total,
                warning:
                    "the output still always parses (decoding stays constrained), but meaning collapses: the model no longer reads the field names or descriptions, and 7 of 8 runs in the field notes had a junk field (empty string, lone comma)"
            )
        }
        let budget = TokenBudget(
            window: settings.contextWindow,
            requestOverhead: ModelProfile.Overheads(perRequest: settings.requestOverhead, perMessage: settings.messageOverhead)
                .request(messages: instructionsTokens > 0 ? 2 : 1),
            instructions: instructionsTokens,
            schema: total, reserve: settings.responseReserve, isEstimate: settings.isEstimate, reserveSource: settings.reserveSource)
        let fields = priced.fields.sorted {
            ($0.tokens, $0.descriptionTokens) > ($1.tokens, $1.descriptionTokens)
        }
        return SchemaCostReport(
            format: document.format, profileName: settings.profileName, method: settings.method,
            relativeError: settings.estimate?.errorBar,
            framingSource: document.isToolList ? settings.toolFramingSource : settings.framingSource,
            schemaText: priced.text, rawSchemaTokens: priced.rawSchema, schemaTokens: schemaTokens,
            framingTokens: priced.framing, totalTokens: total, contextWindow: settings.contextWindow,
            fields: fields, withoutDescriptions: withoutDescriptions, schemaOutOfPrompt: outOfPrompt,
            budget: budget, notes: notes)
    }

    /// The counts of one pricing, in the model's tokens (`rawSchema`: the tokenizer's own count).
    struct Priced {
        var text: String
        var rawSchema: Int
        var schema: Int
        var framing: Int
        var fields: [SchemaCostReport.Field]
        var withoutDescriptions: Int
        /// Fields priced by their own text rather than by a recount (schemas over `recountedFieldLimit` fields).
        var locallyPricedFields = 0
    }

    // MARK: JSON text

    private func priceJSON(_ document: SchemaDocument, writer: JSONWriter, framing: Int) -> Priced {
        var texts: [String] = []
        var raw = 0
        var total = 0
        var bare = 0
        var fields: [SchemaCostReport.Field] = []
        var locallyPriced = 0
        for entry in document.entries {
            // A tool is sent whole (name, description, parameters); an output schema is the schema.
            let sent = entry.function ?? entry.schema
            let schemaPath: [OrderedJSON.PathStep] = entry.function == nil ? [] : [.key("parameters")]
            let text = writer.write(sent)
            let count = settings.tokens(text)
            texts.append(text)
            raw += settings.tokenizer.count(text)
            total += count
            var stripped = sent.updating(at: schemaPath[...]) { SchemaFieldSite.strippingDescriptions($0) } ?? sent
            if entry.function != nil { stripped = stripped.removing(key: "description") }
            bare += settings.tokens(writer.write(stripped))

            let prefix = document.isToolList ? (entry.name ?? "") : ""
            var sites = SchemaFieldSite.sites(in: entry.schema, at: schemaPath, display: prefix)
            if let function = entry.function, let description = function["description"]?.stringValue {
                sites.insert(SchemaFieldSite(display: entry.name ?? "function", kind: .function, path: [], propertyName: nil, ownerPath: [], description: description), at: 0)
            } else if entry.function == nil, let description = entry.schema["description"]?.stringValue {
                sites.insert(SchemaFieldSite(display: entry.name ?? "(root)", kind: .type, path: [], propertyName: nil, ownerPath: [], description: description), at: 0)
            }
            if sites.count <= Self.recountedFieldLimit {
                for site in sites {
                    fields.append(price(site, in: sent, fullCount: count, writer: writer))
                }
            } else {
                fields += sites.map { priceAlone($0, writer: writer) }
                locallyPriced += sites.count
            }
        }
        return Priced(
            text: texts.joined(separator: "\n"), rawSchema: raw, schema: total, framing: framing * document.entries.count, fields: fields, withoutDescriptions: bare,
            locallyPricedFields: locallyPriced)
    }

    /// Up to this many fields per schema, each row is the whole schema
    /// recounted without the field (exact, but time grows with the square of
    /// the schema's size); beyond it each field's own text is counted alone,
    /// so time stays linear (issue 44: 1k / 2k / 4k properties took 1.0 / 4.1 / 16.3 s).
    static let recountedFieldLimit = 64

    /// A field priced by its own text: the property's `"name":{...}` member and
    /// its name in `required`/`x-order`; a description's `"description":"..."` member.
    /// BPE merges across the field's edges are not seen, so a row may be off by a token or two.
    private func priceAlone(_ site: SchemaFieldSite, writer: JSONWriter) -> SchemaCostReport.Field {
        let empty = settings.tokens(writer.write(.object([])))
        func alone(_ key: String, _ value: OrderedJSON) -> Int {
            max(0, settings.tokens(writer.write(.object([JSONMember(key, value)]))) - empty)
        }
        let descriptionTokens = site.description.map { alone("description", .string($0)) } ?? 0
        var tokens = descriptionTokens
        if let name = site.propertyName, let schema = site.schema {
            tokens = alone(name, schema)
            if site.listings > 0 {
                let listed = max(0, settings.tokens(writer.write(.array([.string(name)]))) - settings.tokens(writer.write(.array([]))))
                tokens += listed * site.listings
            }
        }
        return SchemaCostReport.Field(path: site.display, kind: site.kind, tokens: tokens, descriptionTokens: descriptionTokens, description: site.description)
    }

    private func price(_ site: SchemaFieldSite, in sent: OrderedJSON, fullCount: Int, writer: JSONWriter) -> SchemaCostReport.Field {
        func saving(_ edited: OrderedJSON?) -> Int {
            guard let edited else { return fullCount }
            return max(0, fullCount - settings.tokens(writer.write(edited)))
        }
        var descriptionTokens = 0
        if site.description != nil {
            descriptionTokens = saving(sent.updating(at: site.path[...]) { $0.removing(key: "description") })
        }
        var tokens = descriptionTokens
        if let name = site.propertyName {
            tokens = saving(
                sent.updating(at: site.ownerPath[...]) { owner in
                    var owner = owner
                    if let properties = owner["properties"] { owner = owner.setting("properties", to: properties.removing(key: name)) }
                    for list in ["required", "x-order"] {
                        if let names = owner[list]?.elements {
                            owner = owner.setting(list, to: .array(names.filter { $0 != .string(name) }))
                        }
                    }
                    return owner
                })
        }
        return SchemaCostReport.Field(path: site.display, kind: site.kind, tokens: tokens, descriptionTokens: descriptionTokens, description: site.description)
    }
}
