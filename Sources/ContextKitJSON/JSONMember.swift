/// One `"key": value` pair of a JSON object, in written order.
public struct JSONMember: Equatable, Sendable {
    /// The key, escapes resolved.
    public var key: String
    /// The value.
    public var value: OrderedJSON

    /// The member `key: value`.
    public init(_ key: String, _ value: OrderedJSON) {
        self.key = key
        self.value = value
    }
}
