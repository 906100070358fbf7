import ContextKitJSON

extension JSONWriter {
    /// How the tools print `--json`: pretty, with what a terminal could act
    /// on (C1 controls, U+2028/9) escaped.
    package static let rendered = JSONWriter(style: .pretty, escapingInvisible: true)
}

extension OrderedJSON {
    /// The value as the tools print `--json` (`JSONWriter.rendered`).
    package func rendered() -> String {
        JSONWriter.rendered.write(self)
    }

    /// Prints the value as `rendered()` would, and a line break, to standard
    /// output: as bytes, never a String, for reports of thousands of inputs.
    /// `arrays` are top-level members written apart (`JSONWriter.ArrayWriter`).
    package func printRendered(inserting arrays: [String: JSONWriter.ArrayWriter] = [:]) {
        var bytes = JSONWriter.rendered.utf8(self, inserting: arrays)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { Output.out(bytes: $0) }
    }
}
