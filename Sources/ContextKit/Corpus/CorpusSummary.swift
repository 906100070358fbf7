import ContextKitJSON

/// What a dataset's records add up to, in a form that merges exactly:
/// partial summaries from any number of workers, merged in any order, equal
/// the summary one process makes of the whole dataset.
///
/// Every field is a sum, a histogram with fixed edges (sums bucket by
/// bucket), or the longest records under a total order (tokens, then the
/// id's JSON text), whose top entries of the parts contain the top of the whole.
public struct CorpusSummary: Equatable, Sendable {
    /// What the counts were made with; only summaries made the same way merge.
    public struct Settings: Equatable, Sendable {
        /// The model profile's name.
        public var profile: String
        /// The tokenizer that counted.
        public var tokenizer: String
        /// Whether the token counts are estimates (the profile's model has no public tokenizer).
        public var estimated: Bool
        /// Tokens a record may have and still fit (the window less overheads and reserve).
        public var available: Int

        /// Settings with these values.
        public init(profile: String, tokenizer: String, estimated: Bool, available: Int) {
            self.profile = profile
            self.tokenizer = tokenizer
            self.estimated = estimated
            self.available = available
        }
    }

    /// One of the longest records.
    public struct LongRecord: Equatable, Sendable {
        /// Its id (null when the record has none).
        public var id: OrderedJSON
        /// Its tokens.
        public var tokens: Int

        /// A record with this id and length.
        public init(id: OrderedJSON, tokens: Int) {
            self.id = id
            self.tokens = tokens
        }

        /// The id as compact JSON: the tie-break between records of equal length.
        var key: String { JSONWriter(style: .compact(escapingSlashes: false)).write(id) }

        /// The order of `longest`: more tokens first, then by id.
        static func precedes(_ a: LongRecord, _ b: LongRecord) -> Bool {
            a.tokens != b.tokens ? a.tokens > b.tokens : a.key < b.key
        }
    }

    /// How many of the longest records a summary keeps.
    public static let longestKept = 10
    /// The `format` of the summary line; a different one is refused rather than misread.
    public static let formatVersion = 1

    /// What the counts were made with.
    public var settings: Settings
    /// Records counted.
    public var records = 0
    /// Records that could not be counted (malformed, missing or non-string text, too long).
    public var failed = 0
    /// Tokens of the counted records.
    public var tokens = 0
    /// Characters (Unicode scalars) of the counted records' texts.
    public var characters = 0
    /// UTF-8 bytes of the counted records' texts.
    public var bytes = 0
    /// Counted records that fit the window on their own.
    public var fitting = 0
    /// Counted records by token length.
    public var histogram = TokenHistogram()
    /// The longest records, longest first (at most `longestKept`).
    public private(set) var longest: [LongRecord] = []

    /// An empty summary for counts made with `settings`.
    public init(settings: Settings) {
        self.settings = settings
    }

    /// Adds one counted record.
    public mutating func add(tokens: Int, characters: Int, bytes: Int, fits: Bool, id: OrderedJSON?) {
        records += 1
        self.tokens += tokens
        self.characters += characters
        self.bytes += bytes
        if fits { fitting += 1 }
        histogram.add(tokens: tokens)
        keep([LongRecord(id: id ?? .null, tokens: tokens)])
    }

    /// Adds one record's result, counted or failed.
    package mutating func add(_ result: RecordResult) {
        switch result.outcome {
        case .success(let c): add(tokens: c.tokens, characters: c.characters, bytes: c.bytes, fits: c.fits, id: result.id)
        case .failure: failed += 1
        }
    }

    private mutating func keep(_ candidates: [LongRecord]) {
        for candidate in candidates {
            if longest.count == Self.longestKept, let last = longest.last, !LongRecord.precedes(candidate, last) { continue }
            let at = longest.firstIndex { LongRecord.precedes(candidate, $0) } ?? longest.count
            longest.insert(candidate, at: at)
            if longest.count > Self.longestKept { longest.removeLast() }
        }
    }

    /// Adds another part's summary.
    ///
    /// - Throws: `CorpusSummaryError` when the two were made with different
    ///   settings, or a sum would pass `Int.max`; `self` is then unchanged.
    public mutating func merge(_ other: CorpusSummary) throws(CorpusSummaryError) {
        guard other.settings == settings else {
            throw CorpusSummaryError(
                "made with other settings (\(Self.describe(other.settings)), not \(Self.describe(settings))); "
                    + "merge only summaries counted with the same -m/-e, --window and --reserve")
        }
        // Checked, and into a copy: a part whose counts would pass Int.max
        // is refused whole, leaving the sum of the parts before it.
        var sum = self
        sum.records = try Self.add(records, other.records, "records")
        sum.failed = try Self.add(failed, other.failed, "failed")
        sum.tokens = try Self.add(tokens, other.tokens, "tokens")
        sum.characters = try Self.add(characters, other.characters, "characters")
        sum.bytes = try Self.add(bytes, other.bytes, "bytes")
        sum.fitting = try Self.add(fitting, other.fitting, "fitting")
        guard sum.histogram.merge(other.histogram) else {
            throw CorpusSummaryError(
                "\"histogram\": a bucket's count added to the buckets before passes \(Int.max); "
                    + "the summary lines cannot all be true, make them again with tokcount --jsonl --summary")
        }
        sum.keep(other.longest)
        self = sum
    }

    private static func add(_ a: Int, _ b: Int, _ field: String) throws(CorpusSummaryError) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        guard !overflow else {
            throw CorpusSummaryError(
                "\"\(field)\": \(b) added to the \(a) before passes \(Int.max); "
                    + "the summary lines cannot all be true, make them again with tokcount --jsonl --summary")
        }
        return total
    }

    /// Refuses a summary that contradicts itself, so a damaged or hand-made
    /// line cannot pass into a total as if it were counted.
    private func checkConsistency() throws(CorpusSummaryError) {
        func refuse(_ what: String) -> CorpusSummaryError {
            CorpusSummaryError("the summary contradicts itself: \(what); make it again with tokcount --jsonl --summary")
        }
        // Each bucket bounds the lengths of its records: edges[i] up to
        // edges[i + 1] - 1. Bounds past Int.max stay at Int.max.
        func plus(_ sum: Int, _ count: Int, times length: Int) -> Int {
            let (product, o1) = count.multipliedReportingOverflow(by: length)
            let (total, o2) = sum.addingReportingOverflow(product)
            return o1 || o2 ? Int.max : total
        }
        var inHistogram = 0, fewest = 0, most = 0, unbounded = false
        for (i, count) in histogram.counts.enumerated() {
            let (total, overflow) = inHistogram.addingReportingOverflow(count)
            guard !overflow else { throw refuse("the histogram's counts add up to more than \(Int.max)") }
            inHistogram = total
            fewest = plus(fewest, count, times: TokenHistogram.edges[i])
            if i + 1 < TokenHistogram.edges.count {
                most = plus(most, count, times: TokenHistogram.edges[i + 1] - 1)
            } else if count > 0 {
                unbounded = true
            }
        }
        guard inHistogram == records else {
            throw refuse("\"records\" is \(records) but the histogram's counts add up to \(inHistogram)")
        }
        guard fitting <= records else { throw refuse("\"fitting\" is \(fitting), more than its \(records) records") }
        guard tokens >= fewest else {
            throw refuse("\"tokens\" is \(tokens), fewer than the \(fewest) its histogram's buckets hold at least")
        }
        guard unbounded || tokens <= most else {
            throw refuse("\"tokens\" is \(tokens), more than the \(most) its histogram's buckets hold at most")
        }
        // A character is 1 to 4 UTF-8 bytes.
        guard bytes >= characters, characters.multipliedReportingOverflow(by: 4).overflow || bytes <= characters * 4 else {
            throw refuse("\(bytes) bytes cannot hold \(characters) characters (a character is 1 to 4 bytes)")
        }
        guard longest.count <= records else {
            throw refuse("\"longest\" lists \(longest.count) records, more than its \(records)")
        }
        if let first = longest.first, first.tokens > tokens {
            throw refuse("its longest record has \(first.tokens) tokens, more than all its records' \(tokens)")
        }
    }

    private static func describe(_ s: Settings) -> String {
        "profile \(s.profile), tokenizer \(s.tokenizer)\(s.estimated ? " (estimated)" : ""), \(s.available) tokens available"
    }

    /// The summary as one JSON object (what `tokcount --jsonl --summary` prints on one line).
    public var json: OrderedJSON {
        .object([
            JSONMember("format", .string("tokcount-summary")),
            JSONMember("version", .int(Self.formatVersion)),
            JSONMember("profile", .string(settings.profile)),
            JSONMember("tokenizer", .string(settings.tokenizer)),
            JSONMember("estimated", .bool(settings.estimated)),
            JSONMember("available", .int(settings.available)),
            JSONMember("records", .int(records)),
            JSONMember("failed", .int(failed)),
            JSONMember("tokens", .int(tokens)),
            JSONMember("characters", .int(characters)),
            JSONMember("bytes", .int(bytes)),
            JSONMember("fitting", .int(fitting)),
            JSONMember(
                "histogram",
                .object([
                    JSONMember("edges", .array(TokenHistogram.edges.map { .int($0) })),
                    JSONMember("counts", .array(histogram.counts.map { .int($0) }))
                ])),
            JSONMember("longest", .array(longest.map { .object([JSONMember("id", $0.id), JSONMember("tokens", .int($0.tokens))]) }))
        ])
    }

    /// The summary `json` describes.
    ///
    /// - Throws: `CorpusSummaryError` naming the field that is missing or
    ///   wrong, or what the summary contradicts itself in (records and the
    ///   histogram's total, tokens and the histogram's bounds, bytes and characters).
    public init(json: OrderedJSON) throws(CorpusSummaryError) {
        guard case .object = json else { throw CorpusSummaryError("\(json.kindName), not a summary object") }
        guard json["format"]?.stringValue == "tokcount-summary" else {
            throw CorpusSummaryError("not a tokcount summary (no \"format\": \"tokcount-summary\"); make one with tokcount --jsonl --summary")
        }
        guard json["version"]?.intValue == Self.formatVersion else {
            throw CorpusSummaryError(
                "summary version \(json["version"].map { JSONWriter(style: .compact(escapingSlashes: false)).write($0) } ?? "missing"), "
                    + "this tokcount reads version \(Self.formatVersion); merge with the tokcount that made it")
        }
        func count(_ key: String, in object: OrderedJSON = json) throws(CorpusSummaryError) -> Int {
            guard let value = object[key]?.intValue, value >= 0 else { throw CorpusSummaryError("\"\(key)\" is missing or not a whole number of at least 0") }
            return value
        }
        guard let profile = json["profile"]?.stringValue, let tokenizer = json["tokenizer"]?.stringValue,
            let estimated = json["estimated"]?.boolValue
        else {
            throw CorpusSummaryError("\"profile\", \"tokenizer\" or \"estimated\" is missing or of the wrong type")
        }
        self.init(settings: Settings(profile: profile, tokenizer: tokenizer, estimated: estimated, available: try count("available")))
        records = try count("records")
        failed = try count("failed")
        tokens = try count("tokens")
        characters = try count("characters")
        bytes = try count("bytes")
        fitting = try count("fitting")
        guard let histogramJSON = json["histogram"], let edges = histogramJSON["edges"]?.elements?.map(\.intValue),
            let counts = histogramJSON["counts"]?.elements?.map(\.intValue)
        else {
            throw CorpusSummaryError("\"histogram\" must hold \"edges\" and \"counts\" arrays")
        }
        guard edges == TokenHistogram.edges else {
            throw CorpusSummaryError("the histogram has other bucket edges than this tokcount's; merge with the tokcount that made it")
        }
        guard let parsed = TokenHistogram(counts: counts.compactMap { $0 }), !counts.contains(nil) else {
            throw CorpusSummaryError("\"histogram\".\"counts\" must be \(TokenHistogram.edges.count) whole numbers of at least 0")
        }
        histogram = parsed
        guard let entries = json["longest"]?.elements else { throw CorpusSummaryError("\"longest\" is missing or not an array") }
        var kept: [LongRecord] = []
        for entry in entries {
            guard let id = entry["id"] else { throw CorpusSummaryError("an entry of \"longest\" has no \"id\"") }
            kept.append(LongRecord(id: id, tokens: try count("tokens", in: entry)))
        }
        keep(kept)
        try checkConsistency()
    }
}

/// Why a summary line cannot be read or merged.
public struct CorpusSummaryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what to do.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
