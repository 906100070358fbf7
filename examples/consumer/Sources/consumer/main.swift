// What an app does with ContextKit before it calls a model: count a text,
// check that a prompt fits, plan the chunks of a long document, summarise it
// (offline, or with a model server).
// Usage: consumer TEXT-FILE TOKENIZER-FILE
import Foundation
import TokenKit
import ContextKit
import Summariser
import SummariserServing

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: consumer TEXT-FILE TOKENIZER-FILE (.tiktoken, .gguf or tokenizer.json)")
    exit(2)
}
let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
let name = URL(fileURLWithPath: arguments[1]).lastPathComponent

// TokenKit: exact counts and ids, built-in or from a file the user has.
let cl100k = try Tokenizer.named("cl100k_base")
print("TokenKit")
print("  cl100k_base: \(name) is \(cl100k.count(text)) tokens")
print("  encode(\"hello world\") = \(cl100k.encodeOrdinary("hello world"))")
print("  decode back: \(try cl100k.decode(cl100k.encodeOrdinary("hello world")).debugDescription)")
let fromFile = try Tokenizer.load(contentsOf: URL(fileURLWithPath: arguments[2]))
print("  \(URL(fileURLWithPath: arguments[2]).lastPathComponent): \(fromFile.count(text)) tokens")

// ContextKit: a built-in profile, a profile of the app's own, a budget, a plan.
let catalog = try ProfileCatalog.builtIn()
let apple = try catalog.profile(named: "apple-on-device")
let local = ModelProfile(name: "local-1k", contextWindow: 1024, tokenizer: .encoding("cl100k_base"), defaultReserve: 200)
print("ContextKit")
for profile in [apple, local] {
    let budget = TokenBudget(profile: profile, instructions: 40)
    let plan = try ChunkPlanner(profile: profile).plan(text, budget: budget)
    let mark = profile.isEstimate ? "≈" : ""
    print("  \(profile.name): window \(profile.contextWindow), room for text \(mark)\(budget.room) tokens per call")
    print("    \(plan.chunks.count) chunk(s): \(plan.chunks.map { "\(mark)\($0.tokens)" }.joined(separator: ", ")) tokens")
    let rebuilt = plan.chunks.map { chunk in String(decoding: Array(text.utf8)[chunk.bytes], as: UTF8.self) }.joined()
    print("    the chunks rebuild the text byte for byte: \(rebuilt == text)")
}

// A session's fixed cost in one call: a tool and a response schema read from
// Swift source, the instructions, and what is left of the window per request.
let weatherTool = """
    struct GetWeatherTool: Tool {
        let name = "getWeather"
        let description = "Get the current weather for a city"
        @Generable struct Arguments {
            @Guide(description: "The city, e.g. Lisbon") var city: String
        }
    }
    """
let forecast = """
    @Generable struct Forecast {
        @Guide(description: "One sentence") var summary: String
    }
    """
let (session, cost) = try TokenBudget.session(
    profile: apple, instructions: "You answer questions about the weather.",
    files: [("WeatherTool.swift", weatherTool), ("Forecast.swift", forecast)])
print(
    "  session of \(apple.name): tools \(cost.tools.map(\.name)), schema \(cost.responseSchema?.name ?? "none"): "
        + "fixed ≈\(session.fixed), room ≈\(session.room) tokens per request")

// Summariser: the shared engine end to end with the offline extractive backend.
let engine = try SummaryEngine(backend: ExtractiveBackend(), configuration: .init(profile: local))
let run = try await engine.summarise(text)
print("Summariser")
print("  \(run.metrics.calls.count) call(s) over \(run.levels.count) level(s)")
print("  headline: \(run.summary.headline)")
for point in run.summary.points { print("  - \(point)") }

// SummariserServing: the same engine with a local llama-server as its backend
// (built here, not contacted: the check runs without a server).
let server = OpenAICompatibleBackend(configuration: .init(baseURL: URL(string: "http://127.0.0.1:8080")!))
let serverEngine = try SummaryEngine(backend: server, configuration: .init(profile: local))
print("SummariserServing")
print("  engine over \(serverEngine.backend.name), profile \(serverEngine.configuration.profile.name)")
