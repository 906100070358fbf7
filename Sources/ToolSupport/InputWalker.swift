import Foundation

/// One thing to read: standard input or a file.
package struct InputItem: Equatable, Sendable {
    package enum Source: Equatable, Sendable {
        case standardInput
        case file(String)
    }

    package let source: Source
    /// How the item is shown to the user: its path as found, or `-`.
    package let display: String
    /// Named on the command line (a binary file named directly is refused;
    /// one found in a folder is skipped).
    package let namedDirectly: Bool
    /// The size when known in advance (regular files), for progress.
    package let size: Int?
}

/// A path that could not be used, with the reason in the user's words.
package struct InputProblem: Equatable, Sendable {
    package let path: String
    package let reason: String
    /// How many items came before it, so a report can show it where it was
    /// given (`tokcount a missing b` lists `missing` between the two).
    package let position: Int
}

/// Turns command-line paths into the list of files to read: folders are walked
/// recursively in name order, skipping `.git` and, inside a git work tree,
/// what `.gitignore` ignores. Symbolic links to folders are not followed
/// (a link cycle would never end); links to files are read.
package enum InputWalker {
    package static func expand(_ arguments: [String], respectGitIgnore: Bool = true) -> (items: [InputItem], problems: [InputProblem]) {
        var items: [InputItem] = []
        var problems: [InputProblem] = []
        for argument in arguments {
            if argument == "-" {
                items.append(InputItem(source: .standardInput, display: "-", namedDirectly: true, size: nil))
                continue
            }
            switch kind(of: argument) {
            case .missing(let reason):
                problems.append(InputProblem(path: argument, reason: reason, position: items.count))
            case .directory:
                let ignore = respectGitIgnore ? GitIgnore(containing: argument) : nil
                walk(argument, ignore: ignore, into: &items, problems: &problems)
            case .file(let size):
                items.append(InputItem(source: .file(argument), display: argument, namedDirectly: true, size: size))
            case .device:
                // /dev/zero or /dev/urandom never end: refuse instead of reading until memory runs out.
                problems.append(
                    InputProblem(
                        path: argument, reason: "a device, not a file: it may never end; to count part of it, pipe it: head -c 1000000 \(argument) | tokcount",
                        position: items.count))
            case .other:
                // A FIFO (`<(cmd)`, /dev/stdin from a pipe): read it as a stream.
                items.append(InputItem(source: .file(argument), display: argument, namedDirectly: true, size: nil))
            }
        }
        return (items, problems)
    }

    enum Kind { case missing(String), directory, file(Int), device, other }

    static func kind(of path: String, followLinks: Bool = true) -> Kind {
        var st = stat()
        let rc = followLinks ? stat(path, &st) : lstat(path, &st)
        guard rc == 0 else { return .missing(String(cString: strerror(errno))) }
        return kind(st, path: path)
    }

    /// What `lstat` would say of `name` inside the folder open as `folder`.
    static func kind(of name: UnsafePointer<CChar>, in folder: Int32, path: String) -> Kind {
        var st = stat()
        guard fstatat(folder, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing(String(cString: strerror(errno))) }
        return kind(st, path: path)
    }

    private static func kind(_ st: stat, path: String) -> Kind {
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file(Int(st.st_size))
        // A terminal is a character device too, and is read like standard input.
        case S_IFCHR, S_IFBLK: return isTerminal(path) ? .other : .device
        default: return .other
        }
    }

    private static func isTerminal(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return isatty(fd) == 1
    }

    /// Walks a folder through its descriptor: `readdir` for the names and
    /// `fstatat` for what each is, one lookup of one name per entry.
    ///
    /// Performance notes: FileManager's listing and an `lstat` of each full
    /// path cost the calling thread 41 ms on the bench's folder of 10,000 files
    /// (perf, `tokcount -j 2 --json`), a quarter of the whole run: the kernel
    /// resolved every path from `/` again, and each name became an NSString on
    /// the way. Counting waits for the walk, so this is wall time.
    private static func walk(_ directory: String, ignore: GitIgnore?, into items: inout [InputItem], problems: inout [InputProblem]) {
        guard let stream = opendir(directory) else {
            problems.append(InputProblem(path: directory, reason: "cannot list the folder: \(String(cString: strerror(errno)))", position: items.count))
            return
        }
        defer { closedir(stream) }
        let folder = dirfd(stream)
        var entries: [(name: String, path: String, kind: Kind)] = []
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { problems.append(InputProblem(path: directory, reason: "cannot list the folder: \(String(cString: strerror(errno)))", position: items.count)) }
                break
            }
            let listed = withUnsafePointer(to: &entry.pointee.d_name) { raw in
                raw.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: raw.pointee)) { cName -> (String, String, Kind)? in
                    let name = String(cString: cName)
                    if name == "." || name == ".." || name == ".git" { return nil }
                    let path = prefix + name
                    return (name, path, kind(of: cName, in: folder, path: path))
                }
            }
            if let listed { entries.append(listed) }
        }
        entries.sort { $0.name < $1.name }
        for (_, path, own) in entries {
            if case .directory = own {
                if ignore?.isIgnored(path, isDirectory: true) == true { continue }
                walk(path, ignore: ignore, into: &items, problems: &problems)
                continue
            }
            if ignore?.isIgnored(path, isDirectory: false) == true { continue }
            // Only a link needs a second look (at what it points to): one stat per plain file.
            var target = own
            if case .other = own { target = kind(of: path) }
            switch target {
            case .file(let size):
                items.append(InputItem(source: .file(path), display: path, namedDirectly: false, size: size))
            case .missing(let why):
                problems.append(InputProblem(path: path, reason: why, position: items.count))  // a dangling link
            case .directory, .device, .other:
                continue  // links to folders, sockets, devices: not text to count
            }
        }
    }
}
