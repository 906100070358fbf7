import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP server on 127.0.0.1 whose every answer a test writes byte by
/// byte: a chunked body, a status with `Retry-After`, silence, a trickle.
/// Each connection gets a thread of its own (off Swift concurrency's pool,
/// see `offThePool`), reads one request and hands it to `reply`, which
/// writes the raw response; the connection closes when `reply` returns.
public final class LocalHTTPServer: @unchecked Sendable {
    /// One request as it arrived.
    public struct Request: Sendable {
        /// `GET`, `POST`, …
        public let method: String
        /// The path and query, as sent.
        public let path: String
        /// The headers, names in lower case.
        public let headers: [String: String]
        /// The body (read to its `Content-Length`).
        public let body: Data
        /// When the request's head was read.
        public let arrived: ContinuousClock.Instant
        /// How many requests the server had before this one.
        public fileprivate(set) var number = 0
    }

    /// The connection a reply writes to, used by that reply's thread only.
    public struct Connection: Sendable {
        fileprivate let socket: Int32

        /// Writes `text` as UTF-8 and sends it at once; false once the client has gone.
        @discardableResult public func send(_ text: String) -> Bool {
            // A client that hung up makes the send fail with EPIPE instead of
            // raising SIGPIPE, which would end the whole test process: MSG_NOSIGNAL
            // here, SO_NOSIGPIPE on the socket where there is no such flag.
            #if os(Linux)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes.withUnsafeBytes { raw in
                    #if canImport(Glibc)
                        Glibc.send(socket, raw.baseAddress! + sent, raw.count - sent, flags)
                    #else
                        Darwin.send(socket, raw.baseAddress! + sent, raw.count - sent, flags)
                    #endif
                }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                sent += n
            }
            return true
        }
    }

    /// `http://127.0.0.1:PORT`.
    public let url: URL
    private let listener: Int32
    private let reply: @Sendable (Request, Connection) -> Void
    private let lock = NSLock()
    private var received: [Request] = []

    /// Starts listening on a free port; `reply` answers each request.
    public init(_ reply: @escaping @Sendable (Request, Connection) -> Void) throws {
        self.reply = reply
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// A server answering `routes[path]` with 200 and that JSON, anything else with 404.
    public static func json(_ routes: [String: String]) throws -> LocalHTTPServer {
        try LocalHTTPServer { request, connection in
            guard let body = routes[request.path] else {
                connection.send("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found")
                return
            }
            connection.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
    }

    /// Stops accepting connections.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Every request so far, in the order they arrived.
    public var requests: [Request] { lock.withLock { received } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard var request = readRequest(client) else { return }
        lock.withLock {
            request.number = received.count
            received.append(request)
        }
        reply(request, Connection(socket: client))
    }

    private func readRequest(_ client: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        func more() -> Bool {
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return false }
            bytes += buffer[..<n]
            return true
        }
        var headEnd: Int?
        while headEnd == nil {
            guard more() else { return nil }
            headEnd = bytes.indices.dropFirst(3).first { bytes[$0 - 3...$0] == [0x0D, 0x0A, 0x0D, 0x0A] }.map { $0 + 1 }
        }
        let arrived = ContinuousClock.now
        let lines = String(decoding: bytes[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let words = lines[0].split(separator: " ")
        guard words.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while bytes.count - headEnd! < length { guard more() else { return nil } }
        return Request(
            method: String(words[0]), path: String(words[1]), headers: headers,
            body: Data(bytes[headEnd!..<(headEnd! + length)]), arrived: arrived)
    }
}
