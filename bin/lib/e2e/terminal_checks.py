"""Interactive terminals on a real stack, through the gateway's origin (issue 20).

    python3 terminal_checks.py CHECK URL KEY [SERVICE_PID]

CHECK is one of: config, echo, resize, ctrl-c, exit, openwebui, other-user, flood, python3 (run_command
+ send_process_input, no WebSocket). Each creates its
own Open Terminal session (POST /api/open-terminal/api/terminals) and talks to it with a real
WebSocket client. Exit status 0 when the check holds; what was seen is printed either way.
"""
import json
import os
import re
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
    """Reads output until the regex matches; returns all output read (text)."""
    seen = bytearray()
    end = time.monotonic() + timeout
    regex = re.compile(pattern.encode())
    tail = 0  # only new output (and a little before it) is searched: a flood must not cost O(n²)
    while not regex.search(seen, tail):
        tail = max(0, len(seen) - 256)
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {pattern!r} within {timeout} s; output: {bytes(seen[-600:])!r}")
        ws.settimeout(left)
        try:
            opcode, data = ws.recv()
        except TimeoutError:
            continue
        assert opcode == 2, f"output must be binary frames, got opcode {opcode}"
        seen += data
    return bytes(seen[-4000:]).decode(errors="replace")


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
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def check_flood(t, pid=None):
    ws = t.connect(t.create())
    ws.send_binary(b"echo ready$((1+1))\r")
    read_until(ws, r"ready2")
    before = rss_kib(pid) if pid else 0
    ws.send_binary(b"yes\r")
    got, peak, end = 0, before, time.monotonic() + 10
    ws.settimeout(1)
    while time.monotonic() < end:  # a slow reader: one message every 50 ms
        try:
            _, data = ws.recv()
            got += len(data)
        except TimeoutError:
            pass
        time.sleep(0.05)
        if pid:
            peak = max(peak, rss_kib(pid))
    started = time.monotonic()
    ws.send_binary(b"\x03")
    ws.send_binary(b"echo fl$((2+3))ood\r")
    read_until(ws, r"fl5ood", timeout=30)
    took = time.monotonic() - started
    print(f"slow reader took {got} bytes in 10 s; ^C to prompt {took:.2f} s;"
          f" terminal-service RSS {before // 1024} MiB before, peak {peak // 1024} MiB")
    ws.close()
    assert got < 64 << 20, "a slow reader was sent more than it read"
    if pid:
        assert peak - before < 96 * 1024, "terminal-service grew by more than 96 MiB under a flood"


def check_python3(t):
    ok, seen = interactive_python(ToolServer(t.url + BASE, t.key), t.user, "chat-" + t.user)
    print(seen)
    assert ok, "python3 did not answer 42"


CHECKS = {"python3": check_python3, "config": check_config, "echo": check_echo, "resize": check_resize, "ctrl-c": check_ctrl_c,
          "exit": check_exit, "openwebui": check_openwebui, "other-user": check_other_user}

if __name__ == "__main__":
    name, url, key = sys.argv[1:4]
    term = Terminal(url, key, "terminal-check-" + name)
    if name == "flood":
        check_flood(term, int(sys.argv[4]) if len(sys.argv) > 4 else None)
    else:
        CHECKS[name](term)
