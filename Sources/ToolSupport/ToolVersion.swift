/// The version all ContextKit tools report with `--version`.
public enum ToolVersion {
    public static let string = "0.1.0"
}
