import ContextKitJSON

/// What came of one JSON Lines record: its count, or why it has none.
package struct RecordResult: Sendable {
    /// The count of a record's text.
    package struct Count: Sendable, Equatable {
        /// Tokens for the profile (estimated when the profile's count is).
        package var tokens: Int
        /// Unicode scalars of the text.
        package var characters: Int
        /// UTF-8 bytes of the text.
        package var bytes: Int
        /// Whether the text fits the profile's window with its request overhead.
        package var fits: Bool
        /// The token ids, when they were asked for.
        package var ids: [Int]?
    }

    /// The record's line in its input, from 1.
    package let line: Int
    /// The record's id, when it has one.
    package let id: OrderedJSON?
    /// The count, or what is wrong with the record.
    package let outcome: Result<Count, RecordError>

    /// The output line (without its line feed): `{"id":…,"tokens":N,…}` for
    /// a counted record, `{"id":…,"line":N,"error":"…"}` for a failed one
    /// (`id` only when known; `file` when the input is a named file).
    package func jsonLine(file: String? = nil) -> String {
        var members: [JSONMember] = []
        switch outcome {
        case .success(let c):
            members.append(JSONMember("id", id ?? .null))
            members += [
                JSONMember("tokens", .int(c.tokens)),
                JSONMember("characters", .int(c.characters)),
                JSONMember("bytes", .int(c.bytes)),
                JSONMember("fits", .bool(c.fits))
            ]
            if let ids = c.ids { members.append(JSONMember("ids", .array(ids.map { .int($0) }))) }
        case .failure(let error):
            if let id { members.append(JSONMember("id", id)) }
            if let file { members.append(JSONMember("file", .string(file))) }
            members += [JSONMember("line", .int(line)), JSONMember("error", .string(error.message))]
        }
        return JSONWriter(style: .compact(escapingSlashes: false)).write(.object(members))
    }
}

/// Why a record has no count, in words that say what to fix.
package struct RecordError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what to do.
    package let message: String
    /// An error saying `message`.
    package init(_ message: String) { self.message = message }
    /// The message.
    package var description: String { message }
}
