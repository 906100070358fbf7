import Foundation
import Testing
import ContextKit
import TestSupport
@testable import Summariser

/// `SummaryCache`: keyed by everything that changes the answer, in memory and on disk.
@Suite struct SummaryCacheTests {
    static let summary = Summary(headline: "Tides rise", points: ["The sea came in.", "Boats floated.", "Nobody minded."])

    func engine(_ backend: FakeBackend = FakeBackend(behaviour: Fakes.stub), configure: (inout SummaryEngine.Configuration) -> Void = { _ in }) throws -> SummaryEngine {
        var configuration = SummaryEngine.Configuration(profile: Fakes.profile)
        configure(&configuration)
        return try SummaryEngine(backend: backend, configuration: configuration)
    }

    /// A backend like the default fake but with another name (another server or model).
    struct RenamedBackend: LanguageModelBackend {
        let inner = FakeBackend(behaviour: Fakes.stub)
        var name: String { "openai http://127.0.0.1:8080 (other-model)" }
        func availability() async -> BackendAvailability { .available }
        func makeSession(instructions: String) -> any LanguageModelSession { inner.makeSession(instructions: instructions) }
    }

    @Test func theKeyIsAStableDigest() throws {
        let key = try engine().cacheKey(for: "text")
        #expect(key.digest.count == 64)
        #expect(key.digest.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(try engine().cacheKey(for: "text") == key)
        #expect(SummaryCache.Key(parts: ["ab", "c"]) != SummaryCache.Key(parts: ["a", "bc"]), "parts are length-prefixed")
    }

    /// Another backend that calls itself `extractive`: it has no summariser revision.
    struct OtherExtractive: LanguageModelBackend {
        let inner = ExtractiveBackend()
        var name: String { inner.name }
        func availability() async -> BackendAvailability { .available }
        func makeSession(instructions: String) -> any LanguageModelSession { inner.makeSession(instructions: instructions) }
    }

    @Test func theExtractiveSummarisersRevisionIsPartOfTheKey() throws {
        // Same name, same configuration: only the revision tells them apart,
        // so a summary an older summariser made is not served after an upgrade.
        let extractive = try SummaryEngine(backend: ExtractiveBackend(), configuration: .init(profile: Fakes.profile))
        let other = try SummaryEngine(backend: OtherExtractive(), configuration: .init(profile: Fakes.profile))
        #expect(ExtractiveBackend().revision == ExtractiveSummariser.revision)
        #expect(extractive.cacheKey(for: "text") != other.cacheKey(for: "text"))
    }

    @Test func everythingThatChangesTheAnswerChangesTheKey() throws {
        let base = try engine().cacheKey(for: "text")
        var variants: [(String, SummaryCache.Key)] = [
            ("text", try engine().cacheKey(for: "text!")),
            ("salt", try engine().cacheKey(for: "text", salt: "app 2.0")),
            ("backend and model", try SummaryEngine(backend: RenamedBackend(), configuration: .init(profile: Fakes.profile)).cacheKey(for: "text"))
        ]
        let changes: [(String, (inout SummaryEngine.Configuration) -> Void)] = [
            ("profile", { $0.profile = ModelProfile(name: "other", contextWindow: 1024, tokenizer: .encoding("cl100k_base")) }),
            ("tokenizer", { $0.profile.tokenizer = .encoding("o200k_base") }),
            ("window", { $0.profile.contextWindow = 2048 }),
            ("map instructions", { $0.mapInstructions += " Be brief." }),
            ("reduce instructions", { $0.reduceInstructions += " Be brief." }),
            ("schema", { $0.schema = OutputSchema(name: "Other", schema: Summary.schema.schema) }),
            ("schema runtime", { $0.schemaRuntime = .grammar }),
            ("reserve", { $0.responseReserve = 300 }),
            ("sampling mode", { $0.options.mode = .greedy }),
            ("top-k", { $0.options.mode = .topK(5) }),
            ("temperature", { $0.options.temperature = 0.5 }),
            ("seed", { $0.options.seed = 42 }),
            ("token limit", { $0.options.maximumResponseTokens = 100 }),
            ("framing", { $0.framing = nil }),
            ("short-text limit", { $0.minimumCharacters = 10 })
        ]
        for (name, change) in changes { variants.append((name, try engine(configure: change).cacheKey(for: "text"))) }
        for (name, key) in variants { #expect(key != base, "\(name) does not change the key") }
        #expect(Set(variants.map(\.1)).count == variants.count, "every change gives its own key")
        // Another seed is another answer.
        #expect(try engine(configure: { $0.options.seed = 1 }).cacheKey(for: "text") != engine(configure: { $0.options.seed = 2 }).cacheKey(for: "text"))
    }

    @Test func memoryKeepsTheNewestUpToItsLimit() {
        let cache = SummaryCache(memoryLimit: 2)
        let keys = (0..<3).map { SummaryCache.Key(parts: ["\($0)"]) }
        for key in keys { cache.store(Self.summary, for: key) }
        #expect(cache.summary(for: keys[0]) == nil)
        #expect(cache.summary(for: keys[1]) == Self.summary)
        #expect(cache.summary(for: keys[2]) == Self.summary)
        #expect(cache.file(for: keys[0]) == nil)
    }

    @Test func aSummaryOnDiskOutlivesTheProcessMemory() throws {
        let scratch = try TempDir()
        let folder = scratch.url.appendingPathComponent("summaries")
        let key = SummaryCache.Key(parts: ["doc"])
        SummaryCache(folder: folder).store(Self.summary, for: key)
        let file = try #require(SummaryCache(folder: folder).file(for: key))
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self) == Self.summary.json)
        let fresh = SummaryCache(folder: folder)
        #expect(fresh.summary(for: key) == Self.summary)
        fresh.removeAllFromMemory()
        #expect(fresh.summary(for: key) == Self.summary, "read from disk again")
    }

    @Test(arguments: ["", "not json", "{\"headline\": \"h\"}", "{\"headline\": \"h\", \"points\": [1]}", "{\"headline\": \"h\", \"points\": [\"a\""])
    func aDamagedFileIsAMiss(contents: String) throws {
        let scratch = try TempDir()
        let cache = SummaryCache(folder: scratch.url)
        let key = SummaryCache.Key(parts: ["doc"])
        try Data(contents.utf8).write(to: try #require(cache.file(for: key)))
        #expect(cache.summary(for: key) == nil)
    }

    @Test func anUnwritableFolderIsOnlyAMemoryCache() throws {
        let scratch = try TempDir()
        let blocker = try scratch.write("file", "not a folder")
        let cache = SummaryCache(folder: URL(fileURLWithPath: blocker).appendingPathComponent("summaries"))
        let key = SummaryCache.Key(parts: ["doc"])
        cache.store(Self.summary, for: key)
        #expect(cache.summary(for: key) == Self.summary)
    }

    @Test func theStandardCacheIsUnderThePlatformsCacheFolder() {
        let cache = SummaryCache.standard(environment: ["CONTEXTKIT_CACHE": "/tmp/ck-test", "HOME": "/h"])
        #expect(cache.folder?.path == "/tmp/ck-test/summaries")
        #if !canImport(Darwin)
            #expect(SummaryCache.standard(environment: ["HOME": "/h"]).folder?.path == "/h/.cache/contextkit/summaries")
            #expect(SummaryCache.standard(environment: [:]).folder == nil)
        #endif
    }
}
