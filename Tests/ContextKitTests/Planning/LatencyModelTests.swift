import ContextKitJSON
import Foundation
import Testing
@testable import ContextKit

struct LatencyModelTests {
    @Test func fieldNotesDefaults() {
        let model = LatencyModel.fieldNotes
        #expect(model.coldFirstToken == 1.15 && model.warmFirstToken == 0.383 && model.outputCharactersPerSecond == 345)
        #expect(model.idlePenalty(afterIdle: 0) == 0)
        #expect(abs(model.idlePenalty(afterIdle: 60) - (1.140 - 0.415)) < 1e-9)
        #expect(abs(model.idlePenalty(afterIdle: 10) - ((0.591 + 0.845) / 2 - 0.415)) < 1e-9)
        #expect(!model.measured)
    }

    @Test func planTime() throws {
        let budget = TokenBudget(window: 1000, reserve: 100)
        let chunks = (0..<3).map { Chunk(index: $0, bytes: 0..<1, characters: 0..<1, newTextStart: 0, tokens: 800, proxyTokens: 800, endLevel: nil) }
        let plan = try MapReducePlan(chunks: ChunkPlan(budget: budget, chunks: chunks, textBytes: 3, textCharacters: 3, textTokens: 2400, textProxyTokens: 2400), summaryTokens: 69)
        // 4 calls: cold + 3 warm first tokens, 4 × 69 × 5 characters at 345/s.
        let seconds = LatencyModel.fieldNotes.seconds(for: plan, charactersPerToken: 5)
        #expect(abs(seconds - (1.15 + 3 * 0.383 + 4 * 1.0)) < 1e-9)
    }

    @Test func measuredFiguresReplaceTheDefaults() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_STATE_HOME": directory.path]
        #expect(LatencyModel.load(profile: "llama-local", environment: environment) == .fieldNotes)
        let measured = LatencyModel.measured(
            backend: "llama-server", coldFirstToken: 0.9, warmFirstTokens: [0.2, 0.3],
            outputCharacters: 5000, outputSeconds: 10)
        try measured.save(to: try #require(LatencyModel.measuredPath(profile: "llama-local", environment: environment)))
        let loaded = LatencyModel.load(profile: "llama-local", environment: environment)
        #expect(loaded == measured && loaded.measured && loaded.outputCharactersPerSecond == 500 && loaded.warmFirstToken == 0.25)
    }

    /// `save` writes through ContextKitJSON's writer and `load` reads the same
    /// figures back: fractions with no short decimal form, whole numbers
    /// (written without a fraction), a tiny and a huge value, the idle curve,
    /// and a source with quotes, a line break and non-ASCII text.
    @Test func savedFiguresReadBackTheSame() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = LatencyModel(
            coldFirstToken: 0.1 + 0.2, warmFirstToken: 3, outputCharactersPerSecond: 1e300,
            idleCurve: [.init(idleSeconds: 0, firstTokenSeconds: 1e-7), .init(idleSeconds: 2.5, firstTokenSeconds: 1.0 / 3)],
            source: "measured on \"openai http://127.0.0.1:8080\"\nüber 2 calls, 2026-12-07", measured: true)
        let path = directory.appendingPathComponent("nested/llama-local.json").path
        try model.save(to: path)
        let loaded = try LatencyModel.load(contentsOf: URL(fileURLWithPath: path))
        #expect(loaded == model)
        #expect(loaded.measured)
        for (a, b) in [(loaded.coldFirstToken, model.coldFirstToken), (loaded.idleCurve[1].firstTokenSeconds, model.idleCurve[1].firstTokenSeconds)] {
            #expect(a.bitPattern == b.bitPattern)
        }
        // The bytes are ContextKitJSON's pretty writer's, not Foundation's encoder's.
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(String(decoding: written, as: UTF8.self) == JSONWriter(style: .pretty).write(model.json) + "\n")
        #expect(String(decoding: written, as: UTF8.self).contains("\"warmFirstToken\": 3\n"))
        // The field notes' figures (not measured) round-trip too.
        try LatencyModel.fieldNotes.save(to: path)
        #expect(try LatencyModel.load(contentsOf: URL(fileURLWithPath: path)) == .fieldNotes)
    }

    /// A figure JSON cannot hold fails the save, as Foundation's encoder did,
    /// and writes nothing the loader would then read as the field notes'.
    @Test func aNonFiniteFigureIsNotSaved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latency-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("x.json").path
        var model = LatencyModel.fieldNotes
        model.outputCharactersPerSecond = .infinity
        #expect(throws: EncodingError.self) { try model.save(to: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
