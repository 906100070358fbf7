/// One `"key": value` pair of a JSON object, in written order.
public struct JSONMember: Equatable, Sendable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: OrderedJSON

    /// The pair `"key": value`.
    public init(_ key: String, _ value: OrderedJSON) {
        self.key = key
        self.value = value
    }
}
