import ContextKitJSON

extension OrderedJSON {
    /// The value as the tools print `--json`: pretty, with what a terminal
    /// could act on (C1 controls, U+2028/9) escaped.
    package func rendered() -> String {
        JSONWriter(style: .pretty, escapingInvisible: true).write(self)
    }

    /// Prints the value as `rendered()` would, and a line break, to standard
    /// output: as bytes, never a String, for reports of thousands of inputs.
    package func printRendered() {
        var bytes = JSONWriter(style: .pretty, escapingInvisible: true).utf8(self)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { Output.out(bytes: $0) }
    }
}
