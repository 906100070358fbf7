import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to its end with `posix_spawn` and `waitpid`.
///
/// Foundation's `Process` on Linux learns that a child ended when a socket it
/// hands down closes; a grandchild that outlives the child (a server the child
/// starts) keeps that socket open and `waitUntilExit` never returns. Waiting
/// on the pid itself has no such hole.
public enum ChildProcess {
    /// Runs `executable` with `arguments`, stdin from /dev/null, stdout and
    /// stderr together into a scratch file; returns the exit status (128 + the
    /// signal when killed) and what it printed.
    public static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString).log").path
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw ChildProcessError(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let signal = status & 0x7F
        return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, output)
    }

    /// A loopback TCP port nothing listens on now (the kernel picks it).
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcessError(message: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw ChildProcessError(message: "bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A helper program could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    /// An error that says `message`.
    public init(message: String) { self.message = message }
}
