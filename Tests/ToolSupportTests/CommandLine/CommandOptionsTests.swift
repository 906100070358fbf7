import Testing
import ToolSupport

@Suite("Command options")
struct CommandOptionsTests {
    @Test("a field is spelled as its option's long name")
    func spelling() {
        #expect(SampleOptions.spelling(of: \SampleOptions.window) == "--window")
    }
}
