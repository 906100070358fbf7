/// A `@Generable` struct or enum as read from Swift source: just what Apple's
/// macro turns into a schema.
struct GenerableDeclaration: Equatable, Sendable {
    enum Body: Equatable, Sendable {
        /// Stored properties in declaration order.
        case structure([Property])
        /// Case names in declaration order.
        case enumeration([String])
    }

    /// A type as written in a property declaration.
    indirect enum TypeReference: Equatable, Sendable {
        /// `String`, `Int`, `Address`, `Outer.Inner` (the last component is kept).
        case named(String)
        /// `[T]` or `Array<T>`.
        case array(TypeReference)
        /// `T?` or `Optional<T>`.
        case optional(TypeReference)
    }

    /// What the `@Guide` on a property says.
    struct Guides: Equatable, Sendable {
        var description: String?
        var minimumCount: Int?
        var maximumCount: Int?
        var anyOf: [String]?
        /// Number literals as written, so `0.5` is encoded as `0.5`.
        var minimum: String?
        var maximum: String?
        var pattern: String?

        init() {}

        var constrainsCount: Bool { minimumCount != nil || maximumCount != nil }
        var constrainsNumber: Bool { minimum != nil || maximum != nil }
        var constrainsString: Bool { anyOf != nil || pattern != nil }
    }

    struct Property: Equatable, Sendable {
        var name: String
        var type: TypeReference
        var guides: Guides
        var line: Int
    }

    var name: String
    var description: String?
    var body: Body
    var line: Int
    /// Where its name is in the file's tokens: which `Tool` body (if any) it is nested in.
    var tokenIndex = 0
    /// Things read but not modelled exactly, for the report.
    var notes: [String] = []
}
