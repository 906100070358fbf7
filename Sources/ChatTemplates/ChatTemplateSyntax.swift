/// The parsed form of a Jinja chat template: the subset Hugging Face and
/// llama.cpp chat templates use (text, `{{ }}`, `{% if/elif/else %}`,
/// `{% for %}` with `loop`, `{% set %}`, filters, tests, slices, calls).
indirect enum TemplateNode: Sendable {
    case text(String)
    case output(TemplateExpression)
    case conditional([(TemplateExpression, [TemplateNode])], otherwise: [TemplateNode])
    case loop(variables: [String], sequence: TemplateExpression, filter: TemplateExpression?, body: [TemplateNode], otherwise: [TemplateNode])
    case assign(target: String, attribute: String?, value: TemplateExpression)
    case generation([TemplateNode])
    /// A tag and the template line it starts on, so an error while rendering it says where.
    case located(line: Int, TemplateNode)
}

indirect enum TemplateExpression: Sendable {
    case literal(TemplateValue)
    case name(String)
    case list([TemplateExpression])
    case dict([(TemplateExpression, TemplateExpression)])
    case attribute(TemplateExpression, String)
    case index(TemplateExpression, TemplateExpression)
    case slice(TemplateExpression, TemplateExpression?, TemplateExpression?, TemplateExpression?)
    case unary(String, TemplateExpression)
    case binary(String, TemplateExpression, TemplateExpression)
    case conditional(TemplateExpression, condition: TemplateExpression, otherwise: TemplateExpression?)
    case filter(TemplateExpression, String, [TemplateExpression])
    case test(TemplateExpression, String, negated: Bool, [TemplateExpression])
    case call(TemplateExpression, [TemplateExpression], [(String, TemplateExpression)])
}

/// A template the parser cannot read, with where and why.
public struct ChatTemplateError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, and where in the template.
    public let message: String
    /// The message, prefixed with `chat template:`.
    public var description: String { "chat template: \(message)" }

    /// The template line the error was found on, once `message` names it.
    package let line: Int?

    /// An error saying `message` (what went wrong, and where).
    package init(message: String) {
        self.message = message
        self.line = nil
    }

    /// This error with `line N: ` in front of its message, unless it already names a line.
    package func located(at line: Int) -> ChatTemplateError {
        guard self.line == nil else { return self }
        return ChatTemplateError(message: "line \(line): \(message)", line: line)
    }

    private init(message: String, line: Int) {
        self.message = message
        self.line = line
    }
}

/// Turns template source into nodes.
struct TemplateParser {
    private enum Token: Equatable {
        case text(String)
        case open(String)  // "{{" or "{%"
        case close  // "}}" or "%}"
        case name(String)
        case string(String)
        case int(Int)
        case double(Double)
        case symbol(String)
        case end
    }

    private var tokens: [Token] = []
    /// The template line of each token.
    private var lines: [Int] = []
    private var position = 0
    /// How deep the syntax tree being built is: nested tags, brackets and
    /// operator chains (`a + b + …` nests to the left). Parsing, rendering and
    /// freeing the tree recurse that deep, so it is bounded: the templates at
    /// hand (Tests/Fixtures, the Qwen2 GGUF's) nest 6 to 9 levels, 200 is 20× that.
    private var depth = 0
    static let maxDepth = 200

    /// Goes one level deeper into the tree; the caller restores `depth` when its construct ends.
    private mutating func descend() throws {
        depth += 1
        if depth > Self.maxDepth {
            throw ChatTemplateError(
                message:
                    "the template nests tags, brackets or operators more than \(Self.maxDepth) deep (real templates nest under 20); it is broken or hostile: use another chat template"
            )
        }
    }

    static func parse(_ source: String) throws -> [TemplateNode] {
        var parser = TemplateParser()
        (parser.tokens, parser.lines) = try tokenize(source)
        do {
            let (nodes, terminator) = try parser.parseBlock(until: [])
            guard terminator == nil else { throw ChatTemplateError(message: "unexpected {% \(terminator!) %}") }
            return nodes
        } catch let error as ChatTemplateError {
            throw error.located(at: parser.lines[max(parser.position - 1, 0)])
        }
    }

    // MARK: Lexing

    /// The tokens of `source`, and the line each is on.
    private static func tokenize(_ source: String) throws -> ([Token], [Int]) {
        var tokens: [Token] = []
        var lines: [Int] = []
        var line = 1, counted = 0
        let chars = Array(source)
        var i = 0
        /// Appends `token`, found at `i`, with its line (newlines counted once, as `i` moves on).
        func emit(_ token: Token) {
            while counted < min(i, chars.count) {
                if chars[counted] == "\n" { line += 1 }
                counted += 1
            }
            tokens.append(token)
            lines.append(line)
        }
        var text = ""
        var trimNextLeading = false
        func flushText(trimTrailing: Bool) {
            var t = text
            if trimNextLeading { t = String(t.drop { $0.isWhitespace }) }
            if trimTrailing { while let last = t.last, last.isWhitespace { t.removeLast() } }
            if !t.isEmpty { emit(.text(t)) }
            text = ""
            trimNextLeading = false
        }
        while i < chars.count {
            if chars[i] == "{", i + 1 < chars.count, "{%#".contains(chars[i + 1]) {
                let kind = chars[i + 1]
                var j = i + 2
                let trimBefore = j < chars.count && chars[j] == "-"
                let keepBefore = j < chars.count && chars[j] == "+"
                if trimBefore || keepBefore { j += 1 }
                // lstrip_blocks, as chat templates are rendered (Hugging Face and llama.cpp both
                // set it): spaces and tabs between a line's start and a block tag go.
                if kind != "{" && !keepBefore {
                    var k = i
                    while k > 0 && (chars[k - 1] == " " || chars[k - 1] == "\t") { k -= 1 }
                    let blanks = i - k
                    if (k == 0 || chars[k - 1] == "\n") && blanks <= text.count { text.removeLast(blanks) }
                }
                if kind == "#" {
                    flushText(trimTrailing: trimBefore)
                    while j + 1 < chars.count && !(chars[j] == "#" && chars[j + 1] == "}") { j += 1 }
                    trimNextLeading = j > 0 && chars[j - 1] == "-"
                    i = j + 2
                    if i < chars.count && chars[i] == "\n" && !trimNextLeading { i += 1 }  // trim_blocks
                    continue
                }
                flushText(trimTrailing: trimBefore)
                emit(.open(kind == "{" ? "{{" : "{%"))
                let closer: Character = kind == "{" ? "}" : "%"
                i = j
                while true {
                    while i < chars.count && chars[i].isWhitespace { i += 1 }
                    guard i < chars.count else { throw ChatTemplateError(message: "a tag is not closed") }
                    if chars[i] == "-" || chars[i] == "+", i + 2 < chars.count, chars[i + 1] == closer, chars[i + 2] == "}" {
                        trimNextLeading = chars[i] == "-"
                        i += 3
                        emit(.close)
                        break
                    }
                    if chars[i] == closer, i + 1 < chars.count, chars[i + 1] == "}" {
                        i += 2
                        emit(.close)
                        // trim_blocks: the newline right after a block tag goes.
                        if kind == "%" && i < chars.count && chars[i] == "\n" { i += 1 }
                        break
                    }
                    let c = chars[i]
                    if c == "'" || c == "\"" {
                        var s = ""
                        i += 1
                        while i < chars.count && chars[i] != c {
                            if chars[i] == "\\", i + 1 < chars.count {
                                i += 1
                                switch chars[i] {
                                case "n": s.append("\n")
                                case "t": s.append("\t")
                                case "r": s.append("\r")
                                default: s.append(chars[i])
                                }
                            } else {
                                s.append(chars[i])
                            }
                            i += 1
                        }
                        guard i < chars.count else { throw ChatTemplateError(message: "a string is not closed") }
                        i += 1
                        emit(.string(s))
                    } else if c.isNumber {
                        var s = ""
                        while i < chars.count && (chars[i].isNumber || chars[i] == ".") { s.append(chars[i]); i += 1 }
                        if let n = Int(s) { emit(.int(n)) } else { emit(.double(Double(s) ?? 0)) }
                    } else if c.isLetter || c == "_" {
                        var s = ""
                        while i < chars.count && (chars[i].isLetter || chars[i].isNumber || chars[i] == "_") { s.append(chars[i]); i += 1 }
                        emit(.name(s))
                    } else {
                        let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
                        if ["==", "!=", "<=", ">=", "//", "**"].contains(two) {
                            emit(.symbol(two))
                            i += 2
                        } else {
                            emit(.symbol(String(c)))
                            i += 1
                        }
                    }
                }
            } else {
                text.append(chars[i])
                i += 1
            }
        }
        flushText(trimTrailing: false)
        emit(.end)
        return (tokens, lines)
    }

    // MARK: Statements

    private var current: Token { tokens[position] }

    private mutating func advance() -> Token {
        let t = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return t
    }

    private mutating func expect(_ token: Token) throws {
        guard advance() == token else { throw ChatTemplateError(message: "expected \(token), found \(tokens[position - 1])") }
    }

    private mutating func expectName() throws -> String {
        guard case .name(let n) = advance() else { throw ChatTemplateError(message: "expected a name") }
        return n
    }

    /// Parses nodes until one of `terminators` opens a `{% %}` tag; returns that keyword (tag consumed up to it).
    private mutating func parseBlock(until terminators: Set<String>) throws -> ([TemplateNode], String?) {
        var nodes: [TemplateNode] = []
        while true {
            switch current {
            case .end:
                return (nodes, nil)
            case .text(let t):
                _ = advance()
                nodes.append(.text(t))
            case .open("{{"):
                let line = lines[position]
                _ = advance()
                let e = try parseExpression()
                try expect(.close)
                nodes.append(.located(line: line, .output(e)))
            case .open("{%"):
                let line = lines[position]
                _ = advance()
                let keyword = try expectName()
                if terminators.contains(keyword) { return (nodes, keyword) }
                nodes.append(.located(line: line, try parseStatement(keyword)))
            default:
                throw ChatTemplateError(message: "unexpected \(current)")
            }
        }
    }

    private mutating func parseStatement(_ keyword: String) throws -> TemplateNode {
        let level = depth
        defer { depth = level }
        try descend()
        switch keyword {
        case "if":
            var branches: [(TemplateExpression, [TemplateNode])] = []
            var condition = try parseExpression()
            try expect(.close)
            while true {
                let (body, end) = try parseBlock(until: ["elif", "else", "endif"])
                branches.append((condition, body))
                switch end {
                case "elif":
                    condition = try parseExpression()
                    try expect(.close)
                case "else":
                    try expect(.close)
                    let (otherwise, end2) = try parseBlock(until: ["endif"])
                    guard end2 == "endif" else { throw ChatTemplateError(message: "{% if %} without {% endif %}") }
                    try expect(.close)
                    return .conditional(branches, otherwise: otherwise)
                case "endif":
                    try expect(.close)
                    return .conditional(branches, otherwise: [])
                default:
                    throw ChatTemplateError(message: "{% if %} without {% endif %}")
                }
            }
        case "for":
            var variables = [try expectName()]
            while current == .symbol(",") { _ = advance(); variables.append(try expectName()) }
            guard advance() == .name("in") else { throw ChatTemplateError(message: "expected 'in' in {% for %}") }
            let sequence = try parseTernaryFree()
            var filter: TemplateExpression? = nil
            if current == .name("if") { _ = advance(); filter = try parseExpression() }
            try expect(.close)
            let (body, end) = try parseBlock(until: ["else", "endfor"])
            var otherwise: [TemplateNode] = []
            if end == "else" {
                try expect(.close)
                let (o, end2) = try parseBlock(until: ["endfor"])
                guard end2 == "endfor" else { throw ChatTemplateError(message: "{% for %} without {% endfor %}") }
                otherwise = o
            } else if end != "endfor" {
                throw ChatTemplateError(message: "{% for %} without {% endfor %}")
            }
            try expect(.close)
            return .loop(variables: variables, sequence: sequence, filter: filter, body: body, otherwise: otherwise)
        case "set":
            let target = try expectName()
            var attribute: String? = nil
            if current == .symbol(".") { _ = advance(); attribute = try expectName() }
            try expect(.symbol("="))
            let value = try parseExpression()
            try expect(.close)
            return .assign(target: target, attribute: attribute, value: value)
        case "generation":
            try expect(.close)
            let (body, end) = try parseBlock(until: ["endgeneration"])
            guard end == "endgeneration" else { throw ChatTemplateError(message: "{% generation %} without end") }
            try expect(.close)
            return .generation(body)
        default:
            throw ChatTemplateError(message: "the statement {% \(keyword) %} is not supported")
        }
    }

    // MARK: Expressions (Jinja precedence: if-else < or < and < not < comparisons < ~ < + - < * / < unary < filters < postfix)

    private mutating func parseExpression() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        try descend()
        let value = try parseOr()
        if current == .name("if") {
            _ = advance()
            let condition = try parseOr()
            var otherwise: TemplateExpression? = nil
            if current == .name("else") { _ = advance(); otherwise = try parseExpression() }
            return .conditional(value, condition: condition, otherwise: otherwise)
        }
        return value
    }

    /// A `for` sequence: no bare `if` (it starts the loop filter).
    private mutating func parseTernaryFree() throws -> TemplateExpression { try parseOr() }

    private mutating func parseOr() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var left = try parseAnd()
        while current == .name("or") { _ = advance(); try descend(); left = .binary("or", left, try parseAnd()) }
        return left
    }

    private mutating func parseAnd() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var left = try parseNot()
        while current == .name("and") { _ = advance(); try descend(); left = .binary("and", left, try parseNot()) }
        return left
    }

    private mutating func parseNot() throws -> TemplateExpression {
        if current == .name("not") {
            let level = depth
            defer { depth = level }
            _ = advance()
            try descend()
            return .unary("not", try parseNot())
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var left = try parseConcat()
        while true {
            if case .symbol(let s) = current, ["==", "!=", "<", ">", "<=", ">="].contains(s) {
                _ = advance()
                try descend()
                left = .binary(s, left, try parseConcat())
            } else if current == .name("in") {
                _ = advance()
                try descend()
                left = .binary("in", left, try parseConcat())
            } else if current == .name("not"), tokens[position + 1] == .name("in") {
                _ = advance(); _ = advance()
                try descend()
                left = .unary("not", .binary("in", left, try parseConcat()))
            } else if current == .name("is") {
                _ = advance()
                try descend()
                var negated = false
                if current == .name("not") { _ = advance(); negated = true }
                let test = try expectName()
                var arguments: [TemplateExpression] = []
                if current == .symbol("(") { arguments = try parseArguments().0 } else if case .string = current { arguments = [try parsePrimary()] }
                left = .test(left, test, negated: negated, arguments)
            } else {
                return left
            }
        }
    }

    private mutating func parseConcat() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var left = try parseAdditive()
        while current == .symbol("~") { _ = advance(); try descend(); left = .binary("~", left, try parseAdditive()) }
        return left
    }

    private mutating func parseAdditive() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var left = try parseMultiplicative()
        while case .symbol(let s) = current, s == "+" || s == "-" {
            _ = advance()
            try descend()
            left = .binary(s, left, try parseMultiplicative())
        }
        return left
    }

    private mutating func parseMultiplicative() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var left = try parseUnary()
        while case .symbol(let s) = current, ["*", "/", "//", "%"].contains(s) {
            _ = advance()
            try descend()
            left = .binary(s, left, try parseUnary())
        }
        return left
    }

    private mutating func parseUnary() throws -> TemplateExpression {
        if current == .symbol("-") {
            let level = depth
            defer { depth = level }
            _ = advance()
            try descend()
            return .unary("-", try parseUnary())
        }
        return try parseFiltered()
    }

    private mutating func parseFiltered() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var value = try parsePostfix()
        while current == .symbol("|") {
            _ = advance()
            try descend()
            let name = try expectName()
            var arguments: [TemplateExpression] = []
            if current == .symbol("(") { arguments = try parseArguments().0 }
            value = .filter(value, name, arguments)
        }
        return value
    }

    private mutating func parsePostfix() throws -> TemplateExpression {
        let level = depth
        defer { depth = level }
        var value = try parsePrimary()
        while true {
            if current == .symbol(".") {
                _ = advance()
                try descend()
                value = .attribute(value, try expectName())
            } else if current == .symbol("[") {
                _ = advance()
                try descend()
                var start: TemplateExpression? = nil
                if current != .symbol(":") { start = try parseExpression() }
                if current == .symbol(":") {
                    _ = advance()
                    var stop: TemplateExpression? = nil, step: TemplateExpression? = nil
                    if current != .symbol("]") && current != .symbol(":") { stop = try parseExpression() }
                    if current == .symbol(":") { _ = advance(); if current != .symbol("]") { step = try parseExpression() } }
                    value = .slice(value, start, stop, step)
                } else {
                    value = .index(value, start!)
                }
                try expect(.symbol("]"))
            } else if current == .symbol("(") {
                try descend()
                let (positional, keywords) = try parseArguments()
                value = .call(value, positional, keywords)
            } else {
                return value
            }
        }
    }

    private mutating func parseArguments() throws -> ([TemplateExpression], [(String, TemplateExpression)]) {
        try expect(.symbol("("))
        var positional: [TemplateExpression] = []
        var keywords: [(String, TemplateExpression)] = []
        while current != .symbol(")") {
            if case .name(let n) = current, tokens[position + 1] == .symbol("=") {
                _ = advance(); _ = advance()
                keywords.append((n, try parseExpression()))
            } else {
                positional.append(try parseExpression())
            }
            if current == .symbol(",") { _ = advance() } else { break }
        }
        try expect(.symbol(")"))
        return (positional, keywords)
    }

    private mutating func parsePrimary() throws -> TemplateExpression {
        switch advance() {
        case .string(var s):
            while case .string(let more) = current { _ = advance(); s += more }  // adjacent literals concatenate
            return .literal(.string(s))
        case .int(let n): return .literal(.int(n))
        case .double(let d): return .literal(.double(d))
        case .name(let n):
            switch n {
            case "true", "True": return .literal(.bool(true))
            case "false", "False": return .literal(.bool(false))
            case "none", "None": return .literal(.none)
            default: return .name(n)
            }
        case .symbol("("):
            let e = try parseExpression()
            if current == .symbol(",") {
                var items = [e]
                while current == .symbol(",") { _ = advance(); if current == .symbol(")") { break }; items.append(try parseExpression()) }
                try expect(.symbol(")"))
                return .list(items)
            }
            try expect(.symbol(")"))
            return e
        case .symbol("["):
            var items: [TemplateExpression] = []
            while current != .symbol("]") {
                items.append(try parseExpression())
                if current == .symbol(",") { _ = advance() } else { break }
            }
            try expect(.symbol("]"))
            return .list(items)
        case .symbol("{"):
            var pairs: [(TemplateExpression, TemplateExpression)] = []
            while current != .symbol("}") {
                let k = try parseExpression()
                try expect(.symbol(":"))
                pairs.append((k, try parseExpression()))
                if current == .symbol(",") { _ = advance() } else { break }
            }
            try expect(.symbol("}"))
            return .dict(pairs)
        case let t:
            throw ChatTemplateError(message: "unexpected \(t) in an expression")
        }
    }
}
