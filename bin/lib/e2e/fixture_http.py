"""HTTP plumbing the fixture model servers share (python3 stdlib only): bounded JSON request bodies,
JSON answers and chunked streams, on HTTP/1.1 keep-alive as the real providers answer."""
import json
import sys
from http.server import BaseHTTPRequestHandler

MAX_BODY = 8 * 1024 * 1024


class FixtureHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log_prefix = "fixture"

    def log_message(self, fmt, *args):
        sys.stderr.write(self.log_prefix + ": " + (fmt % args) + "\n")

    def body(self):
        """The request's JSON body; ValueError (json.JSONDecodeError included) when it is too large or not JSON."""
        length = int(self.headers.get("Content-Length") or 0)
        if length < 0 or length > MAX_BODY:
            raise ValueError("body too large")
        return json.loads(self.rfile.read(length) or b"{}")

    def answer(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def start_stream(self, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, text):
        data = text.encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def line(self, obj):
        """One NDJSON line as its own chunk (Ollama's stream)."""
        self.chunk(json.dumps(obj) + "\n")

    def end_stream(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
