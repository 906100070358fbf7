import ContextKitJSON

extension OrderedJSON {
    /// The value as the tools print `--json`: pretty, with what a terminal
    /// could act on (C1 controls, U+2028/9) escaped.
    package func rendered() -> String {
        JSONWriter(style: .pretty, escapingInvisible: true).write(self)
    }
}
