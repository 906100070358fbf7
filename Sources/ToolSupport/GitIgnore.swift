#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The ignore rules of a git work tree: `.gitignore` files and `.git/info/exclude`,
/// with git's semantics for the cases that matter when listing files
/// (anchoring, `**`, `!` negation, directory-only patterns, last match wins).
///
/// Reading the rules ourselves rather than asking `git ls-files` keeps the tools
/// free of a process spawn and of a dependency on git being installed.
package final class GitIgnore {
    /// The work tree's root (the directory holding `.git`).
    package let root: String
    private var rulesByDirectory: [String: [Rule]] = [:]

    struct Rule {
        let segments: [String]
        let negated: Bool
        let directoryOnly: Bool
    }

    /// The ignore rules of the work tree that contains `path`, or nil when it is in none.
    package init?(containing path: String) {
        var dir = URL(fileURLWithPath: path).standardizedFileURL.path
        while true {
            if FileManager.default.fileExists(atPath: dir + "/.git") { break }
            let parent = (dir as NSString).deletingLastPathComponent
            if parent == dir || parent.isEmpty { return nil }
            dir = parent
        }
        root = dir
        rulesByDirectory[""] = Self.parse(fileAt: root + "/.git/info/exclude") + Self.parse(fileAt: root + "/.gitignore")
    }

    /// Whether git ignores `path` (absolute or relative to the current directory),
    /// judged on the path itself: callers walk top-down and do not enter an
    /// ignored folder, which is how git keeps a folder's contents out. A folder
    /// the user names explicitly is read even if ignored, as with `rg` or `git add -f`.
    package func isIgnored(_ path: String, isDirectory: Bool) -> Bool {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard absolute.hasPrefix(root + "/") else { return false }
        let components = absolute.dropFirst(root.count + 1).split(separator: "/").map(String.init)
        return !components.isEmpty && matches(components, isDirectory: isDirectory)
    }

    /// The last rule that matches decides, with deeper `.gitignore` files
    /// taking precedence over shallower ones, as git reads them.
    private func matches(_ components: [String], isDirectory: Bool) -> Bool {
        var ignored = false
        for level in 0..<components.count {
            let base = components[0..<level].joined(separator: "/")
            let relative = Array(components[level...])
            for rule in rules(in: base) where !(rule.directoryOnly && !isDirectory) {
                if Self.match(rule.segments[...], relative[...]) { ignored = !rule.negated }
            }
        }
        return ignored
    }

    private func rules(in directory: String) -> [Rule] {
        if let cached = rulesByDirectory[directory] { return cached }
        let rules = Self.parse(fileAt: root + "/" + directory + "/.gitignore")
        rulesByDirectory[directory] = rules
        return rules
    }

    static func parse(fileAt path: String) -> [Rule] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).compactMap { parse(line: String($0)) }
    }

    static func parse(line raw: String) -> Rule? {
        var line = Substring(raw)
        while line.hasSuffix(" ") && !line.hasSuffix("\\ ") { line = line.dropLast() }
        guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
        var negated = false
        if line.hasPrefix("!") { negated = true; line = line.dropFirst() } else if line.hasPrefix("\\!") || line.hasPrefix("\\#") { line = line.dropFirst() }
        var directoryOnly = false
        if line.hasSuffix("/") { directoryOnly = true; line = line.dropLast() }
        guard !line.isEmpty else { return nil }
        // A slash at the start or in the middle anchors the pattern to the file's directory.
        let anchored = line.contains("/")
        if line.hasPrefix("/") { line = line.dropFirst() }
        var segments = line.split(separator: "/").map(String.init)
        if !anchored { segments.insert("**", at: 0) }
        return Rule(segments: segments, negated: negated, directoryOnly: directoryOnly)
    }

    /// Pattern segments against path components; `**` spans zero or more components.
    static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return !path.isEmpty }
            var p = path
            while true {
                if match(rest, p) { return true }
                guard !p.isEmpty else { return false }
                p = p.dropFirst()
            }
        }
        guard let component = path.first, fnmatch(first, component, 0) == 0 else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }
}
