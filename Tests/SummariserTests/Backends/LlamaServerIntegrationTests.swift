import Foundation
import Testing
import ContextKit
import TestSupport
@testable import Summariser
@testable import SummariserServing

/// The engine against a real model: llama.cpp's llama-server with
/// SmolLM2-135M-Instruct and a 2,048-token window (`scripts/llama-server`),
/// started by each test on a free port and stopped after it.
/// Skipped when the server is not installed, except under `CI=true`, where
/// that is a failure.
@Suite(
    .serialized, .enabled(if: LlamaServer.shouldRun, "llama-server is not installed (scripts/llama-server install)"),
    .timeLimit(.minutes(30)))
struct LlamaServerIntegrationTests {
    static let window = 2048

    /// A small model on a shared 2-core machine can take minutes per call: time-outs that only a dead server hits.
    static func backend(_ url: URL) -> OpenAICompatibleBackend {
        OpenAICompatibleBackend(configuration: .init(baseURL: url, requestTimeout: 1800, totalTimeout: 3600))
    }

    func withServer(_ body: (URL) async throws -> Void) async throws {
        try await LlamaServer.withServer(window: Self.window, body)
    }

    func document(pages: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestRepository.root.appendingPathComponent("scripts/make-long-document.py").path, "--pages", String(pages)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aDocumentSeveralWindowsLongIsSummarised() async throws {
        try await withServer { url in
            let backend = Self.backend(url)
            #expect(await backend.availability() == .available)
            #expect(await backend.contextSize() == Self.window)
            let profile = try ProfileCatalog.builtIn().profile(named: "gpt-4o")
            let engine = try SummaryEngine(backend: backend, configuration: .init(profile: profile, options: SamplingOptions(seed: 7)))
            let text = try document(pages: 12)
            let run = try await engine.summarise(text)

            let textTokens = try #require(run.levels.first?.plan.textTokens)
            #expect(textTokens > 3 * Self.window, "the document is several windows long")
            #expect(run.window == Self.window)
            #expect(run.levels.count >= 2)
            #expect(!run.summary.headline.isEmpty)
            #expect(!run.summary.points.isEmpty)
            let succeeded = run.metrics.calls.filter { $0.failure == nil }
            #expect(succeeded.count >= run.levels.reduce(0) { $0 + $1.plan.chunks.count })
            for call in succeeded {
                #expect(call.tokensSentReported, "llama-server reports usage")
                #expect(call.tokensSent < Self.window)
                #expect(call.timeToFirstToken != nil)
                #expect(call.usage?.promptMilliseconds != nil, "llama.cpp timings are captured")
            }
        }
    }

    @Test func anOverflowCarriesTheServersCounts() async throws {
        try await withServer { url in
            let session = Self.backend(url).makeSession(instructions: "Summarise.")
            let text = try document(pages: 4)
            do {
                _ = try await session.respond(to: GenerationRequest(prompt: text, schema: Summary.schema))
                Issue.record("a prompt of \(text.count) characters should not fit \(Self.window) tokens")
            } catch {
                guard case .contextOverflow(let overflow)? = error as? GenerationError else { Issue.record("expected an overflow, got \(error)"); return }
                #expect(overflow.contextWindow == Self.window)
                #expect((overflow.promptTokens ?? 0) > Self.window)
            }
        }
    }

    @Test func anUndercountingProfileIsCorrectedByReplanning() async throws {
        try await withServer { url in
            // A window 1.6× the server's: every full chunk overflows until the engine learns the server's count.
            var profile = try ProfileCatalog.builtIn().profile(named: "gpt-4o")
            profile.contextWindow = Self.window * 8 / 5
            let engine = try SummaryEngine(
                backend: WindowHidingBackend(base: Self.backend(url)),
                configuration: .init(profile: profile, options: SamplingOptions(seed: 7)))
            let run = try await engine.summarise(try document(pages: 6))
            #expect(!run.replans.isEmpty)
            #expect(run.replans.count <= 3)
            #expect(run.window == Self.window, "the window the server reported in its overflow")
        }
    }
}

/// A backend that does not tell the engine its window, so only an overflow can.
struct WindowHidingBackend: LanguageModelBackend {
    let base: OpenAICompatibleBackend
    var name: String { base.name }
    func availability() async -> BackendAvailability { await base.availability() }
    func makeSession(instructions: String) -> any LanguageModelSession { base.makeSession(instructions: instructions) }
}
