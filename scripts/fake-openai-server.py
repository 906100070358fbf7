#!/usr/bin/env python3
"""A scripted OpenAI-compatible server for the summariser's HTTP backend tests.

It answers the way real servers do when things go right and when they go
wrong, on demand: the request's "model" field names the scenario.

    scripts/fake-openai-server.py [--port 0]     prints "url=http://127.0.0.1:PORT"

It exits when its standard input closes, so a test that starts it cannot
leave it behind.

Scenarios (POST /v1/chat/completions, streaming):
    ok              a Summary JSON in small SSE chunks (split across writes),
                    then usage and llama.cpp-style timings, then [DONE]
    flaky           HTTP 500 twice for each distinct prompt, then ok
    always-500      HTTP 500 every time
    loading         HTTP 503 "Loading model" (llama-server starting up)
    overflow        HTTP 400, llama.cpp's exceed_context_size_error with counts
    openai-overflow HTTP 400, OpenAI's context_length_exceeded wording
    unauthorised    HTTP 401
    bad-schema      HTTP 400 about the JSON schema
    refusal         a stream of delta.refusal pieces
    filtered        finish_reason content_filter
    length          finish_reason length before the JSON is complete
    window-full     finish_reason length after 48 tokens, usage 2,000 prompt tokens
                    (llama.cpp running out of window before max_tokens)
    stream-error    some content, then an error event inside the stream
    cut             some content, then the connection closes without [DONE]
    slow            one chunk, then silence for 300 s
Other routes: GET /v1/models (401 for "Bearer bad"), GET /props (n_ctx 2048),
GET /requests?prompt=TEXT (the last chat request whose user message was TEXT).
"""
import argparse
import json
import os
import sys
import threading
import urllib.parse
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SUMMARY = {"headline": "Keepers tend the northern light",
           "points": ["The lens is cleaned every morning.", "Fog signals sound in winter.", "Visitors tour the tower."]}
SCENARIOS = ["ok", "flaky", "always-500", "loading", "overflow", "openai-overflow", "unauthorised", "bad-schema",
             "refusal", "filtered", "length", "window-full", "stream-error", "cut", "slow"]
state = {"requests": {}, "attempts": {}}
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/v1/models":
            if self.headers.get("Authorization") == "Bearer bad":
                return self.send_json(401, {"error": {"message": "Invalid API key", "type": "authentication_error"}})
            return self.send_json(200, {"object": "list", "data": [{"id": name, "object": "model"} for name in ["fake-model"] + SCENARIOS]})
        if self.path == "/props":
            return self.send_json(200, {"default_generation_settings": {"n_ctx": 2048}})
        if self.path.startswith("/requests?prompt="):
            prompt = urllib.parse.unquote(self.path.split("=", 1)[1])
            with lock:
                return self.send_json(200, state["requests"].get(prompt, {}))
        self.send_json(404, {"error": {"message": "not found"}})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        messages = body.get("messages") or [{}]
        with lock:
            state["requests"][messages[-1].get("content", "")] = body
        scenario = body.get("model", "ok")
        if scenario == "flaky":
            key = json.dumps(body.get("messages", []))
            with lock:
                state["attempts"][key] = state["attempts"].get(key, 0) + 1
                attempt = state["attempts"][key]
            if attempt <= 2:
                return self.send_json(500, {"error": {"code": 500, "message": "internal error, try again"}})
            scenario = "ok"
        errors = {
            "always-500": (500, {"error": {"code": 500, "message": "internal error"}}),
            "loading": (503, {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}),
            "overflow": (400, {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                                         "type": "exceed_context_size_error", "n_prompt_tokens": 3012, "n_ctx": 2048}}),
            "openai-overflow": (400, {"error": {"message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
                                                "type": "invalid_request_error", "code": "context_length_exceeded"}}),
            "unauthorised": (401, {"error": {"message": "Invalid API key", "type": "authentication_error"}}),
            "bad-schema": (400, {"error": {"code": 400, "message": "JSON schema conversion failed: unsupported keyword"}}),
        }
        if scenario in errors:
            return self.send_json(*errors[scenario])
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True

        def event(obj):
            return ("data: " + json.dumps(obj) + "\n\n").encode()

        def chunk(delta, finish=None):
            return event({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

        out = []
        text = json.dumps(SUMMARY)
        if scenario == "refusal":
            out += [chunk({"refusal": "I can't "}), chunk({"refusal": "summarise this."}), chunk({}, "stop")]
        elif scenario == "filtered":
            out += [chunk({"content": text[:10]}), chunk({}, "content_filter")]
        elif scenario == "length":
            out += [chunk({"content": text[:30]}), chunk({}, "length")]
        elif scenario == "window-full":
            out += [chunk({"content": text[:30]}), chunk({}, "length"),
                    event({"choices": [], "usage": {"prompt_tokens": 2000, "completion_tokens": 48, "total_tokens": 2048}}),
                    b"data: [DONE]\n\n"]
        elif scenario == "stream-error":
            out += [chunk({"content": text[:10]}), event({"error": {"code": 500, "message": "slot crashed"}})]
        elif scenario in ("cut", "slow"):
            out += [chunk({"content": text[:10]})]
        else:
            out.append(b": keep-alive comment\r\n\r\n")
            for i in range(0, len(text), 7):
                out.append(chunk({"content": text[i:i + 7]}))
            out.append(chunk({}, "stop"))
            out.append(event({"choices": [], "usage": {"prompt_tokens": 321, "completion_tokens": 45, "total_tokens": 366},
                              "timings": {"prompt_n": 321, "prompt_ms": 210.5, "predicted_n": 45, "predicted_ms": 380.25}}))
            out.append(b"data: [DONE]\n\n")
        stream = b"".join(out)
        # Writes that cut events, lines and UTF-8 at odd places, as networks do.
        for i in range(0, len(stream), 13):
            self.wfile.write(stream[i:i + 13])
            self.wfile.flush()
            time.sleep(0.001)
        if scenario == "slow":
            time.sleep(300)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"url=http://127.0.0.1:{server.server_address[1]}", flush=True)

    def exit_when_stdin_closes():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
