import Foundation
import Testing
@testable import ContextKitHTTP

@Suite struct PlainHTTPTests {
    /// The payload of `body` fed to a fresh decoder in pieces of `step` bytes.
    func decode(_ body: [UInt8], step: Int) throws -> (payload: [UInt8], complete: Bool) {
        var decoder = ChunkedTransferDecoder()
        var out: [UInt8] = []
        var i = 0
        while i < body.count {
            out += try decoder.feed(body[i..<min(i + step, body.count)])
            i += step
        }
        return (out, decoder.isComplete)
    }

    @Test func chunkedBodiesDecodeTheSameHoweverTheyAreSplit() throws {
        let body = Array("7\r\ndata: {\r\n1b;ext=1\r\n\"a\":\"é😀\"}\n\ndata: [DONE]\r\n0\r\nTrailer: x\r\n\r\n".utf8)
        let expected = Array("data: {\"a\":\"é😀\"}\n\ndata: [DONE]".utf8)
        for step in 1...body.count {
            let (payload, complete) = try decode(body, step: step)
            #expect(payload == expected, "split every \(step) bytes")
            #expect(complete)
        }
    }

    @Test func aBadChunkSizeIsAnError() {
        #expect(throws: ChunkedTransferDecoder.Failure.malformedChunkSize) { _ = try decode(Array("zz\r\nabc".utf8), step: 3) }
    }

    @Test func aChunkSizeOrTrailerLineThatNeverEndsIsRefused() {
        let endless = [UInt8](repeating: UInt8(ascii: "0"), count: ChunkedTransferDecoder.maximumLineLength + 1)
        #expect(throws: ChunkedTransferDecoder.Failure.lineTooLong) { _ = try decode(endless, step: 4096) }
        let trailer = Array("0\r\nX-Trailer: ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: ChunkedTransferDecoder.maximumLineLength)
        #expect(throws: ChunkedTransferDecoder.Failure.lineTooLong) { _ = try decode(trailer, step: 4096) }
    }

    @Test func anUnfinishedChunkedBodyIsNotComplete() throws {
        #expect(try decode(Array("5\r\nabc".utf8), step: 2).complete == false)
    }

    @Test func theResponseReaderFindsTheStatusAndTheBody() throws {
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8)
        for step in [1, 7, response.count] {
            var reader = PlainHTTPConnection.ResponseReader()
            var status: Int?
            var body: [UInt8] = []
            var i = 0
            while i < response.count {
                for part in try reader.take(response[i..<min(i + step, response.count)]) {
                    switch part {
                    case .status(let code, _): status = code
                    case .body(let data): body += data
                    }
                }
                i += step
            }
            #expect(status == 200)
            #expect(body == Array("hello".utf8))
            #expect(reader.isComplete)
        }
    }

    @Test func aContentLengthBodyEndsAtItsLength() throws {
        var reader = PlainHTTPConnection.ResponseReader()
        let parts = try reader.take(Array("HTTP/1.1 404 Not Found\r\ncontent-length: 3\r\n\r\nabcdef".utf8)[...])
        #expect(reader.isComplete)
        guard parts.count == 2, case .status(404, let headers) = parts[0], headers["content-length"] == "3", case .body(let data) = parts[1] else {
            Issue.record("unexpected parts \(parts)")
            return
        }
        #expect(data == Data("abc".utf8))
    }

    @Test func aConnectionClosedEarlyIsAnError() throws {
        var reader = PlainHTTPConnection.ResponseReader()
        _ = try reader.take(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8)[...])
        #expect(throws: (any Error).self) { try reader.end() }
        var untilClose = PlainHTTPConnection.ResponseReader()
        _ = try untilClose.take(Array("HTTP/1.1 200 OK\r\n\r\nabc".utf8)[...])
        try untilClose.end()
        #expect(untilClose.isComplete)
    }

    @Test func notHTTPIsAnError() {
        var reader = PlainHTTPConnection.ResponseReader()
        #expect(throws: (any Error).self) { _ = try reader.take(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)[...]) }
    }
}
