/// A JSON value that keeps object members in the order they were written:
/// the one JSON model of ContextKit, read by `JSONParser` and written by
/// `JSONWriter`.
///
/// Key order changes how a schema tokenizes (`"type":"string","description"`
/// merges differently from the reverse), and Apple's `x-order` relies on it,
/// so objects are ordered member lists, not dictionaries (a list is cheap to
/// build for the 150,000 entries of a tokenizer.json vocabulary, which are
/// walked in order, never looked up). `JSONParser` gives each key once (a
/// repeated key's last value, at its first position); a value built in code
/// that repeats a key is looked up as the parser would have read it: the last. Numbers keep their literal text so that `3` stays `3`, `0.50`
/// stays `0.50` and an integer beyond `Int64` keeps its digits when re-encoded.
public enum OrderedJSON: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number as its literal text, which must follow JSON's grammar
    /// (`-0`, `2.50`, `1e3`); `int(_:)` and `double(_:)` make one from Swift.
    case number(String)
    /// A string, escapes resolved.
    case string(String)
    /// An array.
    case array([OrderedJSON])
    /// An object: its members in written order.
    case object([JSONMember])

    /// An integer.
    public static func int(_ value: Int) -> OrderedJSON { .number(String(value)) }

    /// A `Double`, written so that it reads back as the same `Double`: a
    /// whole value below 10^15 without a fraction (`3`, not `3.0`; `-0`
    /// keeps its sign), any other in Swift's shortest round-trip form (`0.1`,
    /// `1e+16`). NaN and the infinities, which JSON cannot write, become null.
    public static func double(_ value: Double) -> OrderedJSON {
        guard value.isFinite else { return .null }
        if value == 0, value.sign == .minus { return .number("-0") }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int(value))) }
        return .number(String(value))
    }

    /// The integer, or null for `nil`.
    public static func optional(_ value: Int?) -> OrderedJSON { value.map(int) ?? .null }
    /// The `Double` (see `double(_:)`), or null for `nil`.
    public static func optional(_ value: Double?) -> OrderedJSON { value.map(double) ?? .null }
    /// The string, or null for `nil`.
    public static func optional(_ value: String?) -> OrderedJSON { value.map(OrderedJSON.string) ?? .null }

    /// The value of `key` when this is an object that has it (the last one, if
    /// repeated, as `JSONParser` reads a repeated key).
    public subscript(key: String) -> OrderedJSON? {
        guard case let .object(members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The members, when this is an object.
    public var members: [JSONMember]? {
        if case let .object(members) = self { return members }
        return nil
    }

    /// The elements, when this is an array.
    public var elements: [OrderedJSON]? {
        if case let .array(elements) = self { return elements }
        return nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The flag, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case let .bool(flag) = self { return flag }
        return nil
    }

    /// The nearest `Double`, when this is a number.
    public var doubleValue: Double? {
        if case let .number(literal) = self { return Double(literal) }
        return nil
    }

    /// The number as an `Int`, when it is a whole number one can hold:
    /// `3`, `-0`, and (through a `Double`) `3.0` or `1e2`.
    public var intValue: Int? {
        guard case let .number(literal) = self else { return nil }
        return Int(literal) ?? Double(literal).flatMap { Int(exactly: $0) }
    }

    /// The object without `key` (unchanged when it is not an object).
    public func removing(key: String) -> OrderedJSON {
        guard case let .object(members) = self else { return self }
        return .object(members.filter { $0.key != key })
    }

    /// The object with `key` set to `value`: replaced in place if present (the
    /// last, if repeated), appended otherwise.
    public func setting(_ key: String, to value: OrderedJSON) -> OrderedJSON {
        guard case var .object(members) = self else { return self }
        if let index = members.lastIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key, value))
        }
        return .object(members)
    }

    /// A short name for messages: "an object", "a string", ...
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// One step of a path into nested JSON.
    public enum PathStep: Equatable, Hashable, Sendable {
        /// The member of an object with this key (the last, if repeated).
        case key(String)
        /// The element of an array at this position, from 0.
        case index(Int)
    }

    /// The value at `path`, if there is one.
    public func value(at path: [PathStep]) -> OrderedJSON? {
        var current = self
        for step in path {
            switch (step, current) {
            case let (.key(key), .object):
                guard let next = current[key] else { return nil }
                current = next
            case let (.index(position), .array(elements)) where elements.indices.contains(position):
                current = elements[position]
            default:
                return nil
            }
        }
        return current
    }

    /// This value with the value at `path` replaced by `transform`'s result,
    /// or removed when it returns nil. A path that does not exist changes nothing.
    public func updating(at path: ArraySlice<PathStep>, _ transform: (OrderedJSON) -> OrderedJSON?) -> OrderedJSON? {
        guard let step = path.first else { return transform(self) }
        switch (step, self) {
        case let (.key(key), .object(members)):
            guard let position = members.lastIndex(where: { $0.key == key }) else { return self }
            var members = members
            if let updated = members[position].value.updating(at: path.dropFirst(), transform) {
                members[position].value = updated
            } else {
                members.remove(at: position)
            }
            return .object(members)
        case let (.index(position), .array(elements)) where elements.indices.contains(position):
            var elements = elements
            if let updated = elements[position].updating(at: path.dropFirst(), transform) {
                elements[position] = updated
            } else {
                elements.remove(at: position)
            }
            return .array(elements)
        default:
            return self
        }
    }
}
