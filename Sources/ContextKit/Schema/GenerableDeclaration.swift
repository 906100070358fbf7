/// A `@Generable` struct or enum as read from Swift source: just what Apple's
/// macro turns into a schema.
public struct GenerableDeclaration: Equatable, Sendable {
    public enum Body: Equatable, Sendable {
        /// Stored properties in declaration order.
        case structure([Property])
        /// Case names in declaration order.
        case enumeration([String])
    }

    /// A type as written in a property declaration.
    public indirect enum TypeReference: Equatable, Sendable {
        /// `String`, `Int`, `Address`, `Outer.Inner` (the last component is kept).
        case named(String)
        /// `[T]` or `Array<T>`.
        case array(TypeReference)
        /// `T?` or `Optional<T>`.
        case optional(TypeReference)
    }

    /// What the `@Guide` on a property says.
    public struct Guides: Equatable, Sendable {
        public var description: String?
        public var minimumCount: Int?
        public var maximumCount: Int?
        public var anyOf: [String]?
        /// Number literals as written, so `0.5` is encoded as `0.5`.
        public var minimum: String?
        public var maximum: String?
        public var pattern: String?

        public init() {}

        public var constrainsCount: Bool { minimumCount != nil || maximumCount != nil }
        public var constrainsNumber: Bool { minimum != nil || maximum != nil }
        public var constrainsString: Bool { anyOf != nil || pattern != nil }
    }

    public struct Property: Equatable, Sendable {
        public var name: String
        public var type: TypeReference
        public var guides: Guides
        public var line: Int
    }

    public var name: String
    public var description: String?
    public var body: Body
    public var line: Int
    /// Things read but not modelled exactly, for the report.
    public var notes: [String] = []
}
