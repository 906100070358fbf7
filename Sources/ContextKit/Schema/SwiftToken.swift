/// One token of the Swift subset `GenerableSourceParser` reads, with where it starts.
struct SwiftToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A name or keyword (`struct`, `var`, `headline`, `` `default` `` without backticks).
        case identifier
        /// `@` followed by a name: `@Generable`, `@Guide`. Text is the name.
        case attribute
        /// A string literal; text is its value with escapes resolved.
        case string
        /// A string literal with `\(...)`: its value is only known at run time.
        case interpolatedString
        /// A regex literal (`/a+/` or `#/a+/#`); text is the pattern.
        case regex
        /// A number literal as written, without `_` separators.
        case number
        /// Punctuation or an operator: `{`, `:`, `...`, `?`, `-`.
        case symbol
        /// `#if`, `#else`, `#endif` and other `#` directives; text includes the `#`.
        case directive
    }

    let kind: Kind
    let text: String
    let line: Int
    /// Column of the token's first character on its line, 1-based, in Unicode scalars.
    var column = 0

    func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }
    func isIdentifier(_ name: String) -> Bool { kind == .identifier && text == name }
}
