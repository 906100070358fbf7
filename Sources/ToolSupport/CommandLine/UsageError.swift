/// A command line the user got wrong: the tool prints it and exits 2.
package struct UsageError: Error, CustomStringConvertible, Sendable {
    package let tool: String
    package let message: String

    package init(tool: String, _ message: String) {
        self.tool = tool
        self.message = message
    }

    package var description: String { "\(tool): \(message)\nTry '\(tool) --help' for more information." }
}
