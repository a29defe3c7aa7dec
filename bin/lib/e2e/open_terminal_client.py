#!/usr/bin/env python3
"""Open Terminal end-to-end check against a running Workcell gateway, as OpenWebUI uses it.

Fetches openapi.json, derives one tool per operationId (method, path, parameters by location, JSON
body), and calls the tools with X-User-Id/X-Session-Id like OpenWebUI's tool-server client. Checks
the tools work, two users are isolated, escapes are refused, no stack secret is visible inside
a sandbox, and the file browser's downloads stream (two 50 MB archives at once in a 160 MB gateway). Python 3 standard library only.

usage: open_terminal_client.py URL KEY [--api-key-file F] [--db-password-file F] [--jwt-key-file F] [--secret-file F]...
URL is the connection URL OpenWebUI would be given, e.g. http://127.0.0.1:8480/api/open-terminal.
Exit 0 when every check passed; one line per check on stdout.
"""
import argparse
import io
import json
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
        except urllib.error.HTTPError as e:
            payload, status, ctype = e.read(), e.code, e.headers.get("Content-Type", "")
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
    print("%d failed" % c.failed)
    return 1 if c.failed else 0


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


if __name__ == "__main__":
    sys.exit(main())
