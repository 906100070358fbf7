import ContextKit
import ContextKitServing
import Foundation
import Summariser
import ToolSupport

/// `ctxkit plan`'s options resolved into what the plan is made of: the
/// profile (from the catalog, or chosen for a server), the text, the
/// instructions, the schema and the latency model.
extension PlanCommand {
    /// Everything the command line asked for, resolved.
    struct Job {
        let path: String
        let profile: ModelProfile
        /// Where the profile came from, when it was chosen for a server (`ServerProfile`).
        let profileSource: String?
        let planner: ChunkPlanner
        let text: [UInt8]
        let instructions: (text: String, label: String)?
        let schema: (document: SchemaDocument, label: String)?
        let runtime: SchemaRuntime?
        let reserve: Int?
        let overlap: Int
        let summaryTokens: Int?
        let latency: LatencyModel
        let concurrency: Int
        let idle: Double
        /// The delimiters priced around each chunk (--source-frame); empty for none.
        let frame: [String]

        init(options: Options, path: String) async throws {
            self.path = path
            let catalog = try ProfileCatalog.standard(extraFiles: options.profiles)
            if options.gguf != nil && options.url == nil {
                throw UsageError(tool: spec.name, "--gguf is for --url (a server's model file); to plan for a model file alone, use -m FILE")
            }
            if options.url != nil && options.model != nil {
                throw UsageError(tool: spec.name, "--url picks the profile from the server; it cannot be combined with -m")
            }
            if let url = options.url {
                let apiKey = ServerEnvironment.apiKey(given: nil)
                try await ServerProfile.requireReachable(url, apiKey: apiKey)
                let chosen = try await ServerProfile.resolveForCommand(
                    url: url, apiKey: apiKey, serverModel: nil, gguf: options.gguf,
                    fallback: { try catalog.defaultProfile() })
                profile = chosen.profile
                profileSource = chosen.source.text
            } else {
                profile = try options.model.map { try catalog.profile(named: $0) } ?? catalog.defaultProfile()
                profileSource = nil
            }
            planner = try ChunkPlanner(profile: profile, markdownHeadings: !options.noMarkdown)
            text = try TextFile.read(path)
            if let value = options.instructions {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory), !isDirectory.boolValue {
                    guard let data = FileManager.default.contents(atPath: value), let content = String(data: data, encoding: .utf8) else {
                        throw CommandFailure("--instructions \(value): cannot be read as UTF-8 text")
                    }
                    instructions = (content, value)
                } else {
                    instructions = (value, "text")
                }
            } else {
                instructions = nil
            }
            if let schemaPath = options.schema {
                guard let data = FileManager.default.contents(atPath: schemaPath), let content = String(data: data, encoding: .utf8) else {
                    throw CommandFailure("--schema \(schemaPath): " + (FileManager.default.fileExists(atPath: schemaPath) ? "cannot be read as UTF-8 text" : "no such file"))
                }
                do {
                    schema = (try SchemaDocument.load(content, fileName: schemaPath), schemaPath)
                } catch {
                    throw CommandFailure("--schema \(schemaPath): \(error)")
                }
            } else {
                schema = nil
            }
            runtime = options.runtime
            reserve = options.reserve
            overlap = options.overlap ?? 0
            summaryTokens = options.summaryTokens
            concurrency = options.concurrency ?? 1
            idle = options.idle ?? 0
            frame = options.sourceFrame ? SourceFraming.standard.delimiters : []
            var latency =
                try options.latency.map { file in
                    do { return try LatencyModel.load(contentsOf: URL(fileURLWithPath: file)) } catch {
                        throw CommandFailure(
                            "--latency \(file): \(error.localizedDescription); expected the JSON the summariser saves (coldFirstToken, warmFirstToken, outputCharactersPerSecond, idleCurve, source, measured)"
                        )
                    }
                } ?? LatencyModel.load(profile: profile.name)
            var overridden: [String] = []
            if let cold = options.cold { latency.coldFirstToken = cold; overridden.append("--cold") }
            if let warm = options.warm { latency.warmFirstToken = warm; overridden.append("--warm") }
            if let rate = options.charactersPerSecond, rate > 0 { latency.outputCharactersPerSecond = rate; overridden.append("--chars-per-second") }
            if !overridden.isEmpty { latency.source += ", with \(overridden.joined(separator: " "))" }
            self.latency = latency
        }

        func plan() throws -> Report {
            let plan = try SummaryPlan(
                text: text, profile: profile, planner: planner, instructions: instructions?.text, schema: schema?.document,
                runtime: runtime, frame: frame, reserve: reserve, overlap: overlap, summaryTokens: summaryTokens)
            return Report(job: self, plan: plan)
        }
    }
}
