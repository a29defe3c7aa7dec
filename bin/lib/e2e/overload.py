#!/usr/bin/env python3
"""Overload suite (issue 23) against a running stack, through both APIs (Work and Open Terminal).

Phases: 30 concurrent 2 MB writes; 30 concurrent 2 MB reads; 20 concurrent commands each printing
1 MB; 200 concurrent small reads; then fairness: one user floods large writes while another user's
small reads, paced as a user's and through both APIs, are timed (p50/p99 printed; no timing
assertion).

Every answer must be 2xx, or 429/503 as application/problem+json with a code; anything else (other
statuses, a non-problem refusal, a transport error, no answer within the deadline) is an error and
makes the exit status 1. Standard library only.

Usage: overload.py --url URL --terminal-key KEY --token USER=TOKEN ... [--fair USER] [--flood-seconds N]
"""

import argparse
import http.client
import json
import multiprocessing
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

TWO_MB = 1_999_000  # a Work file holds at most 2,000,000 bytes
DEADLINE = 90


class Client:
    """One keep-alive HTTP connection per thread; a fresh one after any failure."""

    def __init__(self, url):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port or 80
        self.local = threading.local()

    def request(self, method, path, headers, body=None):
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection(self.host, self.port, timeout=DEADLINE)
        start = time.monotonic()
        try:
            conn.request(method, path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, resp.getheader("Content-Type", ""), resp.getheader("Retry-After"), data, time.monotonic() - start
        except Exception as e:  # noqa: BLE001 - any transport failure is an answer we count
            conn.close()
            self.local.conn = None
            return None, "", None, repr(e).encode(), time.monotonic() - start

    def close(self):
        """Closes this thread's connection: the next request opens a new one (and its time counts)."""
        conn = getattr(self.local, "conn", None)
        if conn is not None:
            conn.close()
            self.local.conn = None


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = Counter()
        self.errors = []
        self.codes = Counter()

    def record(self, label, status, ctype, retry_after, data):
        ok = True
        key = str(status) if status is not None else "transport-error"
        if status is None:
            ok = False
        elif 200 <= status < 300:
            pass
        elif status in (429, 503):
            code = None
            if ctype.startswith("application/problem+json"):
                try:
                    code = json.loads(data).get("code")
                except ValueError:
                    code = None
            if code is None:
                ok = False
            else:
                key = f"{status} {code}"
                if status == 429 and not retry_after:
                    ok = False
                    key += " (no Retry-After)"
        else:
            ok = False
        with self.lock:
            self.counts[key] += 1
            if not ok:
                self.errors.append(f"{label}: {key}: {data[:300]!r}")
        return ok


class Stack:
    def __init__(self, args):
        self.client = Client(args.url)
        self.key = args.terminal_key
        self.tokens = dict(t.split("=", 1) for t in args.token)
        self.tasks = {}

    # --- Work API
    def work(self, user, method, path, body=None):
        headers = {"Authorization": f"Bearer {self.tokens[user]}"}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.client.request(method, path, headers, body)

    def work_write(self, user, path, content):
        return self.work(user, "PUT", f"/api/work/tasks/{self.tasks[user]}/file",
                         {"path": path, "content": content, "createParents": True})

    def work_read(self, user, path):
        return self.work(user, "GET", f"/api/work/tasks/{self.tasks[user]}/file?path={urllib.parse.quote(path)}")

    # --- Open Terminal API
    def terminal(self, user, method, path, body=None):
        headers = {"Authorization": f"Bearer {self.key}", "X-User-Id": f"ovl-{user}", "X-Session-Id": "overload"}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.client.request(method, "/api/open-terminal" + path, headers, body)

    def terminal_write(self, user, path, content):
        return self.terminal(user, "POST", "/files/write", {"path": path, "content": content})

    def terminal_read(self, user, path):
        return self.terminal(user, "GET", f"/files/read?path={urllib.parse.quote(path)}")

    def terminal_view(self, user, path):
        return self.terminal(user, "GET", f"/files/view?path={urllib.parse.quote(path)}")

    def terminal_exec(self, user, command):
        return self.terminal(user, "POST", "/execute?wait=60", {"command": command})


def retrying(call, attempts=30):
    """Setup only: retries refusals (429/503) so the phases start from known files."""
    for _ in range(attempts):
        status, _, retry_after, data, _ = call()
        if status is not None and 200 <= status < 300:
            return data
        if status in (429, 503):
            time.sleep(float(retry_after or 1))
            continue
        raise RuntimeError(f"setup failed: {status} {data[:300]!r}")
    raise RuntimeError("setup: still refused after retries")


def burst(name, calls, tally):
    """Runs every call at once (a barrier releases them together) and prints the answers by status."""
    barrier = threading.Barrier(len(calls))
    lat = []

    def run(label, call):
        barrier.wait()
        status, ctype, retry_after, data, seconds = call()
        tally.record(f"{name}/{label}", status, ctype, retry_after, data)
        lat.append(seconds)

    before = Counter(tally.counts)
    threads = [threading.Thread(target=run, args=(label, call)) for label, call in calls]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    took = time.monotonic() - start
    counts = tally.counts - before
    print(f"{name}: {len(calls)} requests in {took:.1f} s, slowest {max(lat):.2f} s: "
          + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())), flush=True)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def readiness(urls, stop, seen):
    """Polls /q/health/ready of each service while the flood runs; records which checks were down and why."""
    while not stop.is_set():
        for url in urls:
            try:
                with urllib.request.urlopen(url, timeout=2) as resp:
                    body = json.loads(resp.read())
            except urllib.error.HTTPError as e:
                body = json.loads(e.read() or b"{}")
            except Exception:  # noqa: BLE001
                body = {"status": "UNREACHABLE", "checks": []}
            for check in body.get("checks", []):
                if check.get("status") != "UP":
                    seen[(url, check.get("name"), (check.get("data") or {}).get("reason"))] += 1
            seen[(url, "samples", None)] += 1
        stop.wait(0.5)


# The fair user's readers: (label, API, a new connection for every read, pause after each read).
# OpenWebUI opens a new connection for every tool call; a person's file browser keeps one open. The
# Work reader's pause keeps it under its account's rate limit (20/s).
FAIR_READERS = (("work", "work", False, 0.1), ("terminal", "terminal", False, 0.05),
                ("terminal, new connection each", "terminal", True, 0.05))


def fair_reads(stack, fair, reader, seconds, results):
    """One fair reader's small reads for `seconds`, in a process of its own (see fairness).

    Each read follows a pause, as a user's would: a reader that sends its next read as soon as the
    last one is answered reads most often while the stack is fast and least while it is slow, and
    its percentiles then hide the slow moments."""
    label, api, fresh, pause = reader
    stack.client.local = threading.local()  # a connection of its own, not the forked parent's
    answers = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if fresh:
            stack.client.close()
        if api == "work":
            status, ctype, ra, data, took = stack.work_read(fair, "small.txt")
        else:
            status, ctype, ra, data, took = stack.terminal_read(fair, "small.txt")
        answers.append((label, status, ctype, ra, data[:300], took))
        time.sleep(pause)
    results.put(answers)


def fairness(stack, flooder, fair, seconds, tally, ready_urls=()):
    """flooder writes 2 MB files from 8 threads (both APIs) while fair reads a small file; fair's latency is printed.

    Each fair reader (FAIR_READERS) runs in a process of its own: threads sharing an interpreter
    wait for its lock, the flood's eight threads sending 2 MB bodies most of all, and that wait
    would be counted as the read's time. The flood's bodies are encoded once for the same reason."""
    stop = threading.Event()
    big = "f" * TWO_MB
    flood_counts = Counter()
    fair_latency = {label: [] for label, *_ in FAIR_READERS}
    lock = threading.Lock()

    def flood(i):
        n = 0
        if i % 2:
            body = json.dumps({"path": f"flood/{i}.txt", "content": big, "createParents": True}).encode()
        else:
            body = json.dumps({"path": f"flood/{i}.txt", "content": big}).encode()
        while not stop.is_set():
            n += 1
            if i % 2:
                status, ctype, ra, data, _ = stack.work(flooder, "PUT", f"/api/work/tasks/{stack.tasks[flooder]}/file", body)
            else:
                status, ctype, ra, data, _ = stack.terminal(flooder, "POST", "/files/write", body)
            tally.record(f"flood/{i}", status, ctype, ra, data)
            with lock:
                flood_counts[status] += 1
            if status in (429, 503):
                time.sleep(0.05)  # a real client would honour Retry-After; a flood does not, much

    fork = multiprocessing.get_context("fork")
    results = fork.Queue()
    readers = [fork.Process(target=fair_reads, args=(stack, fair, reader, seconds, results)) for reader in FAIR_READERS]
    threads = [threading.Thread(target=flood, args=(i,)) for i in range(8)]
    seen = Counter()
    threads.append(threading.Thread(target=readiness, args=(ready_urls, stop, seen)))
    for reader in readers:
        reader.start()  # before this process has threads of its own to fork
    for t in threads:
        t.start()
    answers = [answer for _ in readers for answer in results.get()]
    for reader in readers:
        reader.join()
    stop.set()
    for t in threads:
        t.join()
    for label, status, ctype, ra, data, took in answers:
        tally.record(f"fair/{label}", status, ctype, ra, data)
        if status is not None and 200 <= status < 300:
            fair_latency[label].append(took)
    print(f"fairness: flood of 2 MB writes by {flooder} for {seconds} s: "
          + ", ".join(f"{k}: {v}" for k, v in sorted(flood_counts.items(), key=str)), flush=True)
    for (url, name, reason), n in sorted(seen.items(), key=str):
        if name != "samples":
            print(f"fairness: readiness {url}: check {name} down in {n} of {seen[(url, 'samples', None)]} samples"
                  + (f" (reason {reason})" if reason else ""), flush=True)
    if ready_urls and all(name == "samples" for _, name, _ in seen):
        print(f"fairness: readiness stayed up in every sample of {', '.join(ready_urls)}", flush=True)
    every = [took for values in fair_latency.values() for took in values]
    for label, values in list(fair_latency.items()) + [("all", every)]:
        if values:
            print(f"fairness: {fair}'s small reads ({label}): {len(values)} ok, p50 {percentile(values, 50) * 1000:.1f} ms, "
                  f"p99 {percentile(values, 99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms", flush=True)
    if every:
        print(f"FAIR_P99_MS={percentile(every, 99) * 1000:.1f}", flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--terminal-key", required=True)
    p.add_argument("--token", action="append", required=True, help="USER=TOKEN (the first two flood, --fair reads)")
    p.add_argument("--fair", required=True)
    p.add_argument("--flood-seconds", type=int, default=15)
    p.add_argument("--ready-url", action="append", default=[], help="a /q/health/ready polled during the flood")
    p.add_argument("--fairness-only", action="store_true", help="setup and the flood only, no bursts (bench runs)")
    args = p.parse_args()
    stack = Stack(args)
    users = [u for u in stack.tokens if u != args.fair]
    tally = Tally()

    # Setup (untimed, refusals retried): a task per user, and a 2 MB and a small file in each place.
    for user in stack.tokens:
        created = json.loads(retrying(lambda: stack.work(user, "POST", "/api/work/tasks",
                                                          {"message": "overload", "provider": "ollama", "model": "qwen3:8b"})))
        stack.tasks[user] = created["task"]["id"]
        retrying(lambda: stack.work_write(user, "small.txt", "small file\n" * 10))
        retrying(lambda: stack.terminal_write(user, "small.txt", "small file\n" * 10))
    for user in users:
        retrying(lambda: stack.work_write(user, "big.txt", "b" * TWO_MB))
        retrying(lambda: stack.terminal_write(user, "big.txt", "b\n" * (TWO_MB // 2)))
    print(f"setup: tasks {stack.tasks}", flush=True)

    if not args.fairness_only:
        bursts(stack, users, tally)
    fairness(stack, users[0], args.fair, args.flood_seconds, tally, args.ready_url)

    # The tasks' sandboxes hold slots under the global cap: give them back for whatever runs next.
    for user, task in stack.tasks.items():
        try:
            retrying(lambda: stack.work(user, "DELETE", f"/api/work/tasks/{task}"), attempts=5)
        except RuntimeError as e:
            print(f"cleanup: task {task} of {user} not deleted: {e}", flush=True)

    print("answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.counts.items())), flush=True)
    for e in tally.errors[:20]:
        print("ERROR " + e, flush=True)
    if tally.errors:
        print(f"{len(tally.errors)} answers were neither 2xx nor a 429/503 problem", flush=True)
        return 1
    return 0


def bursts(stack, users, tally):
    """30 × 2 MB writes, 30 × 2 MB reads, 20 commands printing 1 MB, 200 small reads, each all at once."""
    content = "w" * TWO_MB
    calls = []
    for i in range(30):
        user = users[i % len(users)]
        if i % 2:
            calls.append((f"work-write-{i}", lambda u=user, i=i: stack.work_write(u, f"w/{i}.txt", content)))
        else:
            calls.append((f"terminal-write-{i}", lambda u=user, i=i: stack.terminal_write(u, f"w/{i}.txt", content)))
    burst("30 concurrent 2 MB writes", calls, tally)

    calls = []
    for i in range(30):
        user = users[i % len(users)]
        kind = i % 3
        if kind == 0:
            calls.append((f"work-read-{i}", lambda u=user: stack.work_read(u, "big.txt")))
        elif kind == 1:
            calls.append((f"terminal-read-{i}", lambda u=user: stack.terminal_read(u, "big.txt")))
        else:
            calls.append((f"terminal-view-{i}", lambda u=user: stack.terminal_view(u, "big.txt")))
    burst("30 concurrent 2 MB reads", calls, tally)

    command = "yes 0123456789abcdef | head -c 1000000"
    calls = [(f"exec-{i}", lambda u=users[i % len(users)]: stack.terminal_exec(u, command)) for i in range(20)]
    burst("20 concurrent commands printing 1 MB", calls, tally)

    calls = []
    every = list(stack.tokens)
    for i in range(200):
        user = every[i % len(every)]
        if i % 2:
            calls.append((f"work-small-{i}", lambda u=user: stack.work_read(u, "small.txt")))
        else:
            calls.append((f"terminal-small-{i}", lambda u=user: stack.terminal_read(u, "small.txt")))
    burst("200 concurrent small reads", calls, tally)


if __name__ == "__main__":
    sys.exit(main())
