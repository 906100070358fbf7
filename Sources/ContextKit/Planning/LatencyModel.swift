import ContextKitJSON
import Foundation
import TokenKit

/// How long model calls take, to turn a plan into an estimated time.
///
/// The defaults are the field notes' figures for Apple's on-device model
/// (iPhone 15 Pro Max, iOS 26, device not simulator): cold first token
/// 1.15 s, warm 0.36–0.40 s (mean 0.383 s), about 340–350 characters per
/// second of output, and first-token times after idle gaps of 0, 5, 15, 30,
/// 60 and 90 s. They are one phone's numbers; once the summariser has run
/// against a real backend it saves what it measured (`save(to:)`), and the
/// planner uses that instead (`load(profile:environment:)`).
///
/// The model does not know how long a model takes to read its prompt (the
/// field notes' first-token times were taken with short prompts), so a plan
/// of long chunks will take somewhat longer than estimated.
public struct LatencyModel: Equatable, Sendable, Codable {
    /// First-token time after a given idle gap.
    public struct IdlePoint: Equatable, Sendable, Codable {
        /// Seconds without a call before this one.
        public var idleSeconds: Double
        /// Seconds from the request to the first token after that gap.
        public var firstTokenSeconds: Double

        /// One point of the curve, in seconds.
        public init(idleSeconds: Double, firstTokenSeconds: Double) {
            self.idleSeconds = idleSeconds
            self.firstTokenSeconds = firstTokenSeconds
        }
    }

    /// Seconds to the first token of the first call of a run (a cold model).
    public var coldFirstToken: Double
    /// Seconds to the first token of a later call, back to back, fresh session each time.
    public var warmFirstToken: Double
    /// Characters of output per second once tokens flow.
    public var outputCharactersPerSecond: Double
    /// First-token time by idle gap before the call, ascending by gap.
    public var idleCurve: [IdlePoint]
    /// Where the figures come from, in words a user can check.
    public var source: String
    /// True when the figures were measured on the user's own backend.
    package var measured: Bool

    /// A model from its figures, all in seconds or characters per second;
    /// `idleCurve` is sorted by gap.
    public init(
        coldFirstToken: Double, warmFirstToken: Double, outputCharactersPerSecond: Double,
        idleCurve: [IdlePoint] = [], source: String, measured: Bool = false
    ) {
        self.coldFirstToken = coldFirstToken
        self.warmFirstToken = warmFirstToken
        self.outputCharactersPerSecond = outputCharactersPerSecond
        self.idleCurve = idleCurve.sorted { $0.idleSeconds < $1.idleSeconds }
        self.source = source
        self.measured = measured
    }

    /// The field notes' figures (Apple's on-device model, one phone).
    public static let fieldNotes = LatencyModel(
        coldFirstToken: 1.15, warmFirstToken: 0.383, outputCharactersPerSecond: 345,
        idleCurve: [
            .init(idleSeconds: 0, firstTokenSeconds: 0.415), .init(idleSeconds: 5, firstTokenSeconds: 0.591),
            .init(idleSeconds: 15, firstTokenSeconds: 0.845), .init(idleSeconds: 30, firstTokenSeconds: 1.013),
            .init(idleSeconds: 60, firstTokenSeconds: 1.140), .init(idleSeconds: 90, firstTokenSeconds: 1.047)
        ],
        source: "field notes: Apple's on-device model on an iPhone 15 Pro Max, iOS 26")

    /// Extra first-token seconds after `idle` seconds without a call: the idle
    /// curve, interpolated, less its back-to-back value (never negative).
    public func idlePenalty(afterIdle idle: Double) -> Double {
        guard let first = idleCurve.first, idle > first.idleSeconds else { return 0 }
        var value = idleCurve.last!.firstTokenSeconds
        for (a, b) in zip(idleCurve, idleCurve.dropFirst()) where idle <= b.idleSeconds {
            let f = (idle - a.idleSeconds) / (b.idleSeconds - a.idleSeconds)
            value = a.firstTokenSeconds + f * (b.firstTokenSeconds - a.firstTokenSeconds)
            break
        }
        return max(0, value - first.firstTokenSeconds)
    }

    /// Estimated seconds for one call producing `outputCharacters` characters:
    /// the cold first-token time, or the warm one plus the idle penalty after
    /// `idle` seconds, then the characters at `outputCharactersPerSecond`.
    public func callSeconds(outputCharacters: Double, cold: Bool, idle: Double = 0) -> Double {
        (cold ? coldFirstToken : warmFirstToken + idlePenalty(afterIdle: idle)) + outputCharacters / outputCharactersPerSecond
    }

    /// Estimated seconds for a map-reduce plan: the levels run one after another; inside
    /// a level, calls run `concurrency` at a time (1 on a phone). The first
    /// call is cold; the others follow after `idleBetweenCalls` seconds.
    /// Each call writes one summary of the plan's expected size, turned into
    /// characters with `charactersPerToken`.
    public func seconds(for plan: MapReducePlan, charactersPerToken: Double, concurrency: Int = 1, idleBetweenCalls: Double = 0) -> Double {
        let characters = Double(plan.summaryTokens) * charactersPerToken
        let warm = callSeconds(outputCharacters: characters, cold: false, idle: idleBetweenCalls)
        var total = 0.0
        for level in plan.levels {
            let rounds = (level.calls.count + max(1, concurrency) - 1) / max(1, concurrency)
            total += Double(rounds) * warm
        }
        if plan.totalCalls > 0 { total += coldFirstToken - (warmFirstToken + idlePenalty(afterIdle: idleBetweenCalls)) }
        return total
    }

    // MARK: Measured figures

    /// Where measured figures for a profile live: `latency/<profile>.json` in
    /// the platform's state folder (on Linux
    /// `${XDG_STATE_HOME:-~/.local/state}/contextkit/latency/<profile>.json`).
    package static func measuredPath(profile: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let safeName = String(profile.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        return StorageFolders.state(environment: environment)?.appendingPathComponent("latency/\(safeName).json").path
    }

    /// The figures measured for `profile` if the summariser saved any, else the field notes'.
    package static func load(profile: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> LatencyModel {
        guard let path = measuredPath(profile: profile, environment: environment),
            let data = FileManager.default.contents(atPath: path),
            let model = try? JSONParser.decode(LatencyModel.self, from: [UInt8](data))
        else { return .fieldNotes }
        return model
    }

    /// Reads figures from a file (`--latency FILE`).
    package static func load(contentsOf url: URL) throws -> LatencyModel {
        try JSONParser.decode(LatencyModel.self, from: [UInt8](Data(contentsOf: url)))
    }

    /// Writes the figures where `load(profile:)` finds them (the summariser
    /// calls this after a run against a real backend), with ContextKitJSON's
    /// writer as `json` lays them out. A figure JSON cannot hold (NaN, an
    /// infinity) throws `EncodingError.invalidValue`, as `JSONEncoder` did,
    /// rather than writing a null the loader would not read back.
    package func save(to path: String) throws {
        let figures = [coldFirstToken, warmFirstToken, outputCharactersPerSecond] + idleCurve.flatMap { [$0.idleSeconds, $0.firstTokenSeconds] }
        if let bad = figures.first(where: { !$0.isFinite }) {
            throw EncodingError.invalidValue(bad, .init(codingPath: [], debugDescription: "latency figure \(bad) is not a JSON number"))
        }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(JSONWriter(style: .pretty).utf8(json) + [0x0A]).write(to: url, options: .atomic)
    }

    /// The figures as `save(to:)` writes them: the members `Codable` reads
    /// back (`JSONParser.decode`), keys in alphabetical order as the file
    /// has always had them.
    var json: OrderedJSON {
        .object([
            JSONMember("coldFirstToken", .double(coldFirstToken)),
            JSONMember(
                "idleCurve",
                .array(
                    idleCurve.map {
                        .object([JSONMember("firstTokenSeconds", .double($0.firstTokenSeconds)), JSONMember("idleSeconds", .double($0.idleSeconds))])
                    })),
            JSONMember("measured", .bool(measured)),
            JSONMember("outputCharactersPerSecond", .double(outputCharactersPerSecond)),
            JSONMember("source", .string(source)),
            JSONMember("warmFirstToken", .double(warmFirstToken))
        ])
    }

    /// A model from measured calls: the first call's first-token time, the
    /// later calls' mean, and output characters over the seconds spent
    /// streaming them. Figures not measured keep `fallback`'s.
    package static func measured(
        backend: String, coldFirstToken: Double?, warmFirstTokens: [Double],
        outputCharacters: Int, outputSeconds: Double, date: Date = Date(),
        fallback: LatencyModel = .fieldNotes
    ) -> LatencyModel {
        let warm = warmFirstTokens.isEmpty ? fallback.warmFirstToken : warmFirstTokens.reduce(0, +) / Double(warmFirstTokens.count)
        let rate = outputSeconds > 0 && outputCharacters > 0 ? Double(outputCharacters) / outputSeconds : fallback.outputCharactersPerSecond
        let day = ISO8601DateFormatter.string(from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        return LatencyModel(
            coldFirstToken: coldFirstToken ?? fallback.coldFirstToken, warmFirstToken: warm,
            outputCharactersPerSecond: rate, idleCurve: fallback.idleCurve,
            source: "measured on \(backend), \(warmFirstTokens.count + (coldFirstToken == nil ? 0 : 1)) calls, \(day)",
            measured: true)
    }
}
