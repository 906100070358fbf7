import Foundation

extension JSONParser {
    /// A `Decodable` value from UTF-8 `bytes`, read by this parser first and
    /// then handed to Foundation's `JSONDecoder`: for types whose API is
    /// `Codable` (model profiles, latency figures). The text is held to this
    /// parser's grammar, and a repeated key gives its last value as
    /// `JSONParser` reads one (as Python's `json` and the servers do), where
    /// Foundation's decoder alone keeps the first.
    ///
    /// - Throws: `JSONParseError` where the text stops being JSON, or the
    ///   decoder's `DecodingError` where the value does not fit `type`.
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let value = try parse(bytes)
        return try JSONDecoder().decode(type, from: Data(JSONWriter(style: .compact(escapingSlashes: false)).utf8(value)))
    }
}
