import Foundation
import TestSupport
import Testing

/// One reader of a whole input (`InputFile`): every command that reads a
/// file at once refuses a missing file and a folder with the same words, so a
/// second reader with its own wording would fail here.
@Suite struct WholeInputRefusalTests {
    /// Each command that reads its input whole, with the input's place in its arguments.
    static let commands: [(tool: String, arguments: @Sendable (String) -> [String])] = [
        ("ctxkit", { ["plan", $0] }),
        ("ctxkit", { ["summarise", $0] }),
        ("schema-cost", { [$0] }),
        ("tokcount", { ["--chat", $0] }),
        ("tokcount", { ["--truncate", "100", $0] })
    ]

    @Test func everyCommandRefusesAMissingFileAndAFolderAlike() throws {
        let dir = try TempDir()
        let missing = dir.url.appendingPathComponent("gone.txt").path
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let folder = dir.url.appendingPathComponent("folder").path
        for (tool, arguments) in Self.commands {
            let gone = try ToolRunner(tool: tool).run(arguments(missing))
            #expect(gone.status != 0 && gone.stderr.contains("\(missing): no such file"), "\(tool) \(arguments(missing)): \(gone.stderr)")
            let isFolder = try ToolRunner(tool: tool).run(arguments(folder))
            #expect(isFolder.status != 0 && isFolder.stderr.contains("\(folder): is a folder; give one "), "\(tool) \(arguments(folder)): \(isFolder.stderr)")
        }
    }
}
