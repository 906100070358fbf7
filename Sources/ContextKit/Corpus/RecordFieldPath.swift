import ContextKitJSON

/// Where a value sits in a JSON record: a dotted path such as `text`,
/// `meta.id` or `turns.0.content`. A step that is a whole number indexes an
/// array (and names a key in an object, where keys are text).
public struct RecordFieldPath: Equatable, Sendable, CustomStringConvertible {
    /// The steps, in order.
    public let steps: [String]

    /// The path `dotted`, or nil when it has an empty step (`a..b`, `.a`, ``).
    public init?(_ dotted: String) {
        let steps = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !steps.contains(where: \.isEmpty) else { return nil }
        self.steps = steps
    }

    /// The path as it was written.
    public var description: String { steps.joined(separator: ".") }

    /// The value at this path in `record`, or nil when a step is missing.
    public func value(in record: OrderedJSON) -> OrderedJSON? {
        var current = record
        for step in steps {
            switch current {
            case .object:
                guard let next = current[step] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(step), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
