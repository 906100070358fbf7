/// One `"key": value` pair of a JSON object, in written order.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: OrderedJSON

    public init(_ key: String, _ value: OrderedJSON) {
        self.key = key
        self.value = value
    }
}
