#!/usr/bin/env python3
"""The small web app of the preview checks (bin/lib/test-preview.sh), python3 stdlib only.

The runs fixture model's "webapp-" script writes INDEX_HTML and server_source() into a task's
workspace and starts the preview with "python3 server.py": a page, and a WebSocket echo on /ws that
answers "echo:<text>"; every HTTP answer sets a cookie the client must never see. Run as a program,
this is the checks' WebSocket client:
  preview_webapp.py ws-echo http://HOST:PORT/api/work/previews/<token>/ws TEXT   prints the answer
"""
import base64
import os
import socket
import sys
import urllib.parse

PORT = 4173

INDEX_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>webapp</title></head>
<body><h1>webapp preview</h1><p id="out">connecting</p>
<script>
const ws = new WebSocket(new URL("ws", location.href).href.replace(/^http/, "ws"));
ws.onopen = () => ws.send("hello");
ws.onmessage = (e) => { document.getElementById("out").textContent = e.data; };
</script></body></html>
"""

# WebSocket frames (RFC 6455), shared by the app (server side) and the checks' client.
FRAMES = r'''
import struct


def ws_send(out, opcode, data, mask=None):
    head = bytes([0x80 | opcode])
    bit = 0x80 if mask else 0
    if len(data) < 126:
        head += bytes([bit | len(data)])
    elif len(data) < 65536:
        head += bytes([bit | 126]) + struct.pack(">H", len(data))
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", len(data))
    if mask:
        data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        head += mask
    out.write(head + data)
    out.flush()


def ws_read(inp):
    """(opcode, payload) of the next frame, or (None, b"") at the end of the stream."""
    head = inp.read(2)
    if len(head) < 2:
        return None, b""
    size = head[1] & 0x7F
    if size == 126:
        size = struct.unpack(">H", inp.read(2))[0]
    elif size == 127:
        size = struct.unpack(">Q", inp.read(8))[0]
    mask = inp.read(4) if head[1] & 0x80 else b"\0\0\0\0"
    data = inp.read(size)
    return head[0] & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(data))
'''

SERVER = r'''
import base64
import hashlib
import http.server


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def end_headers(self):
        self.send_header("Set-Cookie", "webapp=leak")
        super().end_headers()

    def do_GET(self):
        if self.path.split("?")[0] != "/ws" or self.headers.get("Upgrade", "").lower() != "websocket":
            return super().do_GET()
        key = self.headers["Sec-WebSocket-Key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", base64.b64encode(hashlib.sha1(key.encode()).digest()).decode())
        self.end_headers()
        self.close_connection = True
        while True:
            opcode, data = ws_read(self.rfile)
            if opcode is None or opcode == 8:
                ws_send(self.wfile, 8, b"")
                return
            if opcode == 9:
                ws_send(self.wfile, 10, data)
            elif opcode == 1:
                ws_send(self.wfile, 1, b"echo:" + data)


http.server.ThreadingHTTPServer(("0.0.0.0", %d), Handler).serve_forever()
''' % PORT


def server_source():
    return FRAMES + SERVER


def ws_echo(url, text):
    exec(FRAMES, globals())
    parts = urllib.parse.urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=20)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (parts.path, parts.netloc, key)).encode())
    stream = sock.makefile("rwb")
    status = stream.readline().decode()
    headers = []
    while True:
        line = stream.readline().decode()
        if line in ("\r\n", ""):
            break
        headers.append(line.strip())
    if " 101 " not in status:
        raise SystemExit("no upgrade: %s %s" % (status.strip(), headers))
    if any(h.lower().startswith("set-cookie") for h in headers):
        raise SystemExit("the upgrade answer carried Set-Cookie: %s" % headers)
    ws_send(stream, 1, text.encode(), mask=os.urandom(4))
    opcode, data = ws_read(stream)
    ws_send(stream, 8, b"", mask=os.urandom(4))
    sock.close()
    if opcode != 1:
        raise SystemExit("no text answer (opcode %s)" % opcode)
    print(data.decode())


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "ws-echo":
        ws_echo(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
