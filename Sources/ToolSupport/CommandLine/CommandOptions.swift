/// A command's options as a typed struct.
///
/// Each field is declared once in `declarations`, with its names, help and
/// value parser; `CommandSpec.parse` fills the struct and `--help` is printed
/// from the same list, so a misspelt option is a compile error rather than a
/// lookup that silently finds nothing.
package protocol CommandOptions {
    /// Nothing given: every field at its default.
    init()
    /// The options in the order `--help` lists them (`--help` and `--version` follow).
    static var declarations: [OptionDeclaration<Self>] { get }
    /// Arguments that are not options, in order (`-` stays as it is: standard input).
    var positionals: [String] { get set }
}

extension CommandOptions {
    /// How messages name the option that fills `field`: `--reserve`.
    package static func spelling(of field: PartialKeyPath<Self>) -> String {
        guard let declaration = declarations.first(where: { $0.field == field }) else {
            preconditionFailure("no option is declared for \(field)")
        }
        return "--" + declaration.long
    }
}
