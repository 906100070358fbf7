import Foundation
import ContextKitJSON

/// `$ref` resolution inside one document (JSON Pointer fragments such as
/// `#/$defs/Address`), and the checks that make every later walk safe:
/// no reference points at nothing, and no chain of references loops without
/// reaching a schema.
///
/// Recursive types (`Node.children` is an array of `Node`) are legal JSON
/// Schema and are accepted: the schema text holds the `$ref` once, so its
/// cost is finite and nothing here ever expands a reference into its target.
enum SchemaReferences {
    /// The value `reference` points at in `root`, or nil if nothing is there.
    /// Only same-document references (starting with `#`) resolve.
    static func resolve(_ reference: String, in root: OrderedJSON) -> OrderedJSON? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = reference.dropFirst()
        if pointer.isEmpty { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var current = root
        for rawStep in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let step = rawStep.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case let .object(members):
                guard let next = members.first(where: { $0.key == step })?.value else { return nil }
                current = next
            case let .array(elements):
                guard let position = Int(step), elements.indices.contains(position) else { return nil }
                current = elements[position]
            default:
                return nil
            }
        }
        return current
    }

    /// Checks every `$ref` under `root`. `label` names the document in messages
    /// (e.g. `tool get_weather`).
    static func validate(_ root: OrderedJSON, label: String = "#") throws(SchemaError) {
        try visit(root, path: label, root: root)
    }

    /// The schema a value stands for: itself, or the end of its `$ref` chain.
    /// Call after `validate`, which guarantees the chain ends.
    static func target(of schema: OrderedJSON, in root: OrderedJSON) -> OrderedJSON {
        var current = schema
        var hops = 0
        while let reference = current["$ref"]?.stringValue, let next = resolve(reference, in: root), hops < 64 {
            current = next
            hops += 1
        }
        return current
    }

    private static func visit(_ value: OrderedJSON, path: String, root: OrderedJSON) throws(SchemaError) {
        switch value {
        case let .object(members):
            for member in members {
                let childPath = path + "/" + member.key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                if member.key == "$ref", case let .string(reference) = member.value {
                    try follow(reference, at: path, root: root)
                } else {
                    try visit(member.value, path: childPath, root: root)
                }
            }
        case let .array(elements):
            for (position, element) in elements.enumerated() {
                try visit(element, path: path + "/\(position)", root: root)
            }
        default:
            break
        }
    }

    /// Follows a chain of references that are nothing but references; a chain
    /// that comes back to where it has been can never produce a value.
    private static func follow(_ reference: String, at path: String, root: OrderedJSON) throws(SchemaError) {
        var chain: [String] = []
        var current = reference
        while true {
            guard current.hasPrefix("#") else { throw .externalReference(reference: current, at: path) }
            if chain.contains(current) { throw .cyclicReference(chain: chain + [current]) }
            chain.append(current)
            guard let target = resolve(current, in: root) else {
                throw .danglingReference(reference: current, at: chain.count == 1 ? path : chain[chain.count - 2])
            }
            guard let next = target["$ref"]?.stringValue else { return }
            current = next
        }
    }
}
