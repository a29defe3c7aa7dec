#!/usr/bin/env python3
"""Traffic that keeps going while services are killed (issue 23), python3 stdlib only.

Open Terminal writes and reads of one user and agent runs of one Work task (the fixture model's
"fault-" script: many short commands and writes) run until STOP_FILE exists. Then it waits for the
stack, reads back every write that was acknowledged, waits for the task's run to end, and prints one
JSON report. Exit 0 only when no request hung, no acknowledged write was lost, no answer was an
unexpected status (5xx other than 502/503/504, or a 4xx other than 404/409/429 from a moving stack)
and no run was left active.

  fault_traffic.py URL ADMIN_TOKEN TERMINAL_KEY STOP_FILE [--hang-seconds 10]

A request in flight when its service is killed is answered service_unavailable about 2 s after the
kill (decision 0024), not at its 60 s deadline: a failure later than --hang-seconds is a hang; a
success is one only after 35 s (served slowly by a restarting service; listed as slow_successes).
"""
import argparse
import json
import os
import random
import socket
import sys
import threading
import time
import urllib.error
import urllib.request

RETRYABLE = {429, 502, 503, 504}
SLOW_SUCCESS_SECONDS = 35


class Tally:
    def __init__(self, hang_seconds):
        self.lock = threading.Lock()
        self.hang_seconds = hang_seconds
        self.counts = {}
        self.unexpected = []
        self.hung = []
        self.slow = []
        self.slowest = 0.0

    def record(self, what, status, elapsed, detail=""):
        with self.lock:
            key = "%s %s" % (what, status)
            self.counts[key] = self.counts.get(key, 0) + 1
            self.slowest = max(self.slowest, elapsed)
            succeeded = isinstance(status, int) and status < 400
            # A failure (or no answer) after --hang-seconds is a hang; a success, served slowly while a
            # service restarts, only after SLOW_SUCCESS_SECONDS (it is reported either way).
            if elapsed > (SLOW_SUCCESS_SECONDS if succeeded else self.hang_seconds):
                self.hung.append("%s took %.1f s (%s)" % (what, elapsed, status))
            elif elapsed > self.hang_seconds:
                self.slow.append("%s took %.1f s (%s)" % (what, elapsed, status))
            elif isinstance(status, int) and (status >= 500 and status not in RETRYABLE):
                self.unexpected.append("%s %s %s" % (what, status, detail[:200]))


def http(method, url, headers, body=None, timeout=60):
    """(status, parsed body or bytes, seconds); status is a string for a failure without an answer."""
    data = None
    headers = dict(headers)
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    start = time.monotonic()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            payload, status = response.read(), response.status
    except urllib.error.HTTPError as e:
        payload, status = e.read(), e.code
    except (socket.timeout, TimeoutError):
        return "timeout", b"", time.monotonic() - start
    except (urllib.error.URLError, ConnectionError, OSError) as e:
        reason = getattr(e, "reason", e)
        # Refused or reset: the gateway itself is down for a moment, a retryable answer of its own kind.
        return "refused" if isinstance(reason, (ConnectionError, OSError)) else "error", b"", time.monotonic() - start
    try:
        return status, json.loads(payload or b"null"), time.monotonic() - start
    except ValueError:
        return status, payload, time.monotonic() - start


class Traffic:
    def __init__(self, args):
        self.url = args.url.rstrip("/")
        self.work = {"Authorization": "Bearer " + args.token}
        self.user = "fault-%d-%d" % (os.getpid(), random.randrange(10**6))
        self.ot = {"Authorization": "Bearer " + args.key, "X-User-Id": self.user}
        self.stop_file = args.stop_file
        self.tally = Tally(args.hang_seconds)
        self.acked = {}
        self.acked_lock = threading.Lock()
        self.task = None
        self.runs = []

    def stopping(self):
        return os.path.exists(self.stop_file)

    def writer(self):
        i = 0
        while not self.stopping():
            i += 1
            content = "write %d of %s\n" % (i, self.user)
            status, body, took = http("POST", self.url + "/api/open-terminal/files/write", self.ot,
                                      {"path": "fault/f%d.txt" % i, "content": content})
            self.tally.record("write", status, took, str(body))
            if status == 200:
                with self.acked_lock:
                    self.acked["fault/f%d.txt" % i] = content
            time.sleep(0.1)

    def reader(self):
        while not self.stopping():
            with self.acked_lock:
                paths = list(self.acked)
            if paths:
                path = random.choice(paths)
                status, body, took = http("GET", self.url + "/api/open-terminal/files/read?path=" + path, self.ot)
                self.tally.record("read", status, took, str(body))
            time.sleep(0.1)

    def runner(self):
        while not self.stopping():
            if self.task is None:
                status, body, took = http("POST", self.url + "/api/work/tasks", self.work,
                                          {"message": "Keep working.", "provider": "ollama", "model": "fault-%s" % self.user})
                self.tally.record("task create", status, took, str(body))
                if status == 201 or status == 200:
                    self.task = body["task"]["id"]
            else:
                status, body, took = http("GET", self.url + "/api/work/tasks/" + self.task, self.work)
                self.tally.record("task get", status, took, str(body))
                run = (body or {}).get("latestRun") if status == 200 else None
                if run and run.get("id") not in self.runs:
                    self.runs.append(run.get("id"))
                if run and run.get("state") not in ("preparing", "running"):
                    status, body, took = http("POST", self.url + "/api/work/tasks/%s/runs" % self.task, self.work,
                                              {"message": "Again."})
                    self.tally.record("run start", status, took, str(body))
            time.sleep(1)

    def verify(self):
        """After the faults: every acknowledged write reads back whole; the task's run ends."""
        deadline = time.monotonic() + 120
        lost = []
        with self.acked_lock:
            acked = dict(self.acked)
        for path, content in acked.items():
            while True:
                status, body, _ = http("GET", self.url + "/api/open-terminal/files/read?path=" + path, self.ot)
                if status == 200 or time.monotonic() > deadline or status not in RETRYABLE | {"refused", "timeout", "error"}:
                    break
                time.sleep(1)
            if status != 200 or (body or {}).get("content") != content:
                lost.append("%s: %s %s" % (path, status, str(body)[:120]))
        final = None
        run_deadline = time.monotonic() + 180
        while self.task and time.monotonic() < run_deadline:
            status, body, _ = http("GET", self.url + "/api/work/tasks/" + self.task, self.work)
            run = (body or {}).get("latestRun") if status == 200 else None
            final = run.get("state") if run else None
            if final and final not in ("preparing", "running"):
                break
            time.sleep(2)
        return lost, final


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("key")
    parser.add_argument("stop_file")
    parser.add_argument("--hang-seconds", type=float, default=10)
    args = parser.parse_args()
    traffic = Traffic(args)
    threads = [threading.Thread(target=t, daemon=True) for t in (traffic.writer, traffic.reader, traffic.runner)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lost, final = traffic.verify()
    report = {
        "answers": dict(sorted(traffic.tally.counts.items())),
        "acknowledged_writes": len(traffic.acked),
        "lost_writes": lost,
        "hung": traffic.tally.hung,
        "slow_successes": traffic.tally.slow,
        "unexpected": traffic.tally.unexpected[:20],
        "slowest_answer_s": round(traffic.tally.slowest, 1),
        "runs_started": len(traffic.runs),
        "last_run_state": final,
    }
    print(json.dumps(report, indent=1))
    ok = not lost and not traffic.tally.hung and not traffic.tally.unexpected and traffic.task and final \
        and final not in ("preparing", "running") and traffic.acked
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
