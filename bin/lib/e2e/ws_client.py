"""A small WebSocket client (RFC 6455, standard library only) for the stack checks and benches.

Enough for terminals: text and binary frames both ways (client frames masked), fragmented
messages, ping/pong, the close handshake with its status code. Not a general library.
"""
import base64
import os
import socket
import struct
import urllib.parse

TEXT, BINARY, CLOSE, PING, PONG = 1, 2, 8, 9, 10


class Closed(Exception):
    def __init__(self, code, reason):
        super().__init__(f"closed {code} {reason}")
        self.code = code
        self.reason = reason


class WebSocket:
    def __init__(self, url, headers=None, timeout=10.0):
        parts = urllib.parse.urlsplit(url)
        host, port = parts.hostname, parts.port or 80
        path = parts.path + (("?" + parts.query) if parts.query else "")
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("connection closed during the handshake")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        status_line = head.split(b"\r\n", 1)[0].decode()
        self.status = int(status_line.split()[1])
        if self.status != 101:
            raise ConnectionError(f"upgrade refused: {status_line}")
        self.close_code = None
        self.close_reason = None

    def settimeout(self, seconds):
        self.sock.settimeout(seconds)

    def _send(self, opcode, payload):
        header = bytearray([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header.append(0x80 | 126)
            header += struct.pack(">H", n)
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", n)
        mask = os.urandom(4)
        header += mask
        data = bytearray(payload)
        for i in range(n):
            data[i] ^= mask[i & 3]
        self.sock.sendall(bytes(header) + bytes(data))

    def send_text(self, text):
        self._send(TEXT, text.encode())

    def send_binary(self, data):
        self._send(BINARY, data)

    def close(self, code=1000, reason=""):
        try:
            self._send(CLOSE, struct.pack(">H", code) + reason.encode())
        except OSError:
            pass
        self.sock.close()

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(max(65536, n - len(self.buf)))
            if not chunk:
                raise Closed(1006, "connection lost")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _frame(self):
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._read(8))[0]
        mask = self._read(4) if b1 & 0x80 else None
        payload = self._read(n)
        if mask:
            payload = bytes(c ^ mask[i & 3] for i, c in enumerate(payload))
        return bool(b0 & 0x80), b0 & 0x0F, payload

    def recv(self):
        """The next message as (opcode, bytes); raises Closed on a close frame."""
        parts, first = [], None
        while True:
            fin, opcode, payload = self._frame()
            if opcode == PING:
                self._send(PONG, payload)
                continue
            if opcode == PONG:
                continue
            if opcode == CLOSE:
                code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.close_code, self.close_reason = code, payload[2:].decode(errors="replace")
                try:
                    self._send(CLOSE, payload[:2])
                except OSError:
                    pass
                raise Closed(code, self.close_reason)
            if opcode != 0:
                first = opcode
            parts.append(payload)
            if fin:
                return first, b"".join(parts)
