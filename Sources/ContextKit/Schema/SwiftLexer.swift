/// Splits Swift source into the tokens `GenerableSourceParser` needs: names,
/// attributes, string / regex / number literals and punctuation, with
/// comments dropped and line numbers kept for messages.
///
/// It is not a Swift compiler: it only has to be right about the parts of a
/// file that can appear in `@Generable` declarations, and to stay in step
/// (balanced braces, strings that contain braces) through everything else.
struct SwiftLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    /// Index of the first scalar of the current line, for columns.
    private var lineStart = 0
    private var tokens: [SwiftToken] = []

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    static func tokenize(_ text: String) throws(SchemaError) -> [SwiftToken] {
        var lexer = SwiftLexer(text)
        try lexer.run()
        return lexer.tokens
    }

    private mutating func run() throws(SchemaError) {
        while index < scalars.count {
            let before = tokens.count
            let column = index - lineStart + 1
            let startLine = line
            do {
                try step()
            } catch {
                // Every error the lexer finds means the text does not lex as Swift: say where its token starts.
                guard case let .unsupportedSwift(line, construct, hint) = error else { throw error }
                throw .swiftSyntax(line: line, column: line == startLine ? column : 1, problem: construct, hint: hint)
            }
            for new in before..<tokens.count { tokens[new].column = column }
        }
    }

    /// Reads one token, or skips one piece of whitespace or one comment.
    private mutating func step() throws(SchemaError) {
        let c = scalars[index]
        if c == "\n" { line += 1; index += 1; lineStart = index; return }
        if c.properties.isWhitespace || c == "\u{FEFF}" { index += 1; return }
        if c == "/" && peek(1) == "/" { skipLineComment(); return }
        if c == "/" && peek(1) == "*" { try skipBlockComment(); return }
        if c == "\"" { try lexString(rawHashes: 0); return }
        if c == "#" {
            var hashes = 0
            while peek(hashes) == "#" { hashes += 1 }
            if peek(hashes) == "\"" { index += hashes; try lexString(rawHashes: hashes); return }
            if peek(hashes) == "/" { index += hashes; try lexRegex(hashes: hashes); return }
            index += 1
            let name = lexName()
            tokens.append(SwiftToken(kind: .directive, text: "#" + name, line: line))
            return
        }
        if c == "@" {
            index += 1
            tokens.append(SwiftToken(kind: .attribute, text: lexName(), line: line))
            return
        }
        if c == "`" {
            index += 1
            let name = lexName()
            if peek(0) == "`" { index += 1 }
            tokens.append(SwiftToken(kind: .identifier, text: name, line: line))
            return
        }
        if isNameStart(c) {
            tokens.append(SwiftToken(kind: .identifier, text: lexName(), line: line))
            return
        }
        if c.properties.numericType != nil, ("0"..."9").contains(c) {
            lexNumber()
            return
        }
        if c == "/" && regexMayStartHere() { try lexRegex(hashes: 0); return }
        lexSymbol()
    }

    // MARK: Pieces

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func isNameStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }

    private func isNamePart(_ c: Unicode.Scalar) -> Bool {
        isNameStart(c) || ("0"..."9").contains(c) || c.properties.generalCategory == .nonspacingMark
    }

    private mutating func lexName() -> String {
        var name = ""
        while let c = peek(0), isNamePart(c) {
            name.unicodeScalars.append(c)
            index += 1
        }
        return name
    }

    private mutating func skipLineComment() {
        while let c = peek(0), c != "\n" { index += 1 }
    }

    private mutating func skipBlockComment() throws(SchemaError) {
        let startLine = line
        var depth = 0
        repeat {
            guard let c = peek(0) else {
                throw .unsupportedSwift(line: startLine, construct: "unterminated /* comment", hint: "close the comment with */")
            }
            if c == "/" && peek(1) == "*" { depth += 1; index += 2; continue }
            if c == "*" && peek(1) == "/" { depth -= 1; index += 2; continue }
            if c == "\n" { line += 1; lineStart = index + 1 }
            index += 1
        } while depth > 0
    }

    private mutating func lexNumber() {
        var text = ""
        let startLine = line
        if peek(0) == "0", let radix = peek(1), radix == "x" || radix == "b" || radix == "o" {
            text += "0" + String(radix)
            index += 2
        }
        while let c = peek(0) {
            if ("0"..."9").contains(c) || c == "_" || (text.hasPrefix("0x") && c.properties.isASCIIHexDigit) {
                if c != "_" { text.unicodeScalars.append(c) }
                index += 1
            } else if c == ".", let next = peek(1), ("0"..."9").contains(next) {
                text += "."
                index += 1
            } else if c == "e" || c == "E", !text.hasPrefix("0x"), let next = peek(1), ("0"..."9").contains(next) || next == "-" || next == "+" {
                text.unicodeScalars.append(c)
                text.unicodeScalars.append(next)
                index += 2
            } else {
                break
            }
        }
        tokens.append(SwiftToken(kind: .number, text: text, line: startLine))
    }

    private mutating func lexSymbol() {
        let startLine = line
        for symbol in ["...", "..<", "->", "==", "!=", "&&", "||", "??"] {
            let scalarsOfSymbol = Array(symbol.unicodeScalars)
            if (0..<scalarsOfSymbol.count).allSatisfy({ peek($0) == scalarsOfSymbol[$0] }) {
                index += scalarsOfSymbol.count
                tokens.append(SwiftToken(kind: .symbol, text: symbol, line: startLine))
                return
            }
        }
        tokens.append(SwiftToken(kind: .symbol, text: String(scalars[index]), line: startLine))
        index += 1
    }

    /// A `/` starts a regex literal where a value is expected, which in the
    /// declarations read here means right after `(`, `,`, `[`, `:` or `=`.
    private func regexMayStartHere() -> Bool {
        guard let previous = tokens.last, previous.kind == .symbol else { return false }
        guard ["(", ",", "[", ":", "="].contains(previous.text) else { return false }
        guard let next = peek(1) else { return false }
        return !next.properties.isWhitespace
    }

    private mutating func lexRegex(hashes: Int) throws(SchemaError) {
        let startLine = line
        index += 1
        var pattern = ""
        while true {
            guard let c = peek(0), c != "\n" || hashes > 0 else {
                throw .unsupportedSwift(line: startLine, construct: "unterminated regex literal", hint: "close it with /")
            }
            if c == "\\", let next = peek(1) {
                pattern.unicodeScalars.append(c)
                pattern.unicodeScalars.append(next)
                index += 2
                continue
            }
            if c == "/" && (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                index += 1 + hashes
                break
            }
            if c == "\n" { line += 1; lineStart = index + 1 }
            pattern.unicodeScalars.append(c)
            index += 1
        }
        tokens.append(SwiftToken(kind: .regex, text: pattern, line: startLine))
    }

    // MARK: Strings

    private mutating func lexString(rawHashes: Int) throws(SchemaError) {
        let startLine = line
        if peek(0) == "\"" && peek(1) == "\"" && peek(2) == "\"" {
            index += 3
            try lexMultilineString(rawHashes: rawHashes, startLine: startLine)
            return
        }
        index += 1
        var value = ""
        var interpolated = false
        while true {
            guard let c = peek(0), c != "\n" else {
                throw .unsupportedSwift(line: startLine, construct: "unterminated string literal", hint: "close the string with \"")
            }
            if c == "\"" && closesRaw(rawHashes, after: 1) {
                index += 1 + rawHashes
                break
            }
            if c == "\\" && closesRaw(rawHashes, after: 1) {
                index += 1 + rawHashes
                try lexEscape(into: &value, interpolated: &interpolated, startLine: startLine)
                continue
            }
            value.unicodeScalars.append(c)
            index += 1
        }
        tokens.append(SwiftToken(kind: interpolated ? .interpolatedString : .string, text: value, line: startLine))
    }

    /// `"""` strings: the content lines, minus the indentation of the closing
    /// delimiter, without the first and last line breaks; a `\` at a line's
    /// end joins it with the next.
    private mutating func lexMultilineString(rawHashes: Int, startLine: Int) throws(SchemaError) {
        var lines: [[Unicode.Scalar]] = [[]]
        var joined: Set<Int> = []
        var interpolated = false
        while true {
            guard let c = peek(0) else {
                throw .unsupportedSwift(line: startLine, construct: "unterminated multi-line string", hint: "close it with \"\"\"")
            }
            if c == "\"" && peek(1) == "\"" && peek(2) == "\"" && closesRaw(rawHashes, after: 3) {
                index += 3 + rawHashes
                break
            }
            if c == "\\" && closesRaw(rawHashes, after: 1) {
                index += 1 + rawHashes
                if peek(0) == "\n" {
                    joined.insert(lines.count - 1)
                    continue
                }
                var escaped = ""
                try lexEscape(into: &escaped, interpolated: &interpolated, startLine: startLine)
                lines[lines.count - 1].append(contentsOf: escaped.unicodeScalars)
                continue
            }
            if c == "\n" {
                line += 1
                lineStart = index + 1
                lines.append([])
            } else {
                lines[lines.count - 1].append(c)
            }
            index += 1
        }
        // Line 0 is the rest of the opening line (empty); the last line is the closing indentation.
        let indentation = lines.last ?? []
        let body = Array(lines.indices.dropFirst().dropLast())
        var text = ""
        for (offset, number) in body.enumerated() {
            let content = lines[number]
            let stripped = content.starts(with: indentation) ? content.dropFirst(indentation.count) : content[...]
            text.unicodeScalars.append(contentsOf: stripped)
            if offset < body.count - 1 && !joined.contains(number) { text += "\n" }
        }
        tokens.append(SwiftToken(kind: interpolated ? .interpolatedString : .string, text: text, line: startLine))
    }

    private func closesRaw(_ hashes: Int, after offset: Int) -> Bool {
        (0..<hashes).allSatisfy { peek(offset + $0) == "#" }
    }

    private mutating func lexEscape(into value: inout String, interpolated: inout Bool, startLine: Int) throws(SchemaError) {
        guard let c = peek(0) else { return }
        index += 1
        switch c {
        case "n": value += "\n"
        case "t": value += "\t"
        case "r": value += "\r"
        case "0": value += "\u{0}"
        case "\"": value += "\""
        case "'": value += "'"
        case "\\": value += "\\"
        case "u":
            guard peek(0) == "{" else {
                throw .unsupportedSwift(line: startLine, construct: "escape \\u without {...}", hint: "write Unicode escapes as \\u{1F600}")
            }
            index += 1
            var digits = ""
            while let d = peek(0), d != "}" { digits.unicodeScalars.append(d); index += 1 }
            index += 1
            guard let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                throw .unsupportedSwift(line: startLine, construct: "escape \\u{\(digits)}", hint: "use a valid Unicode scalar value")
            }
            value.unicodeScalars.append(scalar)
        case "(":
            interpolated = true
            var depth = 1
            while let d = peek(0), depth > 0 {
                if d == "(" { depth += 1 }
                if d == ")" { depth -= 1 }
                if d == "\n" { line += 1; lineStart = index + 1 }
                index += 1
            }
            value += "\\(…)"
        default:
            throw .unsupportedSwift(line: startLine, construct: "escape \\\(c) in a string", hint: "use one of \\n \\t \\r \\0 \\\" \\' \\\\ \\u{...}")
        }
    }
}
