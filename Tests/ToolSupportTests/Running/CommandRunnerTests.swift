import Testing
import ToolSupport

@Suite("Command runner")
struct CommandRunnerTests {
    struct Plain: Error, CustomStringConvertible {
        var description: String { "plain" }
    }

    @Test("a usage error ends with 2")
    func usage() {
        #expect(CommandRunner.exitCode(reporting: UsageError(tool: "t", "bad"), tool: "t", otherErrors: .inputFailed) == .usage)
    }

    @Test("an error that knows its status ends with it")
    func reported() {
        #expect(CommandRunner.exitCode(reporting: CommandFailure("gone", exitCode: .overflow), tool: "t", otherErrors: .inputFailed) == .overflow)
    }

    @Test("any other error ends with the tool's status for other errors")
    func other() {
        #expect(CommandRunner.exitCode(reporting: Plain(), tool: "t", otherErrors: .usage) == .usage)
    }

    @Test("the body's status is the run's status")
    func body() async {
        #expect(await CommandRunner.run(SampleOptions.spec, ["file"]) { _ in .overflow } == .overflow)
    }

    @Test("a value its option refuses ends with 2 before the body runs")
    func refusedValue() async {
        #expect(await CommandRunner.run(SampleOptions.spec, ["--window", "0"]) { _ in .ok } == .usage)
    }
}
