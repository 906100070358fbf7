#!/usr/bin/env python3
"""A misbehaving OpenAI-compatible server on 127.0.0.1, for the reliability tests.

The first path segment picks the behaviour, so one server serves every case:
a client given the base URL http://127.0.0.1:PORT/truncated asks for
/truncated/v1/chat/completions and gets a stream cut off mid-answer. A tag
after a dot (/status-500.run7) keeps its own request count, so tests running
at the same time do not share counts.

    ok              a correct answer (SSE when the request asks to stream, else JSON):
                    a summary as JSON, so the summary engine can use it
    ok-then-never   ok for the first 2 chat requests of its tag, then never-answers
    never-answers   reads the request, then sends nothing until the client leaves
    slow-answer     silent for --slow-seconds (as a local model reading a long prompt),
                    then ok; used to measure what a client spends while it waits
    streams-forever 200, then a content delta (or a JSON space) every 0.2 s, forever
    status-500      500 with a JSON error body
    status-429      429 with Retry-After: 2 and a JSON error body
    status-429-long 429 with Retry-After: 3600
    rate-limited    429 with Retry-After: 1 for the first request of its tag; a later one
                    that comes before that second has passed is refused again and
                    counted in /stats as "rate-limited.TAG:early", one after it is ok
    rate-limited-bare  429 without Retry-After for the first request of its tag, then ok
    malformed-sse   200 text/event-stream with lines that are not events or not JSON
    truncated       200, part of an answer, then the connection closes
    non-json-error  502 with an HTML body
    huge            200 with --huge-mb MB of answer, as fast as the client reads
    huge-error      500 with --huge-mb MB of error body
    huge-line       200, then one SSE line of --huge-mb MB that never ends

GET /<behaviour>/v1/models and /<behaviour>/props behave the same way
(ok-then-never, slow-answer and the rate-limited ones answer them as ok). GET /stats says how many chat requests
each behaviour and tag has had (to check retries).

The server prints `listening on http://127.0.0.1:PORT` once ready, and exits
when its standard input closes (the test that started it has gone) or after
--lifetime seconds, whichever comes first. Python standard library only.
"""
import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TICK = 0.2
ANSWER = json.dumps({"headline": "A hostile server answered", "points": ["One point.", "Two points.", "Three points."]})
counts = {}
# When each rate-limited tag may ask again (time.monotonic()).
allowed_after = {}
counts_lock = threading.Lock()


def sse(obj):
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def delta(text, finish=None):
    return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": finish}]}


def completion(text):
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 2}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    huge_bytes = 64 << 20
    slow_seconds = 10.0
    deadline = 0.0

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.handle_any(streaming=False)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            streaming = bool(json.loads(body or b"{}").get("stream"))
        except ValueError:
            streaming = False
        self.handle_any(streaming)

    def handle_any(self, streaming):
        segment = self.path.strip("/").split("/")[0].split("?")[0]
        behaviour = segment.split(".")[0]
        if behaviour == "stats":
            with counts_lock:
                return self.reply(200, "application/json", json.dumps(counts).encode())
        is_chat = self.path.rstrip("/").endswith("/chat/completions")
        if is_chat:
            with counts_lock:
                counts[segment] = counts.get(segment, 0) + 1
                self.request_number = counts[segment]
        elif behaviour in ("ok-then-never", "rate-limited", "rate-limited-bare", "slow-answer"):
            behaviour = "ok"
        self.segment = segment
        action = getattr(self, "b_" + behaviour.replace("-", "_"), None)
        if action is None:
            return self.reply(404, "application/json", b'{"error":{"message":"no such behaviour"}}')
        try:
            action(streaming)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should
        self.close_connection = True

    def reply(self, status, content_type, body, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def start_stream(self, content_type):
        """Headers for a body of unknown length: sent until the connection closes."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()

    def send(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    def alive(self):
        return time.monotonic() < self.deadline

    # Behaviours

    def b_ok(self, streaming):
        if self.path.endswith("/models"):
            return self.reply(200, "application/json", b'{"data":[{"id":"hostile"}]}')
        if self.path.endswith("/props"):
            return self.reply(200, "application/json", b'{"default_generation_settings":{"n_ctx":4096}}')
        if not streaming:
            return self.reply(200, "application/json", json.dumps(completion(ANSWER)).encode())
        self.start_stream("text/event-stream")
        half = len(ANSWER) // 2
        self.send(sse(delta(ANSWER[:half])) + sse(delta(ANSWER[half:], "stop")))
        self.send(sse({"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 2}}) + b"data: [DONE]\n\n")

    def b_ok_then_never(self, streaming):
        if self.request_number <= 2:
            return self.b_ok(streaming)
        self.b_never_answers(streaming)

    def b_never_answers(self, streaming):
        # Holds the connection open, silent, until the client closes it.
        self.connection.settimeout(TICK)
        while self.alive():
            try:
                if self.connection.recv(1) == b"":
                    return
            except TimeoutError:
                continue
            except OSError:
                return

    def b_streams_forever(self, streaming):
        if streaming:
            self.start_stream("text/event-stream")
            while self.alive():
                self.send(sse(delta("more ")))
                time.sleep(TICK)
        else:
            # JSON may start with any amount of whitespace: a body that never ends.
            self.start_stream("application/json")
            while self.alive():
                self.send(b" ")
                time.sleep(TICK)

    def b_slow_answer(self, streaming):
        time.sleep(self.slow_seconds)
        self.b_ok(streaming)

    def b_status_500(self, streaming):
        self.reply(500, "application/json", b'{"error":{"code":500,"message":"the hostile server failed on purpose"}}')

    def b_status_429(self, streaming):
        self.reply(429, "application/json", b'{"error":{"code":429,"message":"rate limited; retry later"}}',
                   extra=[("Retry-After", "2")])

    def b_status_429_long(self, streaming):
        self.reply(429, "application/json", b'{"error":{"code":429,"message":"rate limited for an hour"}}',
                   extra=[("Retry-After", "3600")])

    def b_rate_limited(self, streaming):
        now = time.monotonic()
        with counts_lock:
            first = self.segment not in allowed_after
            if first:
                allowed_after[self.segment] = now + 1
            early = not first and now < allowed_after[self.segment]
            if early:
                counts[self.segment + ":early"] = counts.get(self.segment + ":early", 0) + 1
        if first or early:
            return self.reply(429, "application/json", b'{"error":{"code":429,"message":"rate limited; wait a second"}}',
                              extra=[("Retry-After", "1")])
        self.b_ok(streaming)

    def b_rate_limited_bare(self, streaming):
        if self.request_number == 1:
            return self.reply(429, "application/json", b'{"error":{"code":429,"message":"rate limited"}}')
        self.b_ok(streaming)

    def b_malformed_sse(self, streaming):
        self.start_stream("text/event-stream" if streaming else "application/json")
        self.send(b"data: {not json\n\n")
        self.send(b"\xff\xfe\x00garbage without a field\n\n")
        self.send(b"event: delta\ndata: {\"choices\": 7}\n\n")
        self.send(b"data: " + b"[" * 2000 + b"\n\n")
        self.send(b"retry: not-a-number\nid: a\x00b\n\n")

    def b_truncated(self, streaming):
        if streaming:
            self.start_stream("text/event-stream")
            self.send(sse(delta("The answer was cut")) + sse(delta(" off")) + b'data: {"choices":[{"delta":{"cont')
        else:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.send(json.dumps(completion("cut off"))[:40].encode())

    def b_non_json_error(self, streaming):
        self.reply(502, "text/html", b"<html><body><h1>502 Bad Gateway</h1>nginx</body></html>")

    def b_huge(self, streaming):
        chunk_text = "x" * 65536
        self.start_stream("text/event-stream" if streaming else "application/json")
        sent = 0
        if streaming:
            piece = sse(delta(chunk_text))
        else:
            # One JSON string that never closes within the limit.
            self.send(b'{"choices":[{"message":{"content":"')
            piece = chunk_text.encode()
        while sent < self.huge_bytes and self.alive():
            self.send(piece)
            sent += len(piece)

    def b_huge_line(self, streaming):
        self.start_stream("text/event-stream")
        self.send(b"data: ")
        block = b"x" * 65536
        sent = 0
        while sent < self.huge_bytes and self.alive():
            self.send(block)
            sent += len(block)
        # then stall without ending the line, until the client gives up
        self.b_never_answers(streaming)

    def b_huge_error(self, streaming):
        self.send_response(500)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(self.huge_bytes))
        self.end_headers()
        block = b"e" * 65536
        sent = 0
        while sent < self.huge_bytes and self.alive():
            self.send(block)
            sent += len(block)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--huge-mb", type=int, default=64, help="size of the huge answers")
    parser.add_argument("--slow-seconds", type=float, default=10, help="silence before slow-answer answers")
    parser.add_argument("--lifetime", type=float, default=900, help="seconds before the server stops by itself")
    args = parser.parse_args()
    Handler.huge_bytes = args.huge_mb << 20
    Handler.slow_seconds = args.slow_seconds
    Handler.deadline = time.monotonic() + args.lifetime
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)

    def stop_when_stdin_closes():
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        server.shutdown()

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    timer = threading.Timer(args.lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever(poll_interval=TICK)


if __name__ == "__main__":
    main()
