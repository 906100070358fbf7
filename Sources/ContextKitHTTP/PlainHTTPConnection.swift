#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Render
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `http://` request over a plain socket, read on demand: each element
/// the consumer asks for is one `poll` and `recv` on a serial queue, so the
/// answer is never read faster than it is used (a huge answer does not pile
/// up in memory) and nothing runs while the server is silent.
///
/// Why not URLSession: on Linux, swift-corelibs-foundation's URLSession keeps
/// its libdispatch/libcurl event loop spinning while it waits for a slow
/// answer — measured at 30–80% of a core for as long as a local model takes
/// to generate, stolen from the model server on a small machine. Local
/// servers (llama-server, Ollama, LM Studio, vLLM on a LAN) speak plain
/// HTTP/1.1, which takes little code to read; `https://` still goes through
/// URLSession.
///
/// Errors are `NSURLErrorDomain` errors, as URLSession's are, so callers
/// handle both paths alike. `timeoutInterval` is how long the connection may
/// stay silent (connect, then between reads).
package final class PlainHTTPConnection: @unchecked Sendable {
    // @unchecked Sendable: the request is immutable, and the descriptor and the cancelled flag are touched only under `lock`.
    private let request: URLRequest
    private let queue = DispatchQueue(label: "PlainHTTPConnection")
    private let lock = NSLock()
    /// Guarded by `lock` (cancellation comes from another thread).
    private var descriptor: Int32 = -1
    private var cancelled = false
    /// Used on `queue` only.
    private var response = ResponseReader()
    private var pending: [HTTPByteStream.Part] = []
    private var finished = false
    private var buffer = [UInt8](repeating: 0, count: 65536)

    private init(_ request: URLRequest) { self.request = request }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The response to `request`, read as the consumer asks for it.
    package static func open(_ request: URLRequest) -> AsyncThrowingStream<HTTPByteStream.Part, any Error> {
        let connection = PlainHTTPConnection(request)
        return AsyncThrowingStream(unfolding: { try await connection.next() })
    }

    private func next() async throws -> HTTPByteStream.Part? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(
                        with: Result {
                            do { return try self.step() } catch {
                                self.finish()
                                throw self.lock.withLock { self.cancelled } ? Self.error(NSURLErrorCancelled, "cancelled") : error
                            }
                        })
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Wakes a blocked `poll` (it returns) so the request stops.
    private func cancel() {
        lock.withLock {
            cancelled = true
            if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    private func finish() {
        finished = true
        lock.withLock {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    static func error(_ code: Int, _ description: String) -> NSError {
        NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: description])
    }

    private var timeout: Int32 { Int32(clamping: Int(max(request.timeoutInterval, 0.001) * 1000)) }

    /// The next part of the response (on `queue`): connects and sends the
    /// request the first time, then reads until a part is complete.
    private func step() throws -> HTTPByteStream.Part? {
        if pending.isEmpty && !finished {
            var fd = lock.withLock { descriptor }
            if fd < 0 { fd = try sendRequest() }
            while pending.isEmpty && !response.isComplete {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&pfd, 1, timeout)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(NSURLErrorNetworkConnectionLost, String(cString: strerror(errno)))
                }
                if ready == 0 { throw Self.error(NSURLErrorTimedOut, "no data for \(NumberFormat.duration(seconds: request.timeoutInterval))") }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(NSURLErrorNetworkConnectionLost, String(cString: strerror(errno)))
                }
                if n == 0 {
                    try response.end()
                    break
                }
                pending += try response.take(buffer[..<n])
            }
            if pending.isEmpty { finish() }
        }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    /// Connects and sends the request; returns the socket.
    private func sendRequest() throws -> Int32 {
        guard let url = request.url, let host = url.host, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw Self.error(NSURLErrorBadURL, "not an http URL: \(request.url?.absoluteString ?? "none")")
        }
        let port = url.port ?? 80
        let fd = try connectSocket(host: host, port: port, timeout: timeout)
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        var head = "\(request.httpMethod ?? "GET") \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in request.allHTTPHeaderFields ?? [:] where !["host", "connection", "content-length"].contains(name.lowercased()) {
            head += "\(name): \(value)\r\n"
        }
        let body = request.httpBody ?? Data()
        if !body.isEmpty || request.httpMethod == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try sendAll(fd, Data((head + "\r\n").utf8) + body)
        return fd
    }

    /// Connects within `timeout` milliseconds to the first address of `host` that answers.
    private func connectSocket(host: String, port: Int, timeout: Int32) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>? = nil
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Self.error(NSURLErrorCannotFindHost, "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else { reason = String(cString: strerror(errno)); continue }
            let registered: Bool = lock.withLock {
                guard !cancelled else { return false }
                descriptor = fd
                return true
            }
            guard registered else { close(fd); throw Self.error(NSURLErrorCancelled, "cancelled") }
            #if canImport(Darwin)
                var one: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen)
            if result < 0 && errno == EINPROGRESS {
                var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&pfd, 1, timeout) == 1 {
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    result = error == 0 ? 0 : -1
                    errno = error
                } else {
                    errno = ETIMEDOUT
                }
            }
            if result == 0 {
                _ = fcntl(fd, F_SETFL, flags)
                return fd
            }
            reason = String(cString: strerror(errno))
            lock.withLock { descriptor = -1 }
            close(fd)
        }
        throw Self.error(NSURLErrorCannotConnectToHost, "could not connect to the server (\(reason))")
    }

    private func sendAll(_ fd: Int32, _ data: Data) throws {
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw Self.error(NSURLErrorNetworkConnectionLost, String(cString: strerror(errno)))
                }
                offset += n
            }
        }
    }

    /// An HTTP/1.1 response read piece by piece: the head, then the body
    /// (chunked, of a given length, or up to the end of the connection).
    struct ResponseReader {
        private var head: [UInt8] = []
        private var headDone = false
        private var chunked: ChunkedTransferDecoder? = nil
        private var remaining: Int? = nil
        private(set) var isComplete = false

        mutating func take(_ bytes: ArraySlice<UInt8>) throws -> [HTTPByteStream.Part] {
            var parts: [HTTPByteStream.Part] = []
            var body = bytes
            if !headDone {
                head.append(contentsOf: bytes)
                guard let end = Self.headEnd(head) else {
                    if head.count > 65536 { throw PlainHTTPConnection.error(NSURLErrorBadServerResponse, "response headers too long") }
                    return []
                }
                headDone = true
                body = head[end...]
                let (status, headers) = try Self.parseHead(head[..<end])
                head = []
                parts.append(.status(status, headers: headers))
                if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                    chunked = ChunkedTransferDecoder()
                } else if let length = headers["content-length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                    remaining = length
                }
            }
            if chunked != nil {
                let payload: [UInt8]
                do { payload = try chunked!.feed(body) } catch {
                    let what = error == .lineTooLong ? "a chunk-size or trailer line longer than \(ChunkedTransferDecoder.maximumLineLength) bytes" : "a bad chunk size"
                    throw PlainHTTPConnection.error(NSURLErrorBadServerResponse, "malformed chunked body: \(what)")
                }
                if !payload.isEmpty { parts.append(.body(Data(payload))) }
                isComplete = chunked!.isComplete
            } else if let left = remaining {
                let piece = body.prefix(left)
                if !piece.isEmpty { parts.append(.body(Data(piece))) }
                remaining = left - piece.count
                isComplete = remaining == 0
            } else if !body.isEmpty {
                parts.append(.body(Data(body)))
            }
            return parts
        }

        /// The connection closed: fine only when the body had no stated end.
        mutating func end() throws {
            guard headDone, chunked == nil, remaining == nil || remaining == 0 else {
                throw PlainHTTPConnection.error(NSURLErrorNetworkConnectionLost, "the server closed the connection before the end of the response")
            }
            isComplete = true
        }

        static func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for i in 3..<bytes.count where bytes[i] == 0x0A && bytes[i - 1] == 0x0D && bytes[i - 2] == 0x0A && bytes[i - 3] == 0x0D {
                return i + 1
            }
            return nil
        }

        static func parseHead(_ bytes: ArraySlice<UInt8>) throws -> (Int, [String: String]) {
            let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
            let statusWords = lines.first?.split(separator: " ") ?? []
            guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/"), let status = Int(statusWords[1]) else {
                throw PlainHTTPConnection.error(NSURLErrorBadServerResponse, "not an HTTP response: \(lines.first ?? "")")
            }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            return (status, headers)
        }
    }
}
