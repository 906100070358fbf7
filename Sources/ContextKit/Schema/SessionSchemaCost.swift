/// What one session's fixed definitions cost a model: each tool, the
/// response schema, and their total, with the what-ifs that are true for them
/// (drop a tool, drop the descriptions; leaving the schema out of the prompt
/// only for the response schema, where the runtime has that switch).
///
/// Every tool definition is sent with every request of the session (Apple:
/// "each tool's name, description and argument schema" count against the
/// window), so this is a cost per request, not per session.
public struct SessionSchemaCost: Sendable {
    /// One tool, priced inside the session's tool list.
    public struct Tool: Equatable, Sendable {
        /// The name the model sees.
        public var name: String
        /// Where it was read from (a file name, or what the caller passed).
        public var source: String
        /// Tokens saved by dropping this tool from the list (framing included).
        public var tokens: Int
    }

    /// The response schema of the session's requests.
    public struct ResponseSchema: Sendable {
        /// Its type's or format's name, when it has one.
        public var name: String?
        /// Where it was read from.
        public var source: String
        /// Its pricing on its own, what-ifs included.
        public var report: SchemaCostReport
    }

    /// The profile it was priced for.
    public var profileName: String
    /// How counts were made (`cl100k_base, exact`, or the estimate's method and error bar).
    public var method: String
    /// The estimate's relative error bar; nil when counts are exact.
    public var relativeError: Double?
    /// The model's context window.
    public var contextWindow: Int
    /// Each tool, in the order given.
    public var tools: [Tool]
    /// All tools together as the runtime sends them, framing included (not the
    /// sum of `tools`: OpenAI's list has a fixed end, and BPE is not additive).
    public var toolsTokens: Int
    /// Framing among `toolsTokens`.
    public var toolFramingTokens: Int
    /// Where the framing figure comes from (a measurement, a published formula, or the analogue assumed).
    public var toolFramingSource: String
    /// The tool list with every description removed (tools' own and their parameters').
    public var toolsWithoutDescriptions: Int
    /// The response schema counted in the total (the dearest one given); nil for none.
    public var responseSchema: ResponseSchema?
    /// Things a user should know about this pricing.
    public var notes: [String]

    /// Tokens of the response schema (framing included), 0 without one.
    public var responseSchemaTokens: Int { responseSchema?.report.totalTokens ?? 0 }
    /// What the definitions cost every request: tools and response schema.
    public var totalTokens: Int { toolsTokens + responseSchemaTokens }
    /// Framing among `totalTokens` (no error bar applies to it).
    public var framingTokens: Int { toolFramingTokens + (responseSchema?.report.framingTokens ?? 0) }
    /// Whether the counts are estimates.
    public var isEstimate: Bool { relativeError != nil }
    /// The definitions' share of the window, 0...1.
    public var windowShare: Double { contextWindow > 0 ? Double(totalTokens) / Double(contextWindow) : 0 }
}

extension SchemaCost {
    /// Prices the documents of one session together: every tool list's entries
    /// as one list (the runtime sends them together), and the response schema.
    /// When several response schemas are given, the dearest is counted (a
    /// request has one) and the others are named in the notes.
    ///
    /// - Parameter documents: each with where it came from, as `SchemaDocument.loadAll` reads them.
    public func session(_ documents: [(source: String, document: SchemaDocument)]) -> SessionSchemaCost {
        var entries: [SchemaDocument.Entry] = []
        var sources: [String] = []
        var notes: [String] = []
        for (source, document) in documents where document.isToolList {
            entries += document.entries
            sources += Array(repeating: source, count: document.entries.count)
            notes += document.notes
        }
        var toolsTokens = 0, framing = 0, bare = 0
        var framingSource = settings.toolFramingSource
        var tools: [SessionSchemaCost.Tool] = []
        if !entries.isEmpty {
            let list = report(for: SchemaDocument(format: .tools, entries: entries))
            toolsTokens = list.totalTokens
            framing = list.framingTokens
            bare = list.withoutDescriptions.totalTokens
            framingSource = list.framingSource
            notes += list.notes
            // Each tool is priced on its own (linear in the list, where recounting
            // the list without each tool would grow with its square). Both tool
            // placements add up per tool, except OpenAI's list end, paid once.
            var listEnd = 0
            if case let .openAIFunctions(constants) = settings.tools, entries.count > 1 { listEnd = constants.listEnd }
            for (position, entry) in entries.enumerated() {
                let alone = report(for: SchemaDocument(format: .tools, entries: [entry])).totalTokens
                tools.append(.init(name: entry.name ?? "tool \(position + 1)", source: sources[position], tokens: alone - listEnd))
            }
            var seen: Set<String> = []
            for name in entries.compactMap(\.name) where !seen.insert(name).inserted {
                notes.append("two tools are named \(name): a session needs each name once")
            }
        }
        let schemas = documents.filter { !$0.document.isToolList }.map { item in
            SessionSchemaCost.ResponseSchema(name: item.document.entries.first?.name, source: item.source, report: report(for: item.document))
        }
        let counted = schemas.max { $0.report.totalTokens < $1.report.totalTokens }
        if schemas.count > 1, let counted {
            let others = schemas.filter { $0.source != counted.source || $0.name != counted.name }
            notes.append(
                "\(schemas.count) response schemas given: a request sends one, so the dearest (\(counted.name ?? counted.source)) is counted; not counted: "
                    + others.map { $0.name ?? $0.source }.joined(separator: ", "))
        }
        if let counted { notes += counted.report.notes }
        var unique: [String] = []
        for note in notes where !unique.contains(note) { unique.append(note) }
        return SessionSchemaCost(
            profileName: settings.profileName, method: settings.method, relativeError: settings.estimate?.errorBar,
            contextWindow: settings.contextWindow, tools: tools, toolsTokens: toolsTokens, toolFramingTokens: framing,
            toolFramingSource: framingSource, toolsWithoutDescriptions: bare, responseSchema: counted, notes: unique)
    }
}

extension TokenBudget {
    /// The budget of every request of a session: the window less its fixed
    /// cost — the profile's per-request overhead, the instructions, the tools'
    /// definitions and the response schema (`session`) — and the reserve; `room`
    /// is then what is left for the prompt (and `reserve` for the answer).
    /// Overheads and the reserve follow `init(profile:instructions:schema:reserve:overlap:window:frame:)`.
    public init(profile: ModelProfile, session: SessionSchemaCost, instructions: Int = 0, reserve: Int? = nil) {
        self.init(profile: profile, instructions: instructions, schema: session.responseSchemaTokens, reserve: reserve)
        tools = session.toolsTokens
    }

    /// A session's budget in one call, from what `schema-cost FILE FILE...`
    /// takes: the session's instructions and the contents of its Swift and JSON
    /// files (tools, response schema), priced for `profile`.
    ///
    ///     let (budget, cost) = try TokenBudget.session(
    ///         profile: try ProfileCatalog.builtIn().profile(named: "apple-on-device"),
    ///         instructions: "You plan trips.",
    ///         files: [("WeatherTool.swift", weatherSource), ("Summary.swift", summarySource)])
    ///     print(budget.fixed, budget.room, cost.tools.map(\.name))
    ///
    /// - Parameters:
    ///   - profile: the model the session talks to.
    ///   - instructions: the session's instructions; empty for none.
    ///   - files: each Swift or JSON file's name and contents.
    ///   - runtime: how the model is served; by default inferred from the profile.
    ///   - reserve: tokens kept for the answer; nil takes the profile's rule.
    /// - Throws: `SchemaError` for a file that cannot be priced (named, with
    ///   the line and column for Swift); what loading the profile's tokenizer throws.
    public static func session(
        profile: ModelProfile, instructions: String = "", files: [(name: String, contents: String)],
        runtime: SchemaRuntime? = nil, reserve: Int? = nil
    ) throws -> (budget: TokenBudget, cost: SessionSchemaCost) {
        let settings = SchemaCostSettings(profile: profile, tokenizer: try profile.tokenizer.load(), runtime: runtime, responseReserve: reserve)
        var documents: [(source: String, document: SchemaDocument)] = []
        for file in files {
            for document in try SchemaDocument.loadAll(file.contents, fileName: file.name) {
                documents.append((file.name, document))
            }
        }
        let cost = SchemaCost(settings: settings).session(documents)
        let instructionsTokens = instructions.isEmpty ? 0 : settings.tokens(instructions)
        return (TokenBudget(profile: profile, session: cost, instructions: instructionsTokens, reserve: reserve), cost)
    }
}
