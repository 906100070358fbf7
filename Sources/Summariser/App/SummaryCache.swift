import ContextKit
import ContextKitJSON
import Foundation

/// Summaries already made, so the same document is not summarised twice:
/// in memory (the newest `memoryLimit`), and optionally on disk, one small
/// JSON file per summary (`{"headline":…,"points":[…]}`) under the
/// platform's cache folder (`standard()`), which the system may empty.
///
/// A summary is found by its `Key`: a SHA-256 of the text and of everything
/// that changes the answer (`SummaryEngine.cacheKey(for:)`). The cache is a
/// convenience, never a source of failure: a file that cannot be read or
/// written is a miss.
public final class SummaryCache: @unchecked Sendable {
    /// What a summary is filed under.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        /// 64 hexadecimal digits.
        public let digest: String

        /// The key of `parts`, in order: each is hashed with its length, so
        /// no two different lists share a key.
        public init(parts: [String]) {
            var hash = SHA256()
            for part in parts {
                let bytes = Array(part.utf8)
                hash.update(String(bytes.count).utf8)
                hash.update([0x3A])  // ":"
                hash.update(bytes)
            }
            digest = hash.hexDigest()
        }

        /// The digest.
        public var description: String { digest }
    }

    /// Summaries kept in memory; the oldest goes first.
    public let memoryLimit: Int
    /// Where summaries are written, one file per key; nil keeps them in memory only.
    public let folder: URL?

    private let lock = NSLock()
    private var memory: [Key: Summary] = [:]
    private var order: [Key] = []

    /// A cache of up to `memoryLimit` summaries in memory, also written under `folder` when one is given.
    public init(memoryLimit: Int = 64, folder: URL? = nil) {
        self.memoryLimit = max(1, memoryLimit)
        self.folder = folder
    }

    /// A cache on disk under the platform's cache folder (`summaries/` in
    /// `$CONTEXTKIT_CACHE`, else `$XDG_CACHE_HOME/contextkit`, else
    /// `~/.cache/contextkit`; an app's Caches folder on Apple platforms), or
    /// in memory only when there is none.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> SummaryCache {
        SummaryCache(folder: StorageFolders.cache(environment: environment)?.appendingPathComponent("summaries", isDirectory: true))
    }

    /// The summary filed under `key`, from memory or else from disk; nil when there is none.
    public func summary(for key: Key) -> Summary? {
        if let summary = lock.withLock({ memory[key] }) { return summary }
        guard let file = file(for: key), let data = FileManager.default.contents(atPath: file.path),
            let summary = Self.read(String(decoding: data, as: UTF8.self))
        else { return nil }
        lock.withLock { remember(summary, for: key) }
        return summary
    }

    /// Files `summary` under `key`, in memory and on disk.
    public func store(_ summary: Summary, for key: Key) {
        lock.withLock { remember(summary, for: key) }
        guard let file = file(for: key) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(summary.json.utf8).write(to: file, options: .atomic)
    }

    /// Forgets every summary in memory (files on disk stay).
    public func removeAllFromMemory() {
        lock.withLock {
            memory.removeAll()
            order.removeAll()
        }
    }

    /// The file of `key`, when the cache has a folder.
    public func file(for key: Key) -> URL? {
        folder?.appendingPathComponent(key.digest + ".json")
    }

    private func remember(_ summary: Summary, for key: Key) {
        if memory.updateValue(summary, forKey: key) == nil { order.append(key) }
        while order.count > memoryLimit { memory[order.removeFirst()] = nil }
    }

    /// A cached file's summary: the schema's JSON, strictly (nil for anything else).
    static func read(_ text: String) -> Summary? {
        guard let json = try? JSONParser.parse(text), let headline = json["headline"]?.stringValue,
            let points = json["points"]?.elements
        else { return nil }
        let strings = points.compactMap(\.stringValue)
        guard strings.count == points.count else { return nil }
        return Summary(headline: headline, points: strings)
    }
}

extension SummaryEngine {
    /// The cache key of summarising `text` with this engine: the text and
    /// everything that changes the answer — the backend's name (which names
    /// the server and model), the profile (tokenizer and window, which decide
    /// the chunks), both instructions, the schema, the sampling options
    /// (seed included), the reserve, the source framing, the short-text
    /// limit and, for the extractive backend, its summariser's `revision`
    /// (its "model": a summary an older ContextKit made is not served). `salt` adds what the engine cannot see, such as an app's or a
    /// model's version.
    public func cacheKey(for text: String, salt: String = "") -> SummaryCache.Key {
        let c = configuration
        let o = c.options
        return SummaryCache.Key(parts: [
            "contextkit-summary/1", salt, text, backend.name,
            c.profile.name, c.profile.tokenizer.description, String(c.profile.contextWindow),
            c.mapInstructions, c.reduceInstructions, c.schema.name, c.schema.compactJSON,
            c.schemaRuntime.map { "\($0)" } ?? "-", c.responseReserve.map(String.init) ?? "-",
            o.mode.map { "\($0)" } ?? "-", o.temperature.map { "\($0)" } ?? "-", o.seed.map { "\($0)" } ?? "-",
            o.maximumResponseTokens.map(String.init) ?? "-", c.framing?.label ?? "-", String(c.minimumCharacters),
            (backend as? ExtractiveBackend).map { "extractive-revision-\($0.revision)" } ?? "-"
        ])
    }
}
