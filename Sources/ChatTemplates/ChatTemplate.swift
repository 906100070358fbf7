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
    ///   - limits: what the rendering may spend; nil sizes the limits by the
    ///     variables (`ChatTemplateLimits.scaled`), far above what real templates spend.
    /// - Throws: `ChatTemplateError` when rendering fails (an unsupported
    ///   filter or test, `raise_exception` in the template, arithmetic that
    ///   overflows, a limit reached).
    public func render(
        messages: [Message], addGenerationPrompt: Bool = true, bosToken: String = "", eosToken: String = "",
        extra: [String: TemplateValue] = [:], limits: ChatTemplateLimits? = nil
    ) throws -> String {
        var out = TemplateOutput(comparingWith: nil)
        _ = try render(messages, addGenerationPrompt, bosToken, eosToken, extra, limits, recordingLayout: false, into: &out)
        return out.text
    }

    /// `render(messages:addGenerationPrompt:bosToken:eosToken:extra:limits:)`,
    /// and where the template's loop over the `messages` variable (as `extra`
    /// may give it) placed each message, nil when no such loop wrote anything
    /// (see `ChatTemplateLayout`). The text is the same as `render`'s.
    public func renderWithLayout(
        messages: [Message], addGenerationPrompt: Bool = true, bosToken: String = "", eosToken: String = "",
        extra: [String: TemplateValue] = [:], limits: ChatTemplateLimits? = nil
    ) throws -> (text: String, layout: ChatTemplateLayout?) {
        var out = TemplateOutput(comparingWith: nil)
        let layout = try render(messages, addGenerationPrompt, bosToken, eosToken, extra, limits, recordingLayout: true, into: &out)
        return (out.text, layout)
    }

    /// The length in UTF-8 bytes of what
    /// `render(messages:addGenerationPrompt:bosToken:eosToken:extra:limits:)`
    /// gives, when that text begins `text`; nil when it does not. The
    /// rendering is compared with `text` as it is written and never built, so
    /// checking that a shorter conversation's prompt begins a whole one holds
    /// no second copy of a huge message.
    public func renderedLength(
        ifPrefixOf text: String, messages: [Message], addGenerationPrompt: Bool = true, bosToken: String = "", eosToken: String = "",
        extra: [String: TemplateValue] = [:], limits: ChatTemplateLimits? = nil
    ) throws -> Int? {
        var out = TemplateOutput(comparingWith: text)
        _ = try render(messages, addGenerationPrompt, bosToken, eosToken, extra, limits, recordingLayout: false, into: &out)
        return out.isPrefix ? out.count : nil
    }

    private func render(
        _ messages: [Message], _ addGenerationPrompt: Bool, _ bosToken: String, _ eosToken: String,
        _ extra: [String: TemplateValue], _ limits: ChatTemplateLimits?, recordingLayout: Bool, into out: inout TemplateOutput
    ) throws -> ChatTemplateLayout? {
        let variables: [String: TemplateValue] = [
            "messages": .array(messages.map { .object([("role", .string($0.role)), ("content", .string($0.content))]) }),
            "add_generation_prompt": .bool(addGenerationPrompt),
            "bos_token": .string(bosToken),
            "eos_token": .string(eosToken)
        ].merging(extra) { _, new in new }
        var values = 0, bytes = 0
        for v in variables.values { v.measure(values: &values, bytes: &bytes) }
        // A prompt is mostly the variables' text: room for it and the template's
        // framing, reserved up front, spares a huge message's prompt the copy
        // that growing the string makes (both copies alive at once). Pages
        // reserved and never written take no memory.
        out.reserve(bytes + bytes / 8 + 4096)
        var renderer = TemplateRenderer(limits: limits ?? .scaled(values: values, bytes: bytes))
        renderer.scopes = [variables]
        if recordingLayout, case .array(let items) = variables["messages"] { renderer.recorder = LayoutRecorder(messages: items) }
        try renderer.render(nodes, into: &out)
        return renderer.recorder?.layout
    }
}

/// Where a rendering's text goes: built into `text`, or compared with an
/// expected text as it is written and not kept.
struct TemplateOutput {
    /// The text written, when it is built.
    private(set) var text = ""
    /// How many UTF-8 bytes were written.
    private(set) var count = 0
    /// The text the output is compared with; nil when it is built.
    private let expected: String?
    /// Whether what was written so far begins `expected`.
    private(set) var isPrefix = true

    init(comparingWith expected: String?) { self.expected = expected }

    /// Makes room for `bytes` of text, when the text is built.
    mutating func reserve(_ bytes: Int) {
        if expected == nil { text.reserveCapacity(bytes) }
    }

    /// Writes `t`: adds it to the text, or compares it with the expected text where the output has got to.
    mutating func append(_ t: String) {
        defer { count += t.utf8.count }
        guard let expected else {
            text += t
            return
        }
        guard isPrefix else { return }
        let whole = expected.utf8
        guard count + t.utf8.count <= whole.count else {
            isPrefix = false
            return
        }
        isPrefix = whole[whole.index(whole.startIndex, offsetBy: count)...].starts(with: t.utf8)
    }
}

/// Evaluates template nodes with Python/Jinja semantics for the subset chat
/// templates use, inside the sandbox `limits` draws: integers are checked,
/// and every loop, string and step is counted before it is paid for.
struct TemplateRenderer {
    var scopes: [[String: TemplateValue]] = []
    /// `namespace()` objects are mutable through `{% set ns.x = … %}`: they live here by id.
    var namespaces: [[(String, TemplateValue)]] = []
    let limits: ChatTemplateLimits
    private var steps = 0
    private var iterations = 0
    /// Where the loop over the messages placed them, when a layout is asked for.
    var recorder: LayoutRecorder?
    /// How many loops the rendering is inside: the messages' loop is outside any other.
    private var loopDepth = 0

    init(limits: ChatTemplateLimits) { self.limits = limits }

    /// What ends every sandbox error: a template that hits one is broken or
    /// hostile, and the user's way out is another template.
    private static let advice = "the template is broken or hostile; use another chat template (or another model's profile)"

    /// Counts `cost` steps against `limits.steps`.
    private mutating func charge(_ cost: Int = 1) throws {
        steps += cost
        if steps > limits.steps {
            throw ChatTemplateError(
                message:
                    "the template took more than \(limits.steps) steps, the limit for this conversation (real templates take under a hundred per message): it loops without end or is hostile; \(Self.advice)"
            )
        }
    }

    /// Counts `count` loop iterations of `construct` against `limits.iterations`.
    private mutating func chargeIterations(_ count: Int, _ construct: String) throws {
        iterations += count
        if count > limits.iterations || iterations > limits.iterations {
            throw ChatTemplateError(
                message:
                    "\(construct) would bring the loop iterations to \(iterations), more than the limit of \(limits.iterations) for this conversation (real templates loop a few times per message); \(Self.advice)"
            )
        }
    }

    /// Checks, before it is built, that a string of `bytes` UTF-8 bytes made
    /// by `construct` fits `limits.outputBytes`, and charges a step per 256 bytes copied.
    private mutating func checkString(_ bytes: Int, _ construct: @autoclosure () -> String) throws {
        if bytes > limits.outputBytes {
            throw ChatTemplateError(
                message: "\(construct()) would build a string of \(bytes) bytes, more than the limit of \(limits.outputBytes) bytes for this conversation's prompt; \(Self.advice)")
        }
        try charge(1 + bytes / 256)
    }

    /// Checks, before it is built, that a list of `count` items made by `construct` fits `limits.iterations`.
    private mutating func checkList(_ count: Int, _ construct: @autoclosure () -> String) throws {
        if count > limits.iterations {
            throw ChatTemplateError(
                message: "\(construct()) would build a list of \(count) items, more than the limit of \(limits.iterations) for this conversation; \(Self.advice)")
        }
        try charge(1 + count / 32)
    }

    /// The deepest a list or dict may nest. Writing, comparing and freeing a
    /// value recurse that deep, so a loop that wraps a list in a list a million
    /// times would end the process (it did, with SIGSEGV); conversations and
    /// tool schemas nest a few levels, 20 at most in any real one.
    static let maxNesting = 512

    /// Checks that a list or dict of `items`, made by `construct`, nests no
    /// deeper than `maxNesting`, charging a step per list or dict looked at
    /// and per 32 of their items (a list that holds one list twice, 40 times
    /// over, is looked at until the steps run out, not 2^40 times).
    private mutating func checkNesting(_ items: [TemplateValue], _ construct: @autoclosure () -> String) throws {
        var pending: [(TemplateValue, Int)] = items.map { ($0, 2) }
        var looked = 0
        while let (value, level) = pending.popLast() {
            let children: [TemplateValue]
            switch value {
            case .array(let a): children = a
            case .object(let o): children = o.map(\.1)
            default: continue
            }
            if level > Self.maxNesting {
                throw ChatTemplateError(
                    message: "\(construct()) would nest lists and dicts more than \(Self.maxNesting) deep (real conversations nest a few levels); \(Self.advice)")
            }
            looked += children.count
            try charge(1 + looked / 32)
            looked %= 32
            for child in children {
                switch child {
                case .array, .object: pending.append((child, level + 1))
                default: break
                }
            }
        }
    }

    /// Charges a step per 256 bytes of the strings among `values`: what a
    /// filter, method, comparison or index reads (`upper`, `length`, `==`, `in`
    /// on a long message is linear in it), so a loop that reads a 64 MiB
    /// string a million times runs out of steps instead of taking hours.
    private mutating func chargeReading(_ values: TemplateValue...) throws {
        var bytes = 0
        for case .string(let s) in values { bytes += s.utf8.count }
        if bytes >= 256 { try charge(bytes / 256) }
    }

    /// Charges a step per 32 items of a list or dict that an operation walks
    /// (`in`, `==`, `items()`, `reverse`), for the same reason as `chargeReading`.
    /// `length` and indexing are not charged: they do not walk, and templates
    /// call them on `messages` once per message.
    private mutating func chargeWalking(_ values: TemplateValue...) throws {
        var items = 0
        for v in values {
            switch v {
            case .array(let a): items += a.count
            case .object(let o): items += o.count
            default: break
            }
        }
        if items >= 32 { try charge(items / 32) }
    }

    /// Python's `str()` of a value, lists and dicts written as `json` writes them.
    private mutating func text(_ v: TemplateValue) throws -> String {
        switch v {
        case .array, .object: return try json(v)
        default: return v.rendered
        }
    }

    /// `tojson` of a value, stopped as soon as it passes `limits.outputBytes`
    /// (a list that holds itself ten levels deep would otherwise write 2^10 copies).
    private mutating func json(_ v: TemplateValue) throws -> String {
        var out = ""
        guard v.writeJSON(into: &out, limit: limits.outputBytes) else {
            throw ChatTemplateError(message: "\(Self.brief(v)) written out is longer than the limit of \(limits.outputBytes) bytes for this conversation's prompt; \(Self.advice)")
        }
        try charge(1 + out.utf8.count / 256)
        return out
    }

    /// A value as an error message shows it: numbers in full, strings quoted
    /// and cut to 32 characters, lists and dicts by their size.
    static func brief(_ v: TemplateValue) -> String {
        switch v {
        case .string(let s):
            let cut = s.unicodeScalars.count > 32 ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(32))) + "…" : s
            return TemplateValue.string(cut).json()
        case .array(let a): return "a list of \(a.count) items"
        case .object(let o): return "a dict of \(o.count) keys"
        case .undefined: return "an undefined value"
        default: return v.rendered
        }
    }

    mutating func render(_ nodes: some Collection<TemplateNode>, into out: inout TemplateOutput) throws {
        for node in nodes {
            if case .located = node {} else { try charge() }
            switch node {
            case .text(let t):
                try write(CollectionOfOne(t), into: &out)
            case .output(let e):
                switch try evaluateJoining(e) {
                case .strings(let pieces, _): try write(pieces, into: &out)
                case .value(let v): try write(CollectionOfOne(try text(v)), into: &out)
                }
            case let .conditional(branches, otherwise):
                var taken: [TemplateNode]? = nil
                for (condition, body) in branches where try evaluate(condition).isTruthy {
                    taken = body
                    break
                }
                try render(taken ?? otherwise, into: &out)
            case let .loop(variables, sequence, filter, body, otherwise):
                try renderLoop(variables, try evaluate(sequence), filter, body, otherwise, into: &out)
            case let .assign(target, attribute, value):
                let v = try evaluate(value)
                if let attribute {
                    guard case .object(let o) = lookup(target), let idValue = o.first(where: { $0.0 == "__namespace__" }),
                        case .int(let id) = idValue.1
                    else {
                        throw ChatTemplateError(message: "{% set \(target).\(attribute) %}: \(target) is not a namespace")
                    }
                    if let k = namespaces[id].firstIndex(where: { $0.0 == attribute }) { namespaces[id][k].1 = v } else { namespaces[id].append((attribute, v)) }
                } else {
                    scopes[scopes.count - 1][target] = v
                }
            case .generation(let body):
                try render(body, into: &out)
            case let .located(line, tag):
                do {
                    try render(CollectionOfOne(tag), into: &out)
                } catch let error as ChatTemplateError {
                    throw error.located(at: line)
                }
            }
        }
    }

    /// Appends `pieces` to the prompt unless that would pass `limits.outputBytes`.
    /// A collection, not an array: most writes are one piece (a text node, a
    /// value), which `CollectionOfOne` passes without allocating an array.
    private mutating func write(_ pieces: some Collection<String>, into out: inout TemplateOutput) throws {
        let bytes = pieces.reduce(0) { $0 + $1.utf8.count }
        if out.count + bytes > limits.outputBytes {
            throw ChatTemplateError(
                message:
                    "the template's output would pass \(limits.outputBytes) bytes, the limit for this conversation (real templates write the messages and a few hundred bytes per message): it repeats text without end or is hostile; \(Self.advice)"
            )
        }
        try charge(bytes / 256)
        for piece in pieces { out.append(piece) }
    }

    /// A value, or the strings that joined make it.
    private enum Joined {
        case value(TemplateValue)
        case strings([String], bytes: Int)
    }

    /// `evaluate(e)`, but a chain of `+` or `~` that joins strings gives the
    /// strings unjoined, for an output to write one after the other:
    /// `{{ '<|im_start|>' + role + '\n' + content + '<|im_end|>' }}` would
    /// otherwise build a string as long as the message at each `+`, two alive
    /// at once beside the message and the prompt. Steps and limits are
    /// charged as joining them would charge.
    private mutating func evaluateJoining(_ e: TemplateExpression) throws -> Joined {
        guard case let .binary(op, l, r) = e, op == "+" || op == "~" else { return .value(try evaluate(e)) }
        try charge()
        let left = try evaluateJoining(l)
        let b = try evaluate(r)
        var pieces: [String], bytes: Int
        switch left {
        case let .strings(p, n): (pieces, bytes) = (p, n)
        case .value(.string(let s)): (pieces, bytes) = ([s], s.utf8.count)
        case .value(let a): return .value(try binary(op, a, b))
        }
        guard case .string(let y) = b else { return .value(try binary(op, .string(pieces.joined()), b)) }
        let total = bytes + y.utf8.count
        if total >= 256 { try charge(total / 256) }  // what `binary` charges for reading the two strings
        try checkString(total, "\(Self.brief(.string(pieces.joined()))) \(op) \(Self.brief(b))")
        pieces.append(y)
        return .strings(pieces, bytes: total)
    }

    private mutating func renderLoop(
        _ variables: [String], _ sequence: TemplateValue, _ filter: TemplateExpression?, _ body: [TemplateNode],
        _ otherwise: [TemplateNode], into out: inout TemplateOutput
    ) throws {
        var items: [TemplateValue]
        switch sequence {
        case .array(let a): items = a
        case .object(let o): items = o.map { .string($0.0) }
        case .string(let s):
            try chargeIterations(s.unicodeScalars.count, "{% for %} over a string of \(s.unicodeScalars.count) characters")
            items = s.unicodeScalars.map { .string(String($0)) }
        case .undefined, .none: items = []
        default: throw ChatTemplateError(message: "{% for %}: cannot loop over \(Self.brief(sequence)); a loop needs a list, a dict or a string")
        }
        if case .string = sequence {} else { try chargeIterations(items.count, "{% for %} over \(Self.brief(sequence))") }
        // The loop over the messages, when a layout is asked for and none was found yet.
        var firstMessage: Int? = nil
        if loopDepth == 0, recorder?.first == nil, case .array(let a) = sequence, let first = recorder?.suffixStart(a) {
            firstMessage = first
            recorder!.first = first
            recorder!.starts = Array(repeating: nil, count: recorder!.messages.count)
            recorder!.loopStart = out.count
        }
        // The position in `sequence` of each item kept.
        var positions = Array(items.indices)
        if let filter {
            var kept: [TemplateValue] = []
            positions = []
            for (position, item) in items.enumerated() {
                scopes.append(bind(variables, item))
                defer { scopes.removeLast() }
                if try evaluate(filter).isTruthy {
                    kept.append(item)
                    positions.append(position)
                }
            }
            items = kept
        }
        loopDepth += 1
        defer { loopDepth -= 1 }
        defer {
            if firstMessage != nil {
                recorder!.loopEnd = out.count
                // A loop that wrote nothing (one that only looks for the last user message) is not the one.
                if recorder!.loopEnd == recorder!.loopStart { recorder!.first = nil }
            }
        }
        if items.isEmpty { try render(otherwise, into: &out); return }
        for (index, item) in items.enumerated() {
            if let firstMessage { recorder!.starts[firstMessage + positions[index]] = out.count }
            var scope = bind(variables, item)
            scope["loop"] = .object([
                ("index", .int(index + 1)), ("index0", .int(index)), ("first", .bool(index == 0)),
                ("last", .bool(index == items.count - 1)), ("length", .int(items.count)),
                ("revindex", .int(items.count - index)), ("revindex0", .int(items.count - index - 1)),
                ("previtem", index > 0 ? items[index - 1] : .undefined),
                ("nextitem", index + 1 < items.count ? items[index + 1] : .undefined)
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

    /// The positions `stride(from:to:by:)` gives, as Python's `range` gives
    /// them, counted before any is made (the count cannot overflow: it is
    /// worked out on the distance's magnitude). Zero `step` is the caller's error.
    private mutating func positions(from start: Int, to stop: Int, by step: Int, _ construct: @autoclosure () -> String) throws -> [Int] {
        let count: UInt
        if step > 0 ? start >= stop : start <= stop {
            count = 0
        } else {
            let distance = step > 0 ? UInt(bitPattern: stop &- start) : UInt(bitPattern: start &- stop)
            count = (distance - 1) / step.magnitude + 1
        }
        guard count <= UInt(max(limits.iterations, 0)) else {
            throw ChatTemplateError(
                message: "\(construct()) would hold \(count) items, more than the limit of \(limits.iterations) loop iterations for this conversation; \(Self.advice)")
        }
        try checkList(Int(count), construct())
        // Each position lies between start and stop, so the wrapping arithmetic gives it exactly.
        return (0..<Int(count)).map { start &+ $0 &* step }
    }

    mutating func evaluate(_ expression: TemplateExpression) throws -> TemplateValue {
        try charge()
        switch expression {
        case .literal(let v): return v
        case .name(let n): return resolved(lookup(n))
        case .list(let items):
            try checkList(items.count, "a list literal")
            let values = try items.map { try evaluate($0) }
            try checkNesting(values, "a list literal")
            return .array(values)
        case .dict(let pairs):
            let members = try pairs.map { (try text(try evaluate($0.0)), try evaluate($0.1)) }
            try checkNesting(members.map(\.1), "a dict literal")
            return .object(members)
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
                try chargeReading(b)
                // Python indexes code points; walking to one costs no copy of a long message.
                let scalars = s.unicodeScalars
                let count = n < 0 ? scalars.count : 0
                let k = n < 0 ? count + n : n
                guard k >= 0, let at = scalars.index(scalars.startIndex, offsetBy: k, limitedBy: scalars.endIndex),
                    at < scalars.endIndex
                else { return .undefined }
                return .string(String(scalars[at]))
            case let (.object, .string(key)): return b[key: key]
            default: return .undefined
            }
        case let .slice(base, start, stop, step):
            let b = try evaluate(base)
            let s = try start.map { try evaluate($0) }, e = try stop.map { try evaluate($0) }, st = try step.map { try evaluate($0) }
            var stepValue = 1
            if case .int(let x)? = st { stepValue = x }
            guard stepValue != 0 else {
                throw ChatTemplateError(message: "the slice [\(s.map(Self.brief) ?? ""):\(e.map(Self.brief) ?? ""):0] has a zero step, which Python refuses; \(Self.advice)")
            }
            func bounds(_ count: Int) -> (Int, Int) {
                func clamp(_ v: TemplateValue?, _ fallback: Int) -> Int {
                    guard case .int(let x)? = v else { return fallback }
                    let y = x < 0 ? count + x : x
                    return stepValue > 0 ? min(max(y, 0), count) : min(max(y, -1), count - 1)
                }
                return (clamp(s, stepValue > 0 ? 0 : count - 1), clamp(e, stepValue > 0 ? count : -1))
            }
            switch b {
            case .array(let a):
                let (from, to) = bounds(a.count)
                return .array(try positions(from: from, to: to, by: stepValue, "a slice").map { a[$0] })
            case .string(let str):
                try chargeReading(b)
                let scalars = str.unicodeScalars
                let (from, to) = bounds(scalars.count)
                if stepValue == 1 {
                    // The usual [1:] or [:-1]: the text between two positions, no list of characters.
                    guard from < to else { return .string("") }
                    let lower = scalars.index(scalars.startIndex, offsetBy: from), upper = scalars.index(lower, offsetBy: to - from)
                    return .string(String(scalars[lower..<upper]))
                }
                let picked = try positions(from: from, to: to, by: stepValue, "a slice")
                let all = Array(scalars)
                return .string(String(String.UnicodeScalarView(picked.map { all[$0] })))
            default: return .undefined
            }
        case let .unary(op, operand):
            let v = try evaluate(operand)
            if op == "not" { return .bool(!v.isTruthy) }
            switch v {
            case .int(let i):
                let (negated, overflow) = Int(0).subtractingReportingOverflow(i)
                if overflow { throw Self.overflow("-(\(i))") }
                return .int(negated)
            case .double(let d): return .double(-d)
            default: throw ChatTemplateError(message: "cannot negate \(Self.brief(v)): only numbers have a sign")
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

    /// The error for integer arithmetic whose result does not fit 64 bits (Python's
    /// integers are unbounded; no real template comes near 2^63).
    private static func overflow(_ operation: String) -> ChatTemplateError {
        ChatTemplateError(message: "\(operation) overflows: template integers are 64-bit (from -9223372036854775808 to 9223372036854775807); \(advice)")
    }

    private static func divisionByZero(_ operation: String) -> ChatTemplateError {
        ChatTemplateError(message: "\(operation) divides by zero, which Python refuses (ZeroDivisionError); \(advice)")
    }

    private mutating func binary(_ op: String, _ a: TemplateValue, _ b: TemplateValue) throws -> TemplateValue {
        try chargeReading(a, b)
        switch op {
        case "==", "!=":
            try chargeWalking(a, b)
            return .bool((a == b) == (op == "=="))
        case "~":
            let x = try text(a), y = try text(b)
            try checkString(x.utf8.count + y.utf8.count, "\(Self.brief(a)) ~ \(Self.brief(b))")
            return .string(x + y)
        case "in":
            switch b {
            case .string(let s): return .bool(s.contains(try text(a)))
            case .array(let items):
                try chargeWalking(b)
                return .bool(items.contains(a))
            case .object(let o):
                let key = try text(a)
                return .bool(o.contains { $0.0 == key })
            default: return .bool(false)
            }
        default: break
        }
        switch (a, b) {
        case let (.int(x), .int(y)):
            let operation = "\(x) \(op) \(y)"
            switch op {
            case "+", "-", "*":
                let (result, overflow) = op == "+" ? x.addingReportingOverflow(y) : op == "-" ? x.subtractingReportingOverflow(y) : x.multipliedReportingOverflow(by: y)
                if overflow { throw Self.overflow(operation) }
                return .int(result)
            case "//":
                // Python floors; the one quotient that does not fit is the smallest integer // -1.
                if y == 0 { throw Self.divisionByZero(operation) }
                let (q, overflow) = x.dividedReportingOverflow(by: y)
                if overflow { throw Self.overflow(operation) }
                return .int(q * y != x && (x < 0) != (y < 0) ? q - 1 : q)
            case "%":
                // Python's remainder takes the divisor's sign; anything % -1 is 0 (Swift would trap on the smallest integer).
                if y == 0 { throw Self.divisionByZero(operation) }
                if y == -1 { return .int(0) }
                let r = x % y
                return .int(r != 0 && (r < 0) != (y < 0) ? r + y : r)
            case "/":
                if y == 0 { throw Self.divisionByZero(operation) }
                return .double(Double(x) / Double(y))
            case "<": return .bool(x < y)
            case ">": return .bool(x > y)
            case "<=": return .bool(x <= y)
            case ">=": return .bool(x >= y)
            default: break
            }
        case let (.string(x), .string(y)):
            switch op {
            case "+":
                try checkString(x.utf8.count + y.utf8.count, "\(Self.brief(a)) + \(Self.brief(b))")
                return .string(x + y)
            case "<": return .bool(x < y)
            case ">": return .bool(x > y)
            default: break
            }
        case let (.array(x), .array(y)) where op == "+":
            try checkList(x.count + y.count, "\(Self.brief(a)) + \(Self.brief(b))")
            return .array(x + y)
        case let (.string(x), .int(n)) where op == "*":
            let (bytes, overflow) = x.utf8.count.multipliedReportingOverflow(by: max(n, 0))
            try checkString(overflow ? Int.max : bytes, "\(Self.brief(a)) * \(n)")
            // The empty string repeated is empty at once: String(repeating:) would loop n times (fuzzer: '' * 10000000 * 1000000000).
            return .string(x.isEmpty ? "" : String(repeating: x, count: max(n, 0)))
        default: break
        }
        if let x = a.number, let y = b.number {
            switch op {
            case "+": return .double(x + y)
            case "-": return .double(x - y)
            case "*": return .double(x * y)
            case "/", "//", "%":
                if y == 0 { throw Self.divisionByZero("\(Self.brief(a)) \(op) \(Self.brief(b))") }
                if op == "/" { return .double(x / y) }
                let q = (x / y).rounded(.down)
                return .double(op == "//" ? q : x - y * q)
            case "<": return .bool(x < y)
            case ">": return .bool(x > y)
            case "<=": return .bool(x <= y)
            case ">=": return .bool(x >= y)
            default: break
            }
        }
        throw ChatTemplateError(message: "cannot apply \(op) to \(Self.brief(a)) and \(Self.brief(b))")
    }

    /// Python's `str.replace`, worked out on UTF-8 bytes (a match of whole
    /// strings always starts and ends on a character boundary): one pass
    /// counts the matches (linear in the string) so the
    /// result's length is checked before it is built, a second writes it.
    /// Doubling a string 30 times so stops at the output limit.
    private mutating func replace(_ s: String, _ old: String, _ new: String, count: Int?) throws -> String {
        let maxCount = count.flatMap { $0 >= 0 ? $0 : nil } ?? Int.max  // Python: a negative count replaces all
        if old.isEmpty {
            // Python puts `new` before every character and after the last one.
            var pieces = s.unicodeScalars.map { String($0) }
            let inserted = min(pieces.count + 1, maxCount)
            try checkString(s.utf8.count + inserted * new.utf8.count, "replace(\"\", \(Self.brief(.string(new)))) on \(Self.brief(.string(s)))")
            pieces.append("")
            return pieces.enumerated().map { $0.offset < inserted ? new + $0.element : $0.element }.joined()
        }
        let source = Array(s.utf8), pattern = Array(old.utf8), replacement = Array(new.utf8)
        try charge(1 + source.count / 256)
        // Knuth–Morris–Pratt: linear in the string whatever the pattern.
        var failure = [Int](repeating: 0, count: pattern.count)
        var k = 0
        for i in pattern.indices.dropFirst() {
            while k > 0 && pattern[i] != pattern[k] { k = failure[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            failure[i] = k
        }
        /// Calls `found` with the offset of each match, left to right, at most `maxCount` of them.
        func matches(_ found: (Int) -> Void) {
            source.withUnsafeBufferPointer { haystack in
                pattern.withUnsafeBufferPointer { needle in
                    failure.withUnsafeBufferPointer { failure in
                        var k = 0, seen = 0
                        for i in 0..<haystack.count where seen < maxCount {
                            let byte = haystack[i]
                            while k > 0 && byte != needle[k] { k = failure[k - 1] }
                            if byte == needle[k] { k += 1 }
                            if k == needle.count {
                                found(i + 1 - needle.count)
                                seen += 1
                                k = 0
                            }
                        }
                    }
                }
            }
        }
        var found = 0
        matches { _ in found += 1 }
        let (grown, overflow) = found.multipliedReportingOverflow(by: replacement.count)
        let total = overflow ? Int.max : source.count - found * pattern.count + grown
        try checkString(total, "replace(\(Self.brief(.string(old))), \(Self.brief(.string(new)))) on \(Self.brief(.string(s)))")
        var result = [UInt8](repeating: 0, count: total)
        result.withUnsafeMutableBytes { out in
            source.withUnsafeBytes { input in
                replacement.withUnsafeBytes { with in
                    var read = 0, written = 0
                    func copy(_ bytes: UnsafeRawBufferPointer) {
                        if let from = bytes.baseAddress, bytes.count > 0 { out.baseAddress!.advanced(by: written).copyMemory(from: from, byteCount: bytes.count) }
                        written += bytes.count
                    }
                    matches { offset in
                        copy(UnsafeRawBufferPointer(rebasing: input[read..<offset]))
                        copy(with)
                        read = offset + pattern.count
                    }
                    copy(UnsafeRawBufferPointer(rebasing: input[read...]))
                }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private mutating func filter(_ name: String, _ v: TemplateValue, _ args: [TemplateValue]) throws -> TemplateValue {
        try chargeReading(v)
        switch name {
        case "trim": return .string(try text(v).trimmingCharacters(in: .whitespacesAndNewlines))
        case "length", "count":
            switch v {
            case .string(let s): return .int(s.unicodeScalars.count)
            case .array(let a): return .int(a.count)
            case .object(let o): return .int(o.count)
            default: return .int(0)
            }
        case "upper": return .string(try text(v).uppercased())
        case "lower": return .string(try text(v).lowercased())
        case "capitalize":
            let t = try text(v)
            return .string(t.prefix(1).uppercased() + t.dropFirst().lowercased())
        case "string": return .string(try text(v))
        case "int": return .int(Int(try text(v)) ?? 0)
        case "tojson": return .string(try json(v))
        case "first": if case .array(let a) = v { return a.first ?? .undefined }; return .undefined
        case "last": if case .array(let a) = v { return a.last ?? .undefined }; return .undefined
        case "join":
            guard case .array(let a) = v else { return .string(try text(v)) }
            let separator = try args.first.map { try text($0) } ?? ""
            var parts: [String] = []
            var bytes = 0
            for item in a {
                let part = try text(item)
                bytes += part.utf8.count + separator.utf8.count
                try checkString(bytes, "join on \(Self.brief(v))")
                parts.append(part)
            }
            return .string(parts.joined(separator: separator))
        case "default", "d":
            if case .undefined = v { return args.first ?? .string("") }
            return v
        case "items":
            try chargeWalking(v)
            guard case .object(let o) = v else { return .array([]) }
            return .array(o.map { .array([.string($0.0), $0.1]) })
        case "list":
            if case .array = v { return v }
            if case .string(let s) = v {
                try checkList(s.unicodeScalars.count, "list on \(Self.brief(v))")
                return .array(s.unicodeScalars.map { .string(String($0)) })
            }
            return .array([])
        case "reverse":
            try chargeWalking(v)
            if case .array(let a) = v { return .array(a.reversed()) }
            return .string(String(String.UnicodeScalarView(try text(v).unicodeScalars.reversed())))
        case "replace":
            guard args.count >= 2 else { throw ChatTemplateError(message: "the filter replace needs two arguments (old and new text)") }
            return .string(try replace(try text(v), try text(args[0]), try text(args[1]), count: args.count > 2 ? args[2].intValue : nil))
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
            switch v {
            case .array, .string, .object: return true;
            default: return false
            }
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
                throw ChatTemplateError(message: "the template refused the conversation: \(try args.first.map { try text($0) } ?? "")")
            case "namespace":
                namespaces.append(kwargs)
                return .object([("__namespace__", .int(namespaces.count - 1))])
            case "range":
                let ints = args.compactMap(\.intValue)
                guard ints.count == args.count, (1...3).contains(ints.count) else {
                    throw ChatTemplateError(message: "range takes 1 to 3 integers, not \(args.map(Self.brief).joined(separator: ", "))")
                }
                let construct = "range(\(ints.map(String.init).joined(separator: ", ")))"
                let (start, stop, step) = ints.count == 1 ? (0, ints[0], 1) : (ints[0], ints[1], ints.count == 3 ? ints[2] : 1)
                guard step != 0 else { throw ChatTemplateError(message: "\(construct) has a zero step, which Python refuses; \(Self.advice)") }
                return .array(try positions(from: start, to: stop, by: step, construct).map { .int($0) })
            case "strftime_now":
                return .string("")
            default: break
            }
        }
        guard case let .attribute(base, method) = callee else {
            throw ChatTemplateError(message: "this call is not supported")
        }
        let receiver = try evaluate(base)
        try chargeReading(receiver)
        func argument(_ k: Int) throws -> String {
            guard k < args.count else { throw ChatTemplateError(message: "the method '\(method)' needs \(k + 1) argument\(k == 0 ? "" : "s")") }
            return try text(args[k])
        }
        switch (receiver, method) {
        case (.string(let s), "strip"): return .string(s.trimmingCharacters(in: args.isEmpty ? .whitespacesAndNewlines : CharacterSet(charactersIn: try argument(0))))
        case (.string(let s), "lstrip"): return .string(String(s.drop { $0.isWhitespace }))
        case (.string(let s), "rstrip"): return .string(String(s.reversed().drop { $0.isWhitespace }.reversed()))
        case (.string(let s), "startswith"): return .bool(s.hasPrefix(try args.first.map { try text($0) } ?? ""))
        case (.string(let s), "endswith"): return .bool(s.hasSuffix(try args.first.map { try text($0) } ?? ""))
        case (.string(let s), "upper"): return .string(s.uppercased())
        case (.string(let s), "lower"): return .string(s.lowercased())
        case (.string(let s), "replace"):
            return .string(try replace(s, try argument(0), try argument(1), count: args.count > 2 ? args[2].intValue : nil))
        case (.string(let s), "split"):
            let separator = try args.first.map { try text($0) }
            if separator == "" { throw ChatTemplateError(message: "split with an empty separator, which Python refuses (ValueError)") }
            try charge(1 + s.utf8.count / 256)
            let parts = separator.map { s.components(separatedBy: $0) } ?? s.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            return .array(parts.map { .string($0) })
        case (.object(let o), "items"), (.object(let o), "keys"), (.object(let o), "values"):
            try chargeWalking(receiver)
            switch method {
            case "items": return .array(o.map { .array([.string($0.0), $0.1]) })
            case "keys": return .array(o.map { .string($0.0) })
            default: return .array(o.map { $0.1 })
            }
        case (.object, "get"):
            let v = receiver[key: try args.first.map { try text($0) } ?? ""]
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

    /// The integer, when the value is one.
    var intValue: Int? { if case .int(let i) = self { return i }; return nil }
}
