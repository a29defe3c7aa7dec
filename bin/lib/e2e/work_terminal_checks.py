"""The Work terminal on a real stack (issue 20): /ws/work-terminal with one-time tickets.

    python3 work_terminal_checks.py URL ADMIN_TOKEN USER_TOKEN [--idle MS | --lost PID_FILE KEY]

USER_TOKEN: an account of the checks' own (an admin, so Work is open to it); the stack's admin
disables and re-enables it. Prints what it saw; exit status 0 when every check holds. With --idle,
only the idle timeout check, against a terminal-service started with WORK_TERMINAL_IDLE_TIMEOUT_MS=MS.
With --lost, only the check that kill -9 of sandbox-service (its pid in PID_FILE; the launcher restarts
it) closes open terminals, a Work terminal and an Open Terminal one (server key KEY), promptly.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ws_client import WebSocket  # noqa: E402
from terminal_checks import Terminal, read_until, expect_close  # noqa: E402

URL, ADMIN, USER = sys.argv[1:4]
IDLE_MS = int(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "--idle" else None
LOST = sys.argv[5:7] if len(sys.argv) > 6 and sys.argv[4] == "--lost" else None
LOST_WITHIN = 5.0  # seconds: decision 0024's probe answers within about two


def call(method, path, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(URL + path, data=data, method=method, headers={
        "Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def task():
    status, body = call("POST", "/api/work/tasks", USER, {"message": "terminal check", "provider": "ollama",
                                                          "model": "qwen3:8b", "title": "terminal check"})
    assert status == 201, (status, body)
    task_id = body["task"]["id"]
    for _ in range(150):  # the run fails at once (no provider here); the terminal waits for its end
        status, detail = call("GET", f"/api/work/tasks/{task_id}", USER)
        if detail["task"]["state"] not in ("preparing", "running"):
            return task_id
        time.sleep(0.2)
    raise AssertionError("the task's run did not end")


def ticket(task_id):
    status, body = call("POST", "/api/auth/websocket-ticket", USER, {"audience": "terminal", "taskId": task_id})
    assert status == 201, (status, body)
    return body["ticket"]


def connect(ticket_value, task_id, origin=None):
    headers = {"Origin": origin} if origin else None
    return WebSocket(URL.replace("http://", "ws://") + f"/ws/work-terminal?ticket={ticket_value}&taskId={task_id}",
                     headers=headers)


def refused(ticket_value, task_id, status, origin=None):
    try:
        connect(ticket_value, task_id, origin).close()
    except ConnectionError as e:
        assert f" {status} " in str(e), f"expected {status}: {e}"
        return str(e)
    raise AssertionError(f"expected {status}, the upgrade succeeded")


def check(name, fn):
    try:
        fn()
        print(f"ok    {name}", flush=True)
        return True
    except Exception as e:  # noqa: BLE001 - a check's failure of any kind is reported
        print(f"FAIL  {name}: {e!r}", flush=True)
        return False


def idle_timeout_closes():
    task_id = task()
    try:
        ws = connect(ticket(task_id), task_id)
        ws.send_binary(b"echo busy$((4*4))\r")
        read_until(ws, r"busy16")
        quiet = time.monotonic()
        reason = expect_close(ws, 4000, timeout=IDLE_MS / 1000 + 5)
        took = time.monotonic() - quiet
        print(f"closed {took:.2f} s after the last output ({IDLE_MS} ms idle timeout): {reason}")
        assert took >= IDLE_MS / 1000 * 0.9, f"closed after {took:.2f} s, before the timeout"
        # Typing keeps a session open past the timeout.
        ws = connect(ticket(task_id), task_id)
        until = time.monotonic() + IDLE_MS / 1000 * 2
        while time.monotonic() < until:
            ws.send_binary(b"true\r")
            time.sleep(IDLE_MS / 1000 / 3)
        ws.send_binary(b"echo still$((3+3))\r")
        read_until(ws, r"still6")
        ws.close()
    finally:
        call("DELETE", f"/api/work/tasks/{task_id}", USER)


def lost_sessions_close():
    pid_file, key = LOST
    task_id = task()
    t = Terminal(URL, key, "terminal-lost-check")
    try:
        sid = t.create()
        sockets = {"open terminal": t.connect(sid)}
        for n in (1, 2):  # the task's whole cap (2): a slot that is not freed shows as a 429 afterwards
            sockets[f"work terminal {n}"] = connect(ticket(task_id), task_id)
        for name, ws in sockets.items():
            ws.send_binary(b"echo up$((7*6))\r")
            read_until(ws, r"up42")
        with open(pid_file) as f:
            pid = int(f.read().strip())
        os.kill(pid, 9)
        killed = time.monotonic()
        for name, ws in sockets.items():
            reason = expect_close(ws, 1011, timeout=LOST_WITHIN + 10)
            took = time.monotonic() - killed
            print(f"{name}: closed 1011 {took:.2f} s after kill -9 of sandbox-service ({pid}): {reason}")
            assert took <= LOST_WITHIN, f"{name} stayed open {took:.2f} s"
        status, body = t.http("GET", "/api/terminals/" + sid)
        assert status == 404, f"the lost Open Terminal session is still listed: {status} {body}"
        # Once the service is back (the launcher restarts it), new terminals work, and the task's two slots are free.
        deadline, last = time.monotonic() + 90, None
        while True:
            try:
                ws = t.connect(t.create())
                ws.send_binary(b"echo back$((8*8))\r")
                read_until(ws, r"back64")
                ws.close()
                break
            except (AssertionError, ConnectionError, OSError) as e:
                last = e
                assert time.monotonic() < deadline, f"no new terminal within 90 s of the kill: {last!r}"
                time.sleep(1)
        print(f"a new Open Terminal terminal works {time.monotonic() - killed:.1f} s after the kill")
        work = [connect(ticket(task_id), task_id) for _ in (1, 2)]
        for ws in work:
            ws.send_binary(b"echo again$((9*9))\r")
            read_until(ws, r"again81")
            ws.close()
    finally:
        call("DELETE", f"/api/work/tasks/{task_id}", USER)


if LOST is not None:
    sys.exit(0 if check("terminal: kill -9 of sandbox-service closes open terminals (1011) promptly; new ones work after",
                        lost_sessions_close) else 1)

if IDLE_MS is not None:
    sys.exit(0 if check(f"work terminal: {IDLE_MS} ms without input or output closes the session (4000)",
                        idle_timeout_closes) else 1)

A, B = task(), task()
me = call("GET", "/api/auth/me", USER)[1]
results = []


def echo_in_workspace():
    t = ticket(A)
    ws = connect(t, A)
    ws.send_binary(b"echo at=$(pwd) uid=$(id -u) $((6*7))\r")
    print(read_until(ws, r"at=/workspace uid=1000 42"))
    ws.send_text(json.dumps({"type": "resize", "cols": 120, "rows": 33}))
    time.sleep(0.3)
    ws.send_binary(b"stty size\r")
    read_until(ws, r"33 120")
    ws.send_binary(b"sleep 100\r")
    time.sleep(0.5)
    ws.send_binary(b"\x03echo after$((1+1))\r")
    read_until(ws, r"after2", timeout=5)
    ws.send_binary(b"exit\r")
    expect_close(ws, 1000)
    print("a used ticket:", refused(t, A, 401))


def other_tasks_ticket():
    print(refused(ticket(B), A, 401))


def foreign_origin():
    print(refused(ticket(A), A, 403, origin="https://evil.example"))
    ws = connect(ticket(A), A, origin=URL)
    ws.send_binary(b"echo same$((0+1))\r")
    read_until(ws, r"same1")
    ws.close()


def third_session_refused():
    one, two = connect(ticket(A), A), connect(ticket(A), A)
    for ws in (one, two):
        ws.send_binary(b"echo up$((2*2))\r")
        read_until(ws, r"up4")
    print(refused(ticket(A), A, 429))
    one.close()
    time.sleep(1.0)
    three = connect(ticket(A), A)  # a slot freed by a closed session is usable again
    three.send_binary(b"echo again$((3*3))\r")
    read_until(three, r"again9")
    three.close()
    two.close()


def disabling_closes_within_a_second():
    ws = connect(ticket(A), A)
    ws.send_binary(b"echo live$((5*5))\r")
    read_until(ws, r"live25")
    started = time.monotonic()
    status, body = call("PUT", f"/api/work/admin/accounts/{me['id']}/status", ADMIN, {"status": "disabled"})
    assert status == 200, (status, body)
    try:
        # 4003 when terminal-service's check sees it first; 1000 or 1011 (lost) when the disable's sandbox stop ended the shell first.
        reason = expect_close(ws, (4003, 1000, 1011), timeout=5)
    finally:
        took = time.monotonic() - started
        call("PUT", f"/api/work/admin/accounts/{me['id']}/status", ADMIN, {"status": "active"})
    print(f"closed {took:.2f} s after the disable: {reason}")
    assert took <= 1.5, f"the shell stayed open {took:.2f} s"


def expired_ticket():
    t = ticket(A)
    time.sleep(31)  # tickets live 30 s
    print(refused(t, A, 401))


results.append(check("work terminal: echo in /workspace, resize, ^C, exit; the used ticket is refused", echo_in_workspace))
results.append(check("work terminal: another task's ticket is refused (401)", other_tasks_ticket))
results.append(check("work terminal: a foreign Origin is refused (403), the gateway's own origin works", foreign_origin))
results.append(check("work terminal: a third session on a task is refused (429)", third_session_refused))
results.append(check("work terminal: disabling the account closes an open shell within a second", disabling_closes_within_a_second))
results.append(check("work terminal: an expired ticket is refused (401)", expired_ticket))
for task_id in (A, B):
    call("DELETE", f"/api/work/tasks/{task_id}", USER)
sys.exit(0 if all(results) else 1)
