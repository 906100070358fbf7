import Foundation

/// A model's chat template (the Jinja text in a GGUF's `tokenizer.chat_template`
/// or a `tokenizer_config.json`), rendered the way Hugging Face and llama.cpp
/// render it, so ContextKit can predict the exact prompt a server builds.
public struct ChatTemplate: Sendable {
    /// One message of a conversation.
    public struct Message: Equatable, Sendable, Codable {
        /// `system`, `user`, `assistant` or whatever else the template knows.
        public var role: String
        /// The message's text.
        public var content: String
        /// A message with `role` and `content`.
        public init(role: String, content: String) {
            self.role = role
            self.content = content
        }
    }

    /// The template's source text.
    public let source: String
    private let nodes: [TemplateNode]

    /// Parses a template; throws `ChatTemplateError` naming what it cannot read.
    public init(_ source: String) throws {
        self.source = source
        self.nodes = try TemplateParser.parse(source)
    }

    /// The prompt text for `messages`, with the assistant's turn opened when
    /// `addGenerationPrompt` (what a server does before generating).
    ///
    /// - Parameters:
    ///   - bosToken: the text the template sees as `bos_token`.
    ///   - eosToken: the text the template sees as `eos_token`.
    ///   - extra: further variables (`tools`, `date_string`, …); they replace
    ///     the standard ones of the same name.
    /// - Throws: `ChatTemplateError` when rendering fails (an unsupported
    ///   filter or test, `raise_exception` in the template).
    public func render(messages: [Message], addGenerationPrompt: Bool = true, bosToken: String = "", eosToken: String = "",
                       extra: [String: TemplateValue] = [:]) throws -> String {
        var renderer = TemplateRenderer()
        renderer.scopes = [[
            "messages": .array(messages.map { .object([("role", .string($0.role)), ("content", .string($0.content))]) }),
            "add_generation_prompt": .bool(addGenerationPrompt),
            "bos_token": .string(bosToken),
            "eos_token": .string(eosToken),
        ].merging(extra) { _, new in new }]
        var out = ""
        try renderer.render(nodes, into: &out)
        return out
    }
}

/// Evaluates template nodes with Python/Jinja semantics for the subset chat templates use.
struct TemplateRenderer {
    var scopes: [[String: TemplateValue]] = []
    /// `namespace()` objects are mutable through `{% set ns.x = … %}`: they live here by id.
    var namespaces: [[(String, TemplateValue)]] = []

    mutating func render(_ nodes: [TemplateNode], into out: inout String) throws {
        for node in nodes {
            switch node {
            case .text(let t):
                out += t
            case .output(let e):
                out += try evaluate(e).rendered
            case let .conditional(branches, otherwise):
                if let branch = try branches.first(where: { try evaluate($0.0).isTruthy }) {
                    try render(branch.1, into: &out)
                } else {
                    try render(otherwise, into: &out)
                }
            case let .loop(variables, sequence, filter, body, otherwise):
                try renderLoop(variables, try evaluate(sequence), filter, body, otherwise, into: &out)
            case let .assign(target, attribute, value):
                let v = try evaluate(value)
                if let attribute {
                    guard case .object(let o) = lookup(target), let idValue = o.first(where: { $0.0 == "__namespace__" }),
                          case .int(let id) = idValue.1 else {
                        throw ChatTemplateError(message: "{% set \(target).\(attribute) %}: \(target) is not a namespace")
                    }
                    if let k = namespaces[id].firstIndex(where: { $0.0 == attribute }) { namespaces[id][k].1 = v } else { namespaces[id].append((attribute, v)) }
                } else {
                    scopes[scopes.count - 1][target] = v
                }
            case .generation(let body):
                try render(body, into: &out)
            }
        }
    }

    private mutating func renderLoop(_ variables: [String], _ sequence: TemplateValue, _ filter: TemplateExpression?, _ body: [TemplateNode],
                                     _ otherwise: [TemplateNode], into out: inout String) throws {
        var items: [TemplateValue]
        switch sequence {
        case .array(let a): items = a
        case .object(let o): items = o.map { .string($0.0) }
        case .string(let s): items = s.map { .string(String($0)) }
        case .undefined, .none: items = []
        default: throw ChatTemplateError(message: "cannot loop over \(sequence.rendered)")
        }
        if let filter {
            items = try items.filter { item in
                scopes.append(bind(variables, item))
                defer { scopes.removeLast() }
                return try evaluate(filter).isTruthy
            }
        }
        if items.isEmpty { try render(otherwise, into: &out); return }
        for (index, item) in items.enumerated() {
            var scope = bind(variables, item)
            scope["loop"] = .object([
                ("index", .int(index + 1)), ("index0", .int(index)), ("first", .bool(index == 0)),
                ("last", .bool(index == items.count - 1)), ("length", .int(items.count)),
                ("revindex", .int(items.count - index)), ("revindex0", .int(items.count - index - 1)),
                ("previtem", index > 0 ? items[index - 1] : .undefined),
                ("nextitem", index + 1 < items.count ? items[index + 1] : .undefined),
            ])
            scopes.append(scope)
            defer { scopes.removeLast() }
            try render(body, into: &out)
        }
    }

    private func bind(_ variables: [String], _ item: TemplateValue) -> [String: TemplateValue] {
        if variables.count == 1 { return [variables[0]: item] }
        guard case .array(let parts) = item else { return [:] }
        var scope: [String: TemplateValue] = [:]
        for (name, value) in zip(variables, parts) { scope[name] = value }
        return scope
    }

    private func lookup(_ name: String) -> TemplateValue {
        for scope in scopes.reversed() { if let v = scope[name] { return v } }
        return .undefined
    }

    private func resolved(_ value: TemplateValue) -> TemplateValue {
        if case .object(let o) = value, let idValue = o.first(where: { $0.0 == "__namespace__" }), case .int(let id) = idValue.1 {
            return .object(namespaces[id])
        }
        return value
    }

    mutating func evaluate(_ expression: TemplateExpression) throws -> TemplateValue {
        switch expression {
        case .literal(let v): return v
        case .name(let n): return resolved(lookup(n))
        case .list(let items): return .array(try items.map { try evaluate($0) })
        case .dict(let pairs):
            return .object(try pairs.map { (try evaluate($0.0).rendered, try evaluate($0.1)) })
        case let .attribute(base, name):
            let b = try evaluate(base)
            if case .object = b { return b[key: name] }
            return .undefined
        case let .index(base, index):
            let b = try evaluate(base), i = try evaluate(index)
            switch (b, i) {
            case let (.array(a), .int(n)):
                let k = n < 0 ? a.count + n : n
                return a.indices.contains(k) ? a[k] : .undefined
            case let (.string(s), .int(n)):
                let chars = Array(s)
                let k = n < 0 ? chars.count + n : n
                return chars.indices.contains(k) ? .string(String(chars[k])) : .undefined
            case let (.object, .string(key)): return b[key: key]
            default: return .undefined
            }
        case let .slice(base, start, stop, step):
            let b = try evaluate(base)
            let s = try start.map { try evaluate($0) }, e = try stop.map { try evaluate($0) }, st = try step.map { try evaluate($0) }
            func bounds(_ count: Int) -> [Int] {
                var stepValue = 1
                if case .int(let x)? = st { stepValue = x }
                func clamp(_ v: TemplateValue?, _ fallback: Int) -> Int {
                    guard case .int(let x)? = v else { return fallback }
                    let y = x < 0 ? count + x : x
                    return stepValue > 0 ? min(max(y, 0), count) : min(max(y, -1), count - 1)
                }
                let from = clamp(s, stepValue > 0 ? 0 : count - 1), to = clamp(e, stepValue > 0 ? count : -1)
                return Array(stride(from: from, to: to, by: stepValue))
            }
            switch b {
            case .array(let a): return .array(bounds(a.count).map { a[$0] })
            case .string(let str):
                let chars = Array(str)
                return .string(String(bounds(chars.count).map { chars[$0] }))
            default: return .undefined
            }
        case let .unary(op, operand):
            let v = try evaluate(operand)
            if op == "not" { return .bool(!v.isTruthy) }
            switch v {
            case .int(let i): return .int(-i)
            case .double(let d): return .double(-d)
            default: throw ChatTemplateError(message: "cannot negate \(v.rendered)")
            }
        case let .binary(op, l, r):
            if op == "and" { let a = try evaluate(l); return a.isTruthy ? try evaluate(r) : a }
            if op == "or" { let a = try evaluate(l); return a.isTruthy ? a : try evaluate(r) }
            return try binary(op, try evaluate(l), try evaluate(r))
        case let .conditional(value, condition, otherwise):
            return try evaluate(condition).isTruthy ? try evaluate(value) : try otherwise.map { try evaluate($0) } ?? .undefined
        case let .filter(base, name, arguments):
            return try filter(name, try evaluate(base), try arguments.map { try evaluate($0) })
        case let .test(base, name, negated, arguments):
            let result = try test(name, try evaluate(base), try arguments.map { try evaluate($0) })
            return .bool(result != negated)
        case let .call(callee, positional, keywords):
            let args = try positional.map { try evaluate($0) }
            let kwargs = try keywords.map { ($0.0, try evaluate($0.1)) }
            return try call(callee, args, kwargs)
        }
    }

    private func binary(_ op: String, _ a: TemplateValue, _ b: TemplateValue) throws -> TemplateValue {
        switch op {
        case "==": return .bool(a == b)
        case "!=": return .bool(a != b)
        case "~": return .string(a.rendered + b.rendered)
        case "in":
            switch b {
            case .string(let s): return .bool(s.contains(a.rendered))
            case .array(let items): return .bool(items.contains(a))
            case .object(let o): return .bool(o.contains { $0.0 == a.rendered })
            default: return .bool(false)
            }
        default: break
        }
        switch (a, b) {
        case let (.int(x), .int(y)):
            switch op {
            case "+": return .int(x + y)
            case "-": return .int(x - y)
            case "*": return .int(x * y)
            case "//": return .int(y == 0 ? 0 : x / y)
            case "%": return .int(y == 0 ? 0 : ((x % y) + y) % y)
            case "/": return .double(Double(x) / Double(y))
            case "<": return .bool(x < y)
            case ">": return .bool(x > y)
            case "<=": return .bool(x <= y)
            case ">=": return .bool(x >= y)
            default: break
            }
        case let (.string(x), .string(y)):
            switch op {
            case "+": return .string(x + y)
            case "<": return .bool(x < y)
            case ">": return .bool(x > y)
            default: break
            }
        case let (.array(x), .array(y)) where op == "+":
            return .array(x + y)
        case let (.string(x), .int(n)) where op == "*":
            return .string(String(repeating: x, count: max(n, 0)))
        default: break
        }
        if let x = a.number, let y = b.number {
            switch op {
            case "+": return .double(x + y)
            case "-": return .double(x - y)
            case "*": return .double(x * y)
            case "/": return .double(x / y)
            case "<": return .bool(x < y)
            case ">": return .bool(x > y)
            case "<=": return .bool(x <= y)
            case ">=": return .bool(x >= y)
            default: break
            }
        }
        throw ChatTemplateError(message: "cannot apply \(op) to \(a.rendered) and \(b.rendered)")
    }

    private func filter(_ name: String, _ v: TemplateValue, _ args: [TemplateValue]) throws -> TemplateValue {
        switch name {
        case "trim": return .string(v.rendered.trimmingCharacters(in: .whitespacesAndNewlines))
        case "length", "count":
            switch v {
            case .string(let s): return .int(s.count)
            case .array(let a): return .int(a.count)
            case .object(let o): return .int(o.count)
            default: return .int(0)
            }
        case "upper": return .string(v.rendered.uppercased())
        case "lower": return .string(v.rendered.lowercased())
        case "capitalize": return .string(v.rendered.prefix(1).uppercased() + v.rendered.dropFirst().lowercased())
        case "string": return .string(v.rendered)
        case "int": return .int(Int(v.rendered) ?? 0)
        case "tojson":
            var indent = 0
            if case .int(let n)? = args.first { indent = n }
            return .string(indent > 0 ? v.json() : v.json())
        case "first": if case .array(let a) = v { return a.first ?? .undefined }; return .undefined
        case "last": if case .array(let a) = v { return a.last ?? .undefined }; return .undefined
        case "join":
            guard case .array(let a) = v else { return .string(v.rendered) }
            return .string(a.map(\.rendered).joined(separator: args.first?.rendered ?? ""))
        case "default", "d":
            if case .undefined = v { return args.first ?? .string("") }
            return v
        case "items":
            guard case .object(let o) = v else { return .array([]) }
            return .array(o.map { .array([.string($0.0), $0.1]) })
        case "list":
            if case .array = v { return v }
            if case .string(let s) = v { return .array(s.map { .string(String($0)) }) }
            return .array([])
        case "reverse":
            if case .array(let a) = v { return .array(a.reversed()) }
            return .string(String(v.rendered.reversed()))
        case "replace":
            guard args.count >= 2 else { throw ChatTemplateError(message: "replace needs two arguments") }
            return .string(v.rendered.replacingOccurrences(of: args[0].rendered, with: args[1].rendered))
        case "safe", "e", "escape": return v
        default:
            throw ChatTemplateError(message: "the filter '\(name)' is not supported")
        }
    }

    private func test(_ name: String, _ v: TemplateValue, _ args: [TemplateValue]) throws -> Bool {
        switch name {
        case "defined": if case .undefined = v { return false }; return true
        case "undefined": if case .undefined = v { return true }; return false
        case "none": if case .none = v { return true }; return false
        case "string": if case .string = v { return true }; return false
        case "number", "integer": if case .int = v { return true }; if case .double = v { return name == "number" }; return false
        case "boolean": if case .bool = v { return true }; return false
        case "mapping": if case .object = v { return true }; return false
        case "iterable", "sequence":
            switch v { case .array, .string, .object: return true; default: return false }
        case "true": return v == .bool(true)
        case "false": return v == .bool(false)
        case "equalto", "eq", "sameas": return v == (args.first ?? .undefined)
        case "even": if case .int(let i) = v { return i % 2 == 0 }; return false
        case "odd": if case .int(let i) = v { return i % 2 != 0 }; return false
        default: throw ChatTemplateError(message: "the test 'is \(name)' is not supported")
        }
    }

    private mutating func call(_ callee: TemplateExpression, _ args: [TemplateValue], _ kwargs: [(String, TemplateValue)]) throws -> TemplateValue {
        if case .name(let function) = callee {
            switch function {
            case "raise_exception":
                throw ChatTemplateError(message: "the template refused the conversation: \(args.first?.rendered ?? "")")
            case "namespace":
                namespaces.append(kwargs)
                return .object([("__namespace__", .int(namespaces.count - 1))])
            case "range":
                let ints = args.compactMap { v -> Int? in if case .int(let i) = v { return i }; return nil }
                switch ints.count {
                case 1: return .array((0..<max(ints[0], 0)).map { .int($0) })
                case 2: return .array(stride(from: ints[0], to: ints[1], by: 1).map { .int($0) })
                case 3: return .array(stride(from: ints[0], to: ints[1], by: ints[2]).map { .int($0) })
                default: throw ChatTemplateError(message: "range takes 1 to 3 numbers")
                }
            case "strftime_now":
                return .string("")
            default: break
            }
        }
        guard case let .attribute(base, method) = callee else {
            throw ChatTemplateError(message: "this call is not supported")
        }
        let receiver = try evaluate(base)
        switch (receiver, method) {
        case (.string(let s), "strip"): return .string(s.trimmingCharacters(in: args.isEmpty ? .whitespacesAndNewlines : CharacterSet(charactersIn: args[0].rendered)))
        case (.string(let s), "lstrip"): return .string(String(s.drop { $0.isWhitespace }))
        case (.string(let s), "rstrip"): return .string(String(s.reversed().drop { $0.isWhitespace }.reversed()))
        case (.string(let s), "startswith"): return .bool(s.hasPrefix(args.first?.rendered ?? ""))
        case (.string(let s), "endswith"): return .bool(s.hasSuffix(args.first?.rendered ?? ""))
        case (.string(let s), "upper"): return .string(s.uppercased())
        case (.string(let s), "lower"): return .string(s.lowercased())
        case (.string(let s), "replace"): return .string(s.replacingOccurrences(of: args[0].rendered, with: args[1].rendered))
        case (.string(let s), "split"):
            let separator = args.first?.rendered
            let parts = separator.map { s.components(separatedBy: $0) } ?? s.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            return .array(parts.map { .string($0) })
        case (.object(let o), "items"): return .array(o.map { .array([.string($0.0), $0.1]) })
        case (.object(let o), "keys"): return .array(o.map { .string($0.0) })
        case (.object(let o), "values"): return .array(o.map { $0.1 })
        case (.object, "get"): 
            let v = receiver[key: args.first?.rendered ?? ""]
            if case .undefined = v { return args.count > 1 ? args[1] : .none }
            return v
        default:
            throw ChatTemplateError(message: "the method '\(method)' is not supported")
        }
    }
}

extension TemplateValue {
    var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    subscript(key key: String) -> TemplateValue { self[key] }
}
