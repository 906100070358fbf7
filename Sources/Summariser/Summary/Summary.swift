import Foundation
import ContextKit
import ContextKitJSON

/// A short summary of a piece of text: a headline and a few points. The same
/// type the field notes measured on Apple's model (a headline of at most
/// eight words, three points of one short sentence each).
public struct Summary: Equatable, Sendable, Codable {
    /// A headline (the schema asks for at most eight words).
    public var headline: String
    /// The points, one short sentence each (the schema asks for `pointCount`).
    public var points: [String]

    /// A summary from its parts.
    public init(headline: String, points: [String]) {
        self.headline = headline
        self.points = points
    }

    /// The summary as text: the headline, then one `- point` line each, as
    /// the CLI prints it.
    public var text: String {
        ([headline] + points.map { "- " + $0 }).joined(separator: "\n")
    }

    /// The summary as a Markdown section (`# headline`, then the points as a
    /// list): how a reduce step sends it, so each summary is a section the
    /// planner keeps whole and its headline reads as a title, not a point.
    public var markdown: String {
        "# " + headline + (points.isEmpty ? "" : "\n\n" + points.map { "- " + $0 }.joined(separator: "\n"))
    }

    /// Points are requested in this number.
    public static let pointCount = 3

    /// The output schema: the field notes' `Summary` as JSON Schema, with
    /// length limits so a small model cannot ramble until its token limit
    /// cuts the JSON off.
    public static let schema = OutputSchema(
        name: "Summary",
        schema: .object([
            JSONMember("type", .string("object")),
            JSONMember("description", .string("A short summary of a piece of text")),
            JSONMember(
                "properties",
                .object([
                    JSONMember(
                        "headline",
                        .object([
                            JSONMember("type", .string("string")),
                            JSONMember("description", .string("A headline of at most eight words")),
                            JSONMember("maxLength", .number("80"))
                        ])),
                    JSONMember(
                        "points",
                        .object([
                            JSONMember("type", .string("array")),
                            JSONMember("description", .string("The main points, one short sentence each")),
                            JSONMember(
                                "items",
                                .object([
                                    JSONMember("type", .string("string")),
                                    JSONMember("maxLength", .number("160"))
                                ])),
                            JSONMember("minItems", .number(String(pointCount))),
                            JSONMember("maxItems", .number(String(pointCount)))
                        ]))
                ])),
            JSONMember("required", .array([.string("headline"), .string("points")])),
            JSONMember("additionalProperties", .bool(false))
        ]))

    /// The summary as the schema's JSON.
    public var json: String {
        JSONWriter(style: .compact(escapingSlashes: false)).write(
            .object([
                JSONMember("headline", .string(headline)),
                JSONMember("points", .array(points.map { .string($0) }))
            ]))
    }

    /// Reads a model's answer: the schema's JSON (also inside a Markdown code
    /// fence or after a preamble), or, from a backend that ignored the
    /// schema, prose whose first line is the headline and whose other lines
    /// are points.
    ///
    /// - Throws: `GenerationError.decodingFailure` when the answer is empty,
    ///   is JSON with neither headline nor points, or is JSON cut off.
    public static func decode(_ answer: String) throws(GenerationError) -> Summary {
        let trimmed = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        // Foundation's parser, not ContextKitJSON's strict one: a model's
        // answer is read as leniently as it can be, and small models write
        // trailing commas (`"points": ["a", "b",]`), which Foundation takes.
        if let open = trimmed.firstIndex(of: "{"), let close = trimmed.lastIndex(of: "}"), open < close,
            let object = try? JSONSerialization.jsonObject(with: Data(trimmed[open...close].utf8)) as? [String: Any]
        {
            let headline = clean(object["headline"] as? String ?? "")
            let rawPoints: [Any] = object["points"] as? [Any] ?? (object["points"] as? String).map { [$0] } ?? []
            let points = rawPoints.compactMap { $0 as? String }.map(clean).filter { !$0.isEmpty }
            guard !headline.isEmpty || !points.isEmpty else {
                throw .decodingFailure("the JSON answer has no headline and no points: \(trimmed.prefix(200))")
            }
            return Summary(headline: headline.isEmpty ? points[0] : headline, points: points)
        }
        if trimmed.hasPrefix("{") {
            throw .decodingFailure("the JSON answer is incomplete or malformed: \(trimmed.prefix(200))")
        }
        let lines = trimmed.split(whereSeparator: \.isNewline).map { clean(String($0)) }.filter { !$0.isEmpty }
        guard let first = lines.first else { throw .decodingFailure("the answer is empty") }
        return Summary(headline: first, points: Array(lines.dropFirst()))
    }

    /// Without list markers, heading marks, labels and surrounding whitespace.
    private static func clean(_ line: String) -> String {
        var s = Substring(line.trimmingCharacters(in: .whitespaces))
        while let first = s.first, "#-*•".contains(first) { s = s.dropFirst().drop(while: \.isWhitespace) }
        if let match = s.prefixMatch(of: /\d{1,2}[.)]\s+/) { s = s[match.range.upperBound...] }
        for label in ["Headline:", "headline:", "Summary:", "Points:"] where s.hasPrefix(label) {
            s = s.dropFirst(label.count).drop(while: \.isWhitespace)
        }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
