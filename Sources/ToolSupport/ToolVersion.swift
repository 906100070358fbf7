/// The version all ContextKit tools report with `--version`.
package enum ToolVersion {
    package static let string = "0.1.0"
}
