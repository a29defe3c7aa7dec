"""Interactive terminals on a real stack, through the gateway's origin (issue 20).

    python3 terminal_checks.py CHECK URL KEY [RUN_DIR]

CHECK is one of: config, echo, resize, ctrl-c, exit, openwebui, other-user, flood, python3 (run_command
+ send_process_input, no WebSocket). Each creates its
own Open Terminal session (POST /api/open-terminal/api/terminals) and talks to it with a real
WebSocket client. Exit status 0 when the check holds; what was seen is printed either way.
"""
import json
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ws_client import WebSocket, Closed  # noqa: E402
from open_terminal_client import ToolServer, interactive_python  # noqa: E402

BASE = "/api/open-terminal"


class Terminal:
    def __init__(self, url, key, user):
        self.url, self.key, self.user = url, key, user

    def http(self, method, path, user=None, key=None):
        request = urllib.request.Request(self.url + BASE + path, method=method, headers={
            "Authorization": "Bearer " + (key or self.key), "X-User-Id": user or self.user})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def create(self):
        status, body = self.http("POST", "/api/terminals")
        assert status == 200, f"create: {status} {body}"
        assert set(body) >= {"id", "created_at", "pid"}, body
        return body["id"]

    def connect(self, session_id, key=None, headers=None):
        ws = WebSocket(self.url.replace("http://", "ws://") + BASE + "/api/terminals/" + session_id, headers=headers)
        ws.send_text(json.dumps({"type": "auth", "token": key or self.key}))
        return ws


def read_until(ws, pattern, timeout=15.0):
    """Reads output until the regex matches; returns the last 4000 bytes read (text)."""
    return read_output(ws, pattern, timeout)[0]


def read_output(ws, pattern, timeout):
    """Reads output until the regex matches: (the last 4000 bytes as text, bytes read, messages read)."""
    seen = bytearray()
    total, count, start = 0, 0, 0
    end = time.monotonic() + timeout
    regex = re.compile(pattern.encode())
    # Only new output (and a little before it) is searched, and only a tail kept: a flood must not cost O(n²) or its size.
    while not regex.search(seen, start):
        if len(seen) > 1 << 20:
            del seen[:-4096]
        start = max(0, len(seen) - 256)
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {pattern!r} within {timeout} s after {total} bytes; output: {bytes(seen[-600:])!r}")
        ws.settimeout(left)
        try:
            opcode, data = ws.recv()
        except TimeoutError:
            continue
        assert opcode == 2, f"output must be binary frames, got opcode {opcode}"
        seen += data
        total += len(data)
        count += 1
    return bytes(seen[-4000:]).decode(errors="replace"), total, count


def expect_close(ws, code, timeout=10.0):
    ws.settimeout(timeout)
    try:
        while True:
            ws.recv()
    except Closed as closed:
        codes = code if isinstance(code, tuple) else (code,)
        assert closed.code in codes, f"closed with {closed.code} {closed.reason!r}, expected {code}"
        return closed.reason
    except TimeoutError:
        raise AssertionError(f"not closed within {timeout} s (expected {code})")


def check_config(t):
    with urllib.request.urlopen(t.url + BASE + "/api/config", timeout=10) as response:
        body = json.loads(response.read())
    print(body)
    assert body["features"]["terminal"] is True


def check_echo(t):
    ws = t.connect(t.create())
    ws.send_binary(b"echo hi$((6*7))\r")
    print(read_until(ws, r"hi42"))
    ws.close()


def check_resize(t):
    ws = t.connect(t.create())
    ws.send_text(json.dumps({"type": "resize", "cols": 132, "rows": 43}))
    time.sleep(0.3)
    ws.send_binary(b"stty size\r")
    print(read_until(ws, r"43 132"))
    ws.close()


def check_ctrl_c(t):
    ws = t.connect(t.create())
    ws.send_binary(b"sleep 100\r")
    time.sleep(1.0)
    started = time.monotonic()
    ws.send_binary(b"\x03")
    ws.send_binary(b"echo after$((2+2))\r")
    out = read_until(ws, r"after4", timeout=5)
    print(out, f"(^C to prompt {time.monotonic() - started:.2f} s)")
    ws.close()


def check_exit(t):
    sid = t.create()
    ws = t.connect(sid)
    ws.send_binary(b"exit\r")
    print("closed:", expect_close(ws, 1000))
    status, body = t.http("GET", "/api/terminals/" + sid)
    assert status == 404, f"an exited terminal is gone: {status} {body}"


def check_openwebui(t):
    sid = t.create()
    status, listed = t.http("GET", "/api/terminals")
    assert status == 200 and sid in [s["id"] for s in listed], listed
    status, one = t.http("GET", "/api/terminals/" + sid)
    assert status == 200 and one["id"] == sid, one
    bad = t.connect(sid, key="not-the-key")
    print("wrong key:", expect_close(bad, 4001))
    status, body = t.http("GET", "/api/terminals", key="not-the-key")
    assert status == 401, f"HTTP with a wrong key: {status}"
    ws = t.connect(sid)
    ws.send_binary(b"echo ow$((3*3))ok\r")
    read_until(ws, r"ow9ok")
    ws.send_text(json.dumps({"type": "resize", "cols": 100, "rows": 30}))
    time.sleep(0.3)
    ws.send_binary(b"stty size\r")
    read_until(ws, r"30 100")
    status, body = t.http("DELETE", "/api/terminals/" + sid)
    assert status == 200 and body == {"status": "deleted"}, body
    expect_close(ws, 1000)
    status, body = t.http("GET", "/api/terminals/" + sid)
    assert status == 404, f"deleted: {status} {body}"
    print("deleted → 4004:", expect_close(t.connect(sid), 4004))
    status, body = t.http("DELETE", "/api/terminals/" + sid)
    assert status == 404, f"deleted twice: {status}"


def check_other_user(t):
    sid = t.create()
    status, body = t.http("GET", "/api/terminals/" + sid, user=t.user + "-other")
    assert status == 404, f"another user's terminal: {status} {body}"
    status, listed = t.http("GET", "/api/terminals", user=t.user + "-other")
    assert sid not in [s["id"] for s in listed], listed
    print("other user → 4004:", expect_close(t.connect(sid, headers={"X-User-Id": t.user + "-other"}), 4004))
    status, body = t.http("DELETE", "/api/terminals/" + sid, user=t.user + "-other")
    assert status == 404, f"another user deletes: {status}"
    ws = t.connect(sid, headers={"X-User-Id": t.user})
    ws.send_binary(b"whoami; pwd\r")
    print(read_until(ws, r"/home/user"))
    ws.close()
    status, unknown = t.http("GET", "/api/terminals/nope")
    assert status == 404, unknown
    print("unknown id → 4004:", expect_close(t.connect("nope"), 4004))


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0  # gone


FLOOD_SERVICES = ("gateway-service", "terminal-service", "sandbox-service")
# A service may grow by this much during the flood (a JVM touching more of its young generation, JIT
# code); one that buffered what the slow reader did not take would grow by the flood itself (tens
# of MB in 10 s) or die at its 160 MB heap cap.
RSS_MARGIN_KIB = 64 * 1024
# What is still on its way when ^C lands: celld's credit window (1 MiB) plus what the sockets between
# terminal-service, the gateway and the client hold (the kernel grows their buffers to a few MiB each).
BACKLOG_MAX = 16 << 20
SLOW_RATE = 256 << 10  # bytes a second the slow client reads


class SlowSocket:
    """A socket whose reads are held to `rate` bytes a second (0: as fast as it can): a client that reads slowly."""

    def __init__(self, sock, rate):
        self.sock, self.rate, self.started, self.taken = sock, rate, time.monotonic(), 0

    def recv(self, n):
        if self.rate:
            wait = self.started + self.taken / self.rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            n = min(n, 16 << 10)
        data = self.sock.recv(n)
        self.taken += len(data)
        return data

    def __getattr__(self, name):
        return getattr(self.sock, name)


def check_flood(t, run_dir=None):
    pids = {}
    for name in FLOOD_SERVICES if run_dir else ():
        try:
            with open(os.path.join(run_dir, name + ".pid")) as f:
                pids[name] = int(f.read().strip())
        except (OSError, ValueError):
            pass
    ws = t.connect(t.create())
    # The client's own receive buffer small (64 KiB), so what piles up is the path's, not this process's kernel's.
    ws.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 10)
    ws.send_binary(b"echo ready$((1+1))\r")
    read_until(ws, r"ready2")
    before = {name: rss_kib(pid) for name, pid in pids.items()}
    peak = dict(before)
    slow = SlowSocket(ws.sock, SLOW_RATE)
    ws.sock = slow
    ws.send_binary(b"yes\r")
    got, messages, end, sampled = 0, 0, time.monotonic() + 10, 0.0
    while time.monotonic() < end:
        ws.settimeout(1)
        try:
            _, data = ws.recv()
            got += len(data)
            messages += 1
        except TimeoutError:
            pass
        if time.monotonic() - sampled > 0.2:
            sampled = time.monotonic()
            for name, pid in pids.items():
                peak[name] = max(peak[name], rss_kib(pid))
    slow.rate = 0  # from here the client reads as fast as it can
    started = time.monotonic()
    ws.send_binary(b"\x03")
    ws.send_binary(b"echo fl$((2+3))ood\r")
    _, backlog, drained = read_output(ws, r"fl5ood", timeout=30)
    took = time.monotonic() - started
    ws.close()
    after = {name: rss_kib(pid) for name, pid in pids.items()}
    print(f"slow reader ({SLOW_RATE >> 10} KiB/s) took {got} bytes in 10 s in {messages} messages"
          f" ({got // max(1, messages)} B each); after ^C {backlog} bytes in {drained} messages were still on their way;"
          f" ^C to prompt {took:.2f} s")
    for name in pids:
        print(f"  {name}: RSS {before[name] // 1024} MiB before, peak {peak[name] // 1024} MiB, {after[name] // 1024} MiB after")
    assert got > 0, "the slow reader got no output"
    assert backlog <= BACKLOG_MAX, f"{backlog} bytes were buffered on the path (at most {BACKLOG_MAX} expected)"
    assert took < 5, f"^C took {took:.2f} s to bring the prompt back"
    for name in pids:
        assert after[name] > 0, f"{name} is gone after the flood"
        assert peak[name] - before[name] < RSS_MARGIN_KIB, f"{name} grew by more than {RSS_MARGIN_KIB >> 10} MiB under a flood"


def check_python3(t):
    ok, seen = interactive_python(ToolServer(t.url + BASE, t.key), t.user, "chat-" + t.user)
    print(seen)
    assert ok, "python3 did not answer 42"


CHECKS = {"python3": check_python3, "config": check_config, "echo": check_echo, "resize": check_resize, "ctrl-c": check_ctrl_c,
          "exit": check_exit, "openwebui": check_openwebui, "other-user": check_other_user}

if __name__ == "__main__":
    name, url, key = sys.argv[1:4]
    term = Terminal(url, key, "terminal-check-" + name)
    if name == "flood":  # RUN_DIR: where the stack keeps its services' pid files (their RSS is watched)
        check_flood(term, sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        CHECKS[name](term)
