/// SVG markup with attributes in sorted order (so output never depends on
/// dictionary order) and XML escaping.
package struct SVGText {
    package var text = ""
    private var depth = 0

    package mutating func open(_ name: String, _ attributes: [String: String] = [:]) {
        text += indent + "<" + name + Self.attributes(attributes) + ">\n"
        depth += 1
    }

    package mutating func close(_ name: String) {
        depth -= 1
        text += indent + "</" + name + ">\n"
    }

    package mutating func element(_ name: String, _ attributes: [String: String] = [:], text content: String? = nil) {
        if let content {
            text += indent + "<" + name + Self.attributes(attributes) + ">" + Self.escape(content) + "</" + name + ">\n"
        } else {
            text += indent + "<" + name + Self.attributes(attributes) + "/>\n"
        }
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    private static func attributes(_ attributes: [String: String]) -> String {
        attributes.keys.sorted().map { " \($0)=\"\(escape(attributes[$0]!))\"" }.joined()
    }

    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
