#!/usr/bin/env python3
"""Open Terminal end-to-end check against a running Workcell gateway, as OpenWebUI uses it.

Fetches openapi.json, derives one tool per operationId (method, path, parameters by location, JSON
body), and calls the tools with X-User-Id/X-Session-Id like OpenWebUI's tool-server client. Checks
the tools work, two users are isolated, escapes are refused, no stack secret is visible inside
a sandbox, the file browser's downloads stream (two 50 MB archives at once in a 160 MB gateway), and
OpenWebUI's file browser works through one chat session in the order it makes its calls (config,
cwd, Home, list, read, view, serve, archive, upload, mkdir, move, delete), with what upstream Open
Terminal answers there (issue 17). Python 3 standard library only.

usage: open_terminal_client.py URL KEY [--api-key-file F] [--db-password-file F] [--jwt-key-file F] [--secret-file F]...
URL is the connection URL OpenWebUI would be given, e.g. http://127.0.0.1:8480/api/open-terminal.
Exit 0 when every check passed; one line per check on stdout.
"""
import argparse
import hashlib
import io
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import uuid


class ToolServer:
    """What OpenWebUI does with a tool server's document: one callable per operationId."""

    def __init__(self, url, key):
        self.url = url.rstrip("/")
        self.key = key
        self.last_headers = {}  # of the latest answer, for the few checks that read a header
        status, doc, _ = self.http("GET", self.url + "/openapi.json", {}, None)
        if status != 200:
            raise SystemExit("openapi.json answered %s" % status)
        self.doc = doc
        self.tools = {}
        for path, methods in doc["paths"].items():
            for method, op in methods.items():
                self.tools[op["operationId"]] = (method.upper(), path, op.get("parameters", []), "requestBody" in op)

    def http(self, method, url, headers, body, raw=False):
        data = None
        headers = dict(headers)
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=330) as response:
                payload, status, ctype = response.read(), response.status, response.headers.get("Content-Type", "")
                self.last_headers = response.headers
        except urllib.error.HTTPError as e:
            payload, status, ctype = e.read(), e.code, e.headers.get("Content-Type", "")
            self.last_headers = e.headers
        if raw or "json" not in ctype:
            return status, payload, ctype
        return status, json.loads(payload or b"null"), ctype

    def call(self, tool, user, session=None, raw=False, **args):
        """Like OpenWebUI: path params substituted, query params from args, the rest as the JSON body."""
        method, path, params, has_body = self.tools[tool]
        query = []
        for p in params:
            name = p["name"]
            if name not in args:
                continue
            value = args.pop(name)
            if p["in"] == "path":
                path = path.replace("{%s}" % name, urllib.parse.quote(str(value), safe=""))
            elif p["in"] == "query":
                for item in value if isinstance(value, list) else [value]:
                    query.append((name, str(item).lower() if isinstance(item, bool) else str(item)))
        url = self.url + path + ("?" + urllib.parse.urlencode(query) if query else "")
        headers = {"Authorization": "Bearer " + self.key, "X-User-Id": user}
        if session:
            headers["X-Session-Id"] = session
        return self.http(method, url, headers, args if has_body else None, raw=raw)


def interactive_python(ts, user, chat):
    """run_command runs a command on a terminal, as upstream, so python3 prompts and answers
    send_process_input. Returns (whether print(6*7) printed 42, what was seen)."""
    status, body, _ = ts.call("run_command", user, chat, command="python3")
    py = body.get("id") if isinstance(body, dict) else None
    ts.call("send_process_input", user, chat, process_id=py, input="print(6*7)\\n")
    text, poll, deadline = "", None, time.time() + 20
    while py and "\r\n42\r\n" not in text and time.time() < deadline:
        status, poll, _ = ts.call("get_process_status", user, chat, process_id=py, wait=1)
        text = "".join(e.get("data", "") for e in (poll or {}).get("output", []))
    ts.call("kill_process", user, chat, process_id=py, force=True)
    return "\r\n42\r\n" in text, (status, poll)


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, name, ok, detail=""):
        print(("ok    " if ok else "FAIL  ") + name + ("" if ok else "  -- " + str(detail)[:400]))
        sys.stdout.flush()
        if not ok:
            self.failed += 1
        return ok


def secrets_from(args):
    values = {}
    for label, path in (("API key", args.api_key_file), ("DB password", args.db_password_file),
                        ("JWT private key", args.jwt_key_file)):
        if path:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read().strip()
            if label == "JWT private key":
                # A PEM's body lines; any one long line leaking is a leak.
                for line in text.splitlines():
                    if len(line) >= 40 and "-----" not in line:
                        values.setdefault(label, []).append(line)
            elif text:
                values[label] = [text]
    for path in args.secret_file:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read().strip()
        if text:
            values.setdefault("other secrets", []).append(text)
    return values


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("key")
    parser.add_argument("--api-key-file")
    parser.add_argument("--db-password-file")
    parser.add_argument("--jwt-key-file")
    parser.add_argument("--secret-file", action="append", default=[], help="any other secret (NATS passwords, ...)")
    args = parser.parse_args()
    c = Checks()
    ts = ToolServer(args.url, args.key)
    # Fixed users, so repeated runs reuse their two sandboxes (sandbox-service caps running ones);
    # each run starts by clearing what an earlier run left in their homes.
    run = uuid.uuid4().hex[:8]
    alice, bob = "wt-open-terminal/alice", "wt-open-terminal/bob"
    chat = "chat-" + run

    expected = {"list_files", "read_file", "display_file", "write_file", "replace_file_content", "grep_search",
                "glob_search", "list_processes", "run_command", "get_process_status", "send_process_input", "kill_process"}
    c.check("openapi.json offers exactly the twelve Open Terminal tools", set(ts.tools) == expected, sorted(ts.tools))

    status, body, _ = ts.http("GET", ts.url + "/files/list", {"Authorization": "Bearer " + args.key}, None)
    c.check("a request without X-User-Id is refused", status in (400, 401), (status, body))
    status, body, _ = ts.http("GET", ts.url + "/files/list", {"Authorization": "Bearer wrong", "X-User-Id": alice}, None)
    c.check("a wrong key is refused", status == 401, (status, body))

    for user in (alice, bob):
        status, body, _ = ts.call("run_command", user, command="rm -rf proj passwd-link proc-link", wait=30)
        c.check("a clean home for %s" % user, status == 200 and body.get("exit_code") == 0, (status, body))
    status, body, _ = ts.call("write_file", alice, chat, path="proj/notes.txt", content="alpha\nbeta needle\ngamma\n")
    c.check("write_file", status == 200 and body.get("path") == "/home/user/proj/notes.txt", (status, body))
    status, body, _ = ts.call("read_file", alice, chat, path="/home/user/proj/notes.txt", start_line=2, end_line=2)
    c.check("read_file with a line range", status == 200 and body.get("content") == "beta needle\n" and body.get("total_lines") == 3,
            (status, body))
    status, body, _ = ts.call("replace_file_content", alice, chat, path="proj/notes.txt",
                              replacements=[{"target": "gamma", "replacement": "delta"}])
    c.check("replace_file_content", status == 200, (status, body))

    status, body, _ = ts.call("run_command", alice, chat, command="echo hello-$((40+2)) && cat proj/notes.txt", wait=30)
    text = "".join(e.get("data", "") for e in (body or {}).get("output", [])) if isinstance(body, dict) else ""
    c.check("run_command echo with wait", status == 200 and body.get("status") == "done" and body.get("exit_code") == 0
            and "hello-42" in text and "delta" in text, (status, body))

    status, body, _ = ts.call("run_command", alice, chat, command="for i in 1 2 3; do echo $i; sleep 1; done")
    pid = body.get("id") if isinstance(body, dict) else None
    seen, offset, final = [], 0, None
    deadline = time.time() + 30
    while pid and time.time() < deadline:
        status, poll, _ = ts.call("get_process_status", alice, chat, process_id=pid, offset=offset, wait=1)
        if status != 200:
            break
        seen += [e["data"] for e in poll.get("output", [])]
        offset = poll.get("next_offset", offset)
        if poll.get("status") != "running":
            final = poll
            break
    c.check("a long process polled with offset/next_offset to completion",
            final is not None and final.get("exit_code") == 0 and "".join(seen).split() == ["1", "2", "3"], (final, seen))

    status, body, _ = ts.call("grep_search", alice, chat, query="needle", path="proj")
    c.check("grep_search", status == 200 and any(m.get("file") == "/home/user/proj/notes.txt" and m.get("line") == 2
                                                 for m in body.get("matches", [])), (status, body))
    status, body, _ = ts.call("glob_search", alice, chat, pattern="*.txt")
    c.check("glob_search", status == 200 and any(m.get("path") == "proj/notes.txt" for m in body.get("matches", [])), (status, body))
    status, body, _ = ts.call("list_files", alice, chat, directory="proj")
    c.check("list_files", status == 200 and [e["name"] for e in body.get("entries", [])] == ["notes.txt"], (status, body))
    status, body, _ = ts.call("display_file", alice, chat, path="proj/notes.txt")
    c.check("display_file", status == 200 and body.get("exists") is True, (status, body))

    # Input with escapes, then kill.
    status, body, _ = ts.call("run_command", alice, chat, command="read line; echo got:$line; sleep 300")
    pid = body.get("id")
    status, body, _ = ts.call("send_process_input", alice, chat, process_id=pid, input="hi\\n")
    status2, poll, _ = ts.call("get_process_status", alice, chat, process_id=pid, wait=2)
    c.check("send_process_input decodes \\n", status == 200 and "got:hi" in "".join(e["data"] for e in poll.get("output", [])),
            (status, body, poll))

    # Isolation: bob cannot see alice's files or processes.
    status, body, _ = ts.call("read_file", bob, path="proj/notes.txt")
    c.check("another user cannot read the file", status == 404, (status, body))
    status, body, _ = ts.call("list_files", bob, directory="proj")
    c.check("another user cannot list the directory", status == 404, (status, body))
    status, body, _ = ts.call("get_process_status", bob, process_id=pid)
    c.check("another user cannot poll the process", status == 404, (status, body))
    status, body, _ = ts.call("kill_process", bob, process_id=pid)
    c.check("another user cannot kill the process", status == 404, (status, body))
    status, body, _ = ts.call("list_processes", bob)
    c.check("another user does not see the process", status == 200 and pid not in [p["id"] for p in body], (status, body))
    status, body, _ = ts.call("kill_process", alice, process_id=pid, force=True)
    c.check("kill_process by its owner", status == 200 and body.get("status") == "killed", (status, body))
    status, body, _ = ts.call("get_process_status", alice, process_id=pid)
    c.check("a killed process reports killed", status == 200 and body.get("status") == "killed", (status, body))

    c.check("python3 via run_command answers send_process_input print(6*7) with 42", *interactive_python(ts, alice, chat))

    # Escapes.
    status, body, _ = ts.call("read_file", alice, path="../etc/passwd")
    c.check("'..' is refused", 400 <= status < 500, (status, body))
    status, body, _ = ts.call("read_file", alice, path="/proc/1/environ")
    c.check("/proc/1/environ is refused", 400 <= status < 500, (status, body))
    ts.call("run_command", alice, command="ln -sf /etc/passwd passwd-link; ln -sfn /proc/1 proc-link", wait=10)
    status, body, _ = ts.call("read_file", alice, path="passwd-link")
    c.check("a symlink to /etc/passwd is refused", 400 <= status < 500 and "root:" not in json.dumps(body), (status, body))
    status, body, _ = ts.call("read_file", alice, path="proc-link/environ")
    c.check("a symlink into /proc is refused", 400 <= status < 500, (status, body))

    # No secret of the stack inside the sandbox.
    status, body, _ = ts.call("run_command", alice, command="env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'", wait=30)
    dump = "".join(e.get("data", "") for e in body.get("output", [])) if isinstance(body, dict) else ""
    c.check("env inside the sandbox is readable (the check below sees something)", status == 200 and "PATH=" in dump, (status, body))
    secrets = secrets_from(args)
    secrets["terminal key"] = [args.key]
    leaked = [label for label, values in secrets.items() if any(v and v in dump for v in values)]
    c.check("no stack secret in env or /proc/*/environ (%s)" % ", ".join(sorted(secrets)), not leaked, leaked)

    downloads(ts, alice, c)
    file_browser(ts, alice, "browser-" + run, c)
    listening_ports(ts, alice, bob, c)
    print("%d failed" % c.failed)
    return 1 if c.failed else 0


def listening_ports(ts, alice, bob, c):
    """GET /ports (decision 0020): a server run_command starts on loopback is listed for its user only."""
    port = 18631

    def ports(user):
        status, body, _ = ts.http("GET", ts.url + "/ports", {"Authorization": "Bearer " + ts.key, "X-User-Id": user}, None)
        return status, [p.get("port") for p in (body or {}).get("ports", [])] if isinstance(body, dict) else body

    status, body, _ = ts.call("run_command", alice, command="exec python3 -m http.server %d --bind 127.0.0.1" % port)
    server = body.get("id") if isinstance(body, dict) else None
    listed, deadline = (None, None), time.time() + 20
    while server and time.time() < deadline:
        listed = ports(alice)
        if listed[0] != 200 or port in listed[1]:
            break
        time.sleep(0.5)
    c.check("/ports lists the server run_command started on 127.0.0.1:%d" % port, listed[0] == 200 and port in listed[1], listed)
    others = ports(bob)
    c.check("another user's /ports does not list it", others[0] == 200 and port not in others[1], others)
    port_proxy(ts, alice, bob, port, c)
    ts.call("kill_process", alice, process_id=server, force=True)
    deadline = time.time() + 20
    while time.time() < deadline:
        listed = ports(alice)
        if listed[0] != 200 or port not in listed[1]:
            break
        time.sleep(0.5)
    c.check("/ports forgets it once the server is killed", listed[0] == 200 and port not in listed[1], listed)


ECHO_SERVER = """
import hashlib, json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
class Echo(BaseHTTPRequestHandler):
    def reply(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        self.reply({"method": "GET", "path": self.path, "host": self.headers.get("Host"),
                    "authorization": self.headers.get("Authorization"), "user": self.headers.get("X-User-Id")})
    def do_POST(self):
        left = n = int(self.headers.get("Content-Length") or 0)
        digest = hashlib.sha256()
        while left:
            chunk = self.rfile.read(min(65536, left))
            digest.update(chunk)
            left -= len(chunk)
        self.reply({"method": "POST", "path": self.path, "length": n, "sha256": digest.hexdigest()})
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Echo).serve_forever()
"""


def port_proxy(ts, alice, bob, static_port, c):
    """/proxy/{port}/{path} (decision 0020): reaches the caller's own loopback through celld, as upstream answers."""
    echo_port = static_port + 1
    base = ts.url + "/proxy/"
    auth = {"Authorization": "Bearer " + ts.key}

    def proxy(method, user, path, body=None, headers=None):
        merged = dict(auth)
        merged["X-User-Id"] = user
        merged.update(headers or {})
        request = urllib.request.Request(base + path, data=body, method=method, headers=merged)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, response.read(), response.headers
        except urllib.error.HTTPError as e:
            return e.code, e.read(), e.headers

    big = bytes(range(256)) * 4096  # 1 MiB
    ts.call("write_file", alice, path="echo_server.py", content=ECHO_SERVER)
    ts.call("run_command", alice, command="python3 -c \"open('big.bin','wb').write(bytes(range(256))*4096)\"", wait=30)
    status, body, _ = ts.call("run_command", alice, command="exec python3 echo_server.py %d" % echo_port)
    echo = body.get("id") if isinstance(body, dict) else None
    answer, deadline = (None, None, None), time.time() + 20
    while echo and time.time() < deadline:
        answer = proxy("GET", alice, "%d/hello/world?a=1&b=x%%20y" % echo_port)
        if answer[0] == 200:
            break
        time.sleep(0.5)
    seen = json.loads(answer[1]) if answer[0] == 200 else {}
    c.check("/proxy GET reaches the server with path and query, the key stripped",
            seen.get("path") == "/hello/world?a=1&b=x%20y" and seen.get("authorization") is None
            and seen.get("host") == "localhost:%d" % echo_port and seen.get("user") == alice, answer[:2])
    upload = os.urandom(1 << 20)
    status, body, _ = proxy("POST", alice, "%d/upload" % echo_port, upload, {"Content-Type": "application/octet-stream"})
    seen = json.loads(body) if status == 200 else {}
    c.check("/proxy POST streams a 1 MiB body to the server whole",
            seen.get("length") == len(upload) and seen.get("sha256") == hashlib.sha256(upload).hexdigest(), (status, body[:200]))
    status, body, headers = proxy("GET", alice, "%d/big.bin" % static_port)
    c.check("/proxy GET streams a 1 MiB answer from python3 -m http.server whole",
            status == 200 and body == big and headers.get("Content-Length") == str(len(big)), (status, len(body)))
    status, body, _ = proxy("HEAD", alice, "%d/big.bin" % static_port)
    c.check("/proxy HEAD answers the head only", status == 200 and body == b"", (status, len(body)))
    status, body, _ = proxy("GET", bob, "%d/hello" % echo_port)
    c.check("another user's port is not reachable: the same port in their own sandbox is refused (502)",
            # The problem's instance names the path (…/hello): what matters is that the refusal is the answer.
            status == 502 and b'"code":"connection_refused"' in body, (status, body[:200]))
    status, body, _ = proxy("GET", alice, "%d/" % (echo_port + 1))
    c.check("a port nothing listens on answers 502 Connection refused",
            status == 502 and b"Connection refused: localhost:%d" % (echo_port + 1) in body, (status, body[:200]))
    bad = [proxy("GET", alice, p)[0] for p in ("0/", "65536/", "http/")]
    c.check("a port outside 1..65535 answers 422 as upstream", bad == [422, 422, 422], bad)
    status, _, _ = proxy("GET", alice, "%d/" % echo_port, headers={"Authorization": "Bearer wrong"})
    c.check("/proxy without the key answers 401", status == 401, status)
    ts.call("kill_process", alice, process_id=echo, force=True)


def downloads(ts, user, c):
    """The file browser's downloads stream: files far beyond the gateway's heap share, side by side."""
    size = 25_000_000
    status, body, _ = ts.call("run_command", user, command="mkdir -p dl && head -c %d /dev/urandom > dl/a.bin && "
                              "head -c %d /dev/urandom > dl/b.bin" % (size, size), wait=60)
    c.check("two 25 MB files of noise for the downloads", status == 200 and body.get("exit_code") == 0, (status, body))
    headers = {"Authorization": "Bearer " + ts.key, "X-User-Id": user}
    results = [None, None, None]

    def fetch(i, method, path, body):
        try:
            results[i] = ts.http(method, ts.url + path, headers, body, raw=True)
        except OSError as e:  # a gateway that died mid-download (it did, out of memory, before downloads streamed)
            results[i] = (0, str(e).encode(), "")

    workers = [threading.Thread(target=fetch, args=(0, "POST", "/files/archive", {"paths": ["dl"]})),
               threading.Thread(target=fetch, args=(1, "POST", "/files/archive", {"paths": ["dl"]})),
               threading.Thread(target=fetch, args=(2, "GET", "/files/view?path=dl/a.bin", None))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    sizes = []
    for status, payload, _ in results[:2]:
        try:
            with zipfile.ZipFile(io.BytesIO(payload)) as z:
                sizes.append(sorted((i.filename, i.file_size) for i in z.infolist()))
        except zipfile.BadZipFile:
            sizes.append((status, len(payload)))
    want = [("dl/a.bin", size), ("dl/b.bin", size)]
    c.check("two 50 MB archives at once, each whole (the gateway has a 160 MB heap)", sizes == [want, want], sizes)
    c.check("a 25 MB /files/view beside them, every byte", results[2][0] == 200 and len(results[2][1]) == size,
            (results[2][0], len(results[2][1])))
    try:
        status = ts.http("GET", ts.url + "/health", {}, None, raw=True)[0]
    except OSError as e:
        status = str(e)
    c.check("the gateway still answers after them", status == 200, status)
    ts.call("run_command", user, command="rm -rf dl", wait=30)


def pdf_bytes(pages):
    """A small PDF with one line of Helvetica text per page."""
    objs = ["<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % (3 + 2 * i) for i in range(len(pages))), len(pages))]
    font = 3 + 2 * len(pages)
    for i, text in enumerate(pages):
        stream = "BT /F1 24 Tf 72 700 Td (%s) Tj ET" % text
        objs.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> "
                    "/Contents %d 0 R >>" % (font, 4 + 2 * i))
        objs.append("<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    objs.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out, offsets = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", []
    for n, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += ("%d 0 obj\n%s\nendobj\n" % (n, o)).encode()
    xref = len(out)
    out += ("xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)).encode()
    out += b"".join(("%010d 00000 n \n" % off).encode() for off in offsets)
    out += ("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)).encode()
    return out


def odt_bytes(paragraphs):
    body = "".join("<text:p>%s</text:p>" % p for p in paragraphs)
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>%s'
               '</office:text></office:body></office:document-content>' % body)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    return buf.getvalue()


def multipart(name, data):
    boundary = uuid.uuid4().hex
    body = ("--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"%s\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n" % (boundary, name)).encode() + data + \
        ("\r\n--%s--\r\n" % boundary).encode()
    return body, "multipart/form-data; boundary=" + boundary


def file_browser(ts, user, chat, c):
    """OpenWebUI's file browser in one chat, in the order it calls, then what its model trips over (issue 17)."""
    key = {"Authorization": "Bearer " + ts.key, "X-User-Id": user, "X-Session-Id": chat}

    def call(method, path, body=None, raw=False, query=None):
        url = ts.url + path + ("?" + urllib.parse.urlencode(query, doseq=True) if query else "")
        return ts.http(method, url, key, body, raw=raw)

    def upload(directory, name, data):
        body, ctype = multipart(name, data)
        request = urllib.request.Request(ts.url + "/files/upload?" + urllib.parse.urlencode({"directory": directory}),
                                         data=body, method="POST", headers=dict(key, **{"Content-Type": ctype}))
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    status, body, _ = ts.call("run_command", user, command="rm -rf fb && mkdir -p fb/docs 'fb/données' && "
                              "printf 'one\\r\\ntwo\\r\\n' > fb/docs/crlf.txt && echo hi > 'fb/données/été.txt' && "
                              "seq 1 400000 > fb/big.txt && head -c 40000000 /dev/zero > fb/huge.bin", wait=60)
    c.check("browser: a folder to browse", status == 200 and body.get("exit_code") == 0, (status, body))

    status, body, _ = ts.http("GET", ts.url + "/api/config", {}, None)
    c.check("browser: config", status == 200 and "features" in body, (status, body))
    status, body, _ = call("GET", "/files/cwd")
    c.check("browser: cwd starts at the home", status == 200 and body.get("cwd") == "/home/user", (status, body))
    status, body, _ = call("POST", "/files/cwd", {"path": "/home/user/fb/docs"})
    c.check("browser: cwd into a folder", status == 200 and body.get("cwd") == "/home/user/fb/docs", (status, body))
    for home in ("/home/user", "/home/user/"):
        status, body, _ = call("POST", "/files/cwd", {"path": home})
        c.check("browser: cwd back to Home (%s)" % home, status == 200 and body.get("cwd") == "/home/user", (status, body))
    status, body, _ = ts.call("write_file", user, chat, path="fb/after-home.txt", content="x")
    c.check("browser: after Home the model's relative path lands below the home",
            status == 200 and body.get("path") == "/home/user/fb/after-home.txt", (status, body))
    status, body, _ = call("GET", "/files/list", query={"directory": "/home/user/fb"})
    names = sorted(e["name"] for e in body.get("entries", [])) if status == 200 else body
    c.check("browser: list", names == ["after-home.txt", "big.txt", "docs", "données", "huge.bin"], names)
    status, body, _ = call("GET", "/files/read", query={"path": "/home/user/fb/docs/crlf.txt"})
    c.check("browser: read (CRLF normalised as upstream)", status == 200 and body.get("content") == "one\ntwo\n", (status, body))
    status, payload, ctype = call("GET", "/files/view", raw=True, query={"path": "/home/user/fb/huge.bin"})
    c.check("browser: view of a 40 MB file streams whole", status == 200 and len(payload) == 40_000_000, (status, len(payload)))
    status, payload, ctype = call("GET", "/files/serve/home/user/fb/docs/crlf.txt", raw=True)
    c.check("browser: serve", status == 200 and payload == b"one\r\ntwo\r\n" and ctype.startswith("text/plain"), (status, payload, ctype))
    status, payload, _ = call("POST", "/files/archive", {"paths": ["/home/user/fb/données"]}, raw=True)
    try:
        with zipfile.ZipFile(io.BytesIO(payload)) as z:
            infos = [(i.filename, bool(i.flag_bits & 0x800)) for i in z.infolist()]
    except zipfile.BadZipFile:
        infos = (status, payload[:200])
    c.check("browser: archive with UTF-8 names (zip flag bit 11)", infos == [("données/été.txt", True)], infos)
    disposition = ts.last_headers.get("Content-Disposition", "")
    c.check("browser: the archive's download name survives in UTF-8 (filename*)",
            "filename*=UTF-8''donn%C3%A9es.zip" in disposition, disposition)
    status, payload, _ = call("POST", "/files/archive", {"paths": ["/home/user"]}, raw=True)
    c.check("browser: archive of the home", status == 200 and payload[:2] == b"PK", (status, payload[:200]))
    status, body = upload("/home/user/fb/up", "report.pdf", pdf_bytes(["Hello PDF", "Second page"]))
    c.check("browser: upload", status == 200 and body.get("path") == "/home/user/fb/up/report.pdf", (status, body))
    status, body = upload("/home/user/fb/up", "notes.odt", odt_bytes(["Grüße aus ODT", "zweite Zeile"]))
    c.check("browser: upload an ODT", status == 200, (status, body))
    status, body, _ = call("POST", "/files/mkdir", {"path": "/home/user/fb/made"})
    c.check("browser: mkdir", status == 200 and body.get("path") == "/home/user/fb/made", (status, body))
    status, body, _ = call("POST", "/files/mkdir", {"path": "/home/user"})
    c.check("browser: mkdir of the home is a no-op", status == 200, (status, body))
    status, body, _ = call("POST", "/files/move", {"source": "/home/user/fb/after-home.txt", "destination": "/home/user/fb/made/moved.txt"})
    c.check("browser: move", status == 200 and body.get("destination") == "/home/user/fb/made/moved.txt", (status, body))
    status, body, _ = call("DELETE", "/files/delete", query={"path": "/home/user/fb/made"})
    c.check("browser: delete", status == 200 and body.get("type") == "directory", (status, body))

    # What the model trips over.
    status, body, _ = ts.call("read_file", user, chat, path="fb/up/report.pdf")
    c.check("read_file of a PDF gives its text", status == 200 and "Hello PDF" in str(body.get("content"))
            and "Second page" in str(body.get("content")), (status, body))
    status, body, _ = ts.call("read_file", user, chat, path="fb/up/notes.odt", start_line=2)
    c.check("read_file of an ODT gives its text", status == 200 and body.get("content") == "zweite Zeile", (status, body))
    status, body, _ = ts.call("read_file", user, chat, path="/home/user/fb/big.txt", start_line=399999, end_line=400000)
    c.check("a line range of a 2.6 MB file", status == 200 and body.get("content") == "399999\n400000\n"
            and body.get("total_lines") == 400000, (status, str(body)[:300]))
    # Absolute paths: these must fail for their own reason, not because a relative path went astray.
    status, body, _ = ts.call("read_file", user, chat, path="/home/user/fb/docs")
    c.check("read_file of a directory is 404 as upstream", status == 404, (status, body))
    status, body, _ = ts.call("list_files", user, chat, directory="/home/user/fb/big.txt")
    c.check("list_files of a file is 404 as upstream", status == 404, (status, body))
    status, body, _ = ts.call("glob_search", user, chat, pattern="f*/*.txt", path="/home/user")
    paths = sorted(m["path"] for m in body.get("matches", [])) if status == 200 else body
    c.check("glob: '*' crosses '/' as fnmatch does", isinstance(paths, list) and "fb/docs/crlf.txt" in paths
            and "fb/données/été.txt" in paths, paths)
    status, body, _ = ts.call("run_command", user, chat, command="sleep 300")
    pid = body.get("id") if isinstance(body, dict) else None
    ts.call("kill_process", user, chat, process_id=pid)
    status, body, _ = ts.call("list_processes", user, chat)
    c.check("a killed process leaves list_processes as upstream", status == 200 and pid not in [p["id"] for p in body],
            (status, body))
    ts.call("run_command", user, command="rm -rf fb", wait=30)


if __name__ == "__main__":
    sys.exit(main())
